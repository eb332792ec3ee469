package viewer

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
	"bendscript.com/round-trip-harness/viewer/chart"
)

// labelGap is the least distance between the baselines of two line
// labels, in SVG user units.
const labelGap = 12

// The viewer's plots are inline SVG charts that explain themselves: both
// axes carry a title with the unit, every plot has a legend that names
// each kind of mark and line (and every symbol a tick uses), marks differ
// in shape as well as colour, and every panel of one quantity shares one
// y-scale across models so that panels compare by eye. Labels of
// horizontal lines sit in the right margin, moved apart so that no two
// overlap; the browser test measures that in Chromium.

// sharedTops is, per class, the top of the value axis shared by every
// model's panel: 1 for faithfulness; for drift the largest document drift
// and threshold of any model, with a margin, at most 1.
func sharedTops(r *report.Report) map[string]float64 {
	tops := map[string]float64{task.ClassA: 1}
	for _, class := range []string{task.ClassB, task.ClassC} {
		top := 0.0
		for _, model := range r.Models {
			if c := r.Results[model].Class(class); c != nil && c.MaxDrift != nil {
				top = math.Max(top, *c.MaxDrift)
			}
		}
		for _, t := range r.Checks() {
			if t.Class == class && !t.Own && !r.Informational() {
				top = math.Max(top, t.Limit)
			}
		}
		tops[class] = chart.NiceTop(top)
	}
	return tops
}

// newPlot is the chart of one (model, class): one mark per document (a
// dot at its drift, or a bar of its faithfulness) and horizontal lines
// for the median, the P95 and the thresholds.
func newPlot(r *report.Report, model string, c *report.ClassResult, top float64) chart.Chart {
	id := fmt.Sprintf("plot-%s-%s", transcript.Slug(model), c.Class)
	yTitle := "drift (0 = as expected)"
	if c.Class == task.ClassA {
		yTitle = "faithful share of answers"
	}
	p := chart.New(id, fmt.Sprintf("%s, class %s", model, c.Class), "document (task id)", yTitle)
	n := len(c.PerDocument)
	if n == 0 {
		p.Empty = true
		return p
	}
	p.YScale(top)
	step := (p.X1f - p.X0f) / float64(n)
	for i, d := range c.PerDocument {
		cx := p.X0f + step*(float64(i)+0.5)
		href := "#" + anchor(model, d.TaskID, 0)
		if c.Class == task.ClassA {
			if d.Faithful != nil {
				p.Bars = append(p.Bars, p.Bar(cx, step, *d.Faithful, href, fmt.Sprintf("%s: faithful %s", d.TaskID, unit.Num(*d.Faithful))))
			}
		} else if d.Drift != nil {
			p.Mark("circle", "doc", cx, p.Y(*d.Drift), href, fmt.Sprintf("%s: drift %s", d.TaskID, unit.Num(*d.Drift)))
		}
		if i%5 == 0 || i == n-1 {
			doc, _, _ := strings.Cut(d.TaskID, "-")
			p.XTick(cx, doc, "", i == n-1)
		}
	}
	p.Lines = placeLabels(plotLines(r, c), p.Y, p.Y0f, float64(chart.H)-4)
	if c.Class == task.ClassA {
		p.Legend = append(p.Legend, chart.LegendItem{Kind: "bar", Class: "bar", Label: "a document's faithful share (click for its transcript)"},
			chart.LegendItem{Kind: "line", Class: "median", Label: "faithfulness (mean over documents)"})
	} else {
		p.Legend = append(p.Legend, chart.LegendItem{Kind: "circle", Class: "doc", Label: "a document's drift, its first scored repeat's (click for its transcript)"},
			chart.LegendItem{Kind: "line", Class: "median", Label: "median"}, chart.LegendItem{Kind: "line", Class: "p95", Label: "P95"})
	}
	if slices.ContainsFunc(p.Bars, func(b chart.PlotMark) bool { return b.Class == "bar zero" }) {
		p.Legend = append(p.Legend, chart.LegendItem{Kind: "bar", Class: "bar zero", Label: "no answer judged faithful (a stub, to click)"})
	}
	if !r.Informational() {
		p.Legend = append(p.Legend, chart.LegendItem{Kind: "line", Class: "threshold", Label: "§8.5 threshold"})
	}
	p.Fails = panelFailures(r, model, c.Class)
	return p
}

// panelFailures are the failures of a model's class that its panel shows
// beside the plot: the harness's own gates (edits applied, invalid,
// residual, unchanged) are not drawn, and a panel of good drift over
// edits never applied looked all green (issue 34).
func panelFailures(r *report.Report, model, class string) []string {
	var out []string
	prefix := "class_" + strings.ToLower(class) + "_"
	for _, f := range r.Failures {
		if f.Model == model && strings.HasPrefix(f.Metric, prefix) {
			out = append(out, strings.TrimPrefix(f.Message, model+": "))
		}
	}
	return out
}

type lineSpec struct {
	v            float64
	class, label string
}

func plotLines(r *report.Report, c *report.ClassResult) []lineSpec {
	var ls []lineSpec
	for _, t := range r.Checks() {
		// The harness's own thresholds are on edit compliance, not on the
		// plotted drift or faithfulness; an informational suite has none.
		if t.Class == c.Class && !t.Own && !r.Informational() {
			ls = append(ls, lineSpec{t.Limit, "threshold", limitLabel(t)})
		}
	}
	switch {
	case c.Class == task.ClassA && c.Faithfulness != nil:
		ls = append(ls, lineSpec{*c.Faithfulness, "median", "faithful " + unit.Num(*c.Faithfulness)})
	case c.MedianDrift != nil:
		ls = append(ls, lineSpec{*c.MedianDrift, "median", "median " + unit.Num(*c.MedianDrift)},
			lineSpec{*c.P95Drift, "p95", "P95 " + unit.Num(*c.P95Drift)})
	}
	return ls
}

// limitLabel names a threshold's line by what it limits: two red lines
// both read "limit ≤ x", the median's and the P95's (issue 34).
func limitLabel(t verdict.Threshold) string {
	switch {
	case strings.Contains(t.Metric, "p95"):
		return "P95 limit " + unit.Num(t.Limit)
	case strings.Contains(t.Metric, "median"):
		return "median limit " + unit.Num(t.Limit)
	}
	return fmt.Sprintf("limit %s %s", unit.OpSymbol(t.Op), unit.Num(t.Limit))
}

// placeLabels positions the lines and their labels: each label at its
// line, then moved apart so that two baselines are at least labelGap
// apart, within [lo, hi]: pushed down from the top, then, where that runs
// past hi, up from the bottom.
func placeLabels(ls []lineSpec, y func(float64) float64, lo, hi float64) []chart.PlotLine {
	type placed struct {
		spec   lineSpec
		y, lab float64
	}
	ps := make([]placed, len(ls))
	for i, l := range ls {
		ps[i] = placed{l, y(l.v), y(l.v) + 4}
	}
	// Sort by position, ties by label, so the layout is deterministic.
	slices.SortStableFunc(ps, func(a, b placed) int {
		return cmp.Or(cmp.Compare(a.y, b.y), cmp.Compare(a.spec.label, b.spec.label))
	})
	for i := range ps {
		ps[i].lab = math.Max(ps[i].lab, lo+8)
		if i > 0 {
			ps[i].lab = math.Max(ps[i].lab, ps[i-1].lab+labelGap)
		}
	}
	for i := len(ps) - 1; i >= 0; i-- {
		ps[i].lab = math.Min(ps[i].lab, hi)
		if i < len(ps)-1 {
			ps[i].lab = math.Min(ps[i].lab, ps[i+1].lab-labelGap)
		}
	}
	out := make([]chart.PlotLine, len(ps))
	for i, p := range ps {
		out[i] = chart.PlotLine{Y: chart.F1(p.y), LabelY: chart.F1(p.lab), Class: p.spec.class, Label: p.spec.label}
	}
	return out
}

// byModelFormat splits a section's rows (those keep picks) per model and
// answer format, in row order: one chart each.
func byModelFormat(sec report.Section, keep func(report.Row) bool) [][]report.Row {
	var out [][]report.Row
	at := map[[2]string]int{}
	for _, row := range sec.Rows {
		if !keep(row) {
			continue
		}
		k := [2]string{row.Model, row.Format}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], row)
	}
	return out
}

// chartName is a chart's subject: the model, and the format in a run of
// several.
func chartName(sec report.Section, row report.Row) string {
	if render.Labelled(sec) {
		return row.Model + ", " + row.Format
	}
	return row.Model
}

// newSizePlots are the charts of a section compared by document size,
// one per model (and format): per total row (a rung), its median and P95
// drift against the document's size on a log axis, and its cost as bars
// on a right axis when any answer's cost was reported. Every chart has
// the same axes.
func newSizePlots(sec report.Section) []chart.Chart {
	groups := byModelFormat(sec, func(row report.Row) bool { return row.Total })
	lo, hi, top, maxCost := math.Inf(1), math.Inf(-1), 0.0, 0.0
	for _, rows := range groups {
		for _, row := range rows {
			b := math.Log(float64(max(row.DocumentBytes, 1)))
			lo, hi = math.Min(lo, b), math.Max(hi, b)
			if row.P95Drift != nil {
				top = math.Max(top, *row.P95Drift)
			}
			maxCost = math.Max(maxCost, row.Cost.USD)
		}
	}
	var out []chart.Chart
	for _, rows := range groups {
		out = append(out, sizePlotOf(sec, rows, lo, hi, chart.NiceTop(top), maxCost))
	}
	return out
}

func sizePlotOf(sec report.Section, rows []report.Row, lo, hi, top, maxCost float64) chart.Chart {
	name := chartName(sec, rows[0])
	// The title promises cost only where bars draw it: offline models
	// cost nothing, and the title promised it anyway (issue 34).
	what := ": drift against document size"
	if maxCost > 0 {
		what = ": drift and cost against document size"
	}
	p := chart.New("size-"+transcript.Slug(name), name+what, "document size (KiB, log scale)", "drift (0 = as expected)")
	p.YScale(top)
	x := func(bytes int) float64 {
		if hi == lo {
			return (p.X0f + p.X1f) / 2
		}
		f := (math.Log(float64(max(bytes, 1))) - lo) / (hi - lo)
		return p.X0f + (p.X1f-p.X0f)*(0.08+0.84*f)
	}
	var median, p95 []string
	for i, row := range rows {
		cx, label := x(row.DocumentBytes), strings.Join(nonTotal(row.Labels), " ")
		p.XTick(cx, chart.KiB(row.DocumentBytes), label, i == len(rows)-1)
		if maxCost > 0 {
			h := (p.Y1f - p.Y0f) * row.Cost.USD / maxCost
			p.Bars = append(p.Bars, chart.PlotMark{X: chart.F1(cx - 9), Y: chart.F1(p.Y1f - h), W: "18", H: chart.F1(h),
				Title: fmt.Sprintf("%s: cost $%.4f, %d output tokens", label, row.Cost.USD, row.Tokens.Completion)})
		}
		if row.MedianDrift == nil {
			continue
		}
		title := fmt.Sprintf("%s (%d bytes): median drift %s, P95 %s, edits applied %s, lossless %s, %d invalid, %d cut off", label, row.DocumentBytes,
			unit.Num(*row.MedianDrift), unit.NumOr(row.P95Drift, "n/a"), unit.PercentOr(row.EditsApplied), unit.PercentOr(row.Lossless), row.Invalid, row.CutOff)
		p.Mark("circle", "median", cx, p.Y(*row.MedianDrift), "", title)
		median = append(median, chart.F1(cx)+","+chart.F1(p.Y(*row.MedianDrift)))
		if row.P95Drift != nil {
			p.Mark("square", "p95", cx, p.Y(*row.P95Drift), "", title)
			p95 = append(p95, chart.F1(cx)+","+chart.F1(p.Y(*row.P95Drift)))
		}
	}
	p.Polylines = []chart.Polyline{{Class: "p95", Points: strings.Join(p95, " ")}, {Class: "median", Points: strings.Join(median, " ")}}
	p.Legend = []chart.LegendItem{{Kind: "circle", Class: "median", Label: "median drift of the rung's answers"}, {Kind: "square", Class: "p95", Label: "P95 drift"}}
	if maxCost > 0 {
		p.Y2Title, p.Y2TitleAt = "cost (USD)", chart.Point{X: chart.F1(chart.W - 16), Y: chart.F1((p.Y0f + p.Y1f) / 2)}
		p.Y2Ticks = []chart.Tick{{X: chart.F1(p.X1f + 6), Y: chart.F1(p.Y1f + 4), Label: "$0"}, {X: chart.F1(p.X1f + 6), Y: chart.F1(p.Y0f + 4), Label: fmt.Sprintf("$%.4f", maxCost)}}
		p.Legend = append(p.Legend, chart.LegendItem{Kind: "bar", Class: "bar", Label: "the rung's cost (right axis)"})
	}
	return p
}

// nonTotal is a total row's labels without the total's own.
func nonTotal(labels []string) []string {
	var out []string
	for _, l := range labels {
		if l != suites.Total {
			out = append(out, l)
		}
	}
	return out
}

// newStepPlots are the charts of a section of steps, one per model (and
// format), with one y-scale: every chain's drift at every step, forward
// edits as circles and inverse ones (suites.Grouping.Inverse) as triangles
// of another colour, the median per step joined by a line, and its
// exact interval as a band. The chains' dots are the report's answers
// (report.Answer), the medians and bands its section's rows.
func newStepPlots(suite *suites.Suite, sec report.Section, answers []report.Answer) []chart.Chart {
	inverse := func(report.Key) bool { return false }
	legend := [2]string{"a chain at a forward step (B, C; click for its transcript)", "a chain at an inverse step (C⁻¹, B⁻¹)"}
	if s := suite.GroupingOf(sec.Part); s != nil && s.Inverse != nil {
		inverse = s.Inverse
		if s.Legend[0] != "" {
			legend = s.Legend
		}
	}
	// The scale reaches the largest chain drift, so that no mark is
	// clamped.
	top := 0.0
	for _, a := range answers {
		if a.Step > 0 && a.Part == sec.Part && a.Status == scoring.StatusScored && a.Drift != nil {
			top = math.Max(top, *a.Drift)
		}
	}
	var out []chart.Chart
	for _, rows := range byModelFormat(sec, func(report.Row) bool { return true }) {
		out = append(out, stepPlotOf(sec, rows, answers, chart.NiceTop(top), inverse, legend))
	}
	return out
}

func stepPlotOf(sec report.Section, rows []report.Row, answers []report.Answer, top float64, inverse func(report.Key) bool, legend [2]string) chart.Chart {
	name := chartName(sec, rows[0])
	p := chart.New("steps-"+transcript.Slug(name), name+": drift against step", "step (edit asked for; ↺ expects the source)", "drift (0 = as expected)")
	p.YScale(top)
	n := rows[len(rows)-1].Step
	x := func(step int) float64 { return p.X0f + (p.X1f-p.X0f)*(float64(step)-0.5)/float64(n) }
	var median, upper, lower []string
	label := map[int]string{}
	for i, row := range rows {
		label[row.Step] = strings.Join(row.Labels[1:], " ")
		p.XTick(x(row.Step), strconv.Itoa(row.Step), strings.Join(append(row.Labels[1:], roundTripMark(row.Labels[0])), " "), i == len(rows)-1)
		if row.MedianDrift == nil {
			continue
		}
		median = append(median, chart.F1(x(row.Step))+","+chart.F1(p.Y(*row.MedianDrift)))
		lo, hi := *row.MedianDrift, *row.MedianDrift
		if iv := row.MedianInterval; iv != nil {
			lo, hi = iv.Low, iv.High
		}
		upper = append(upper, chart.F1(x(row.Step))+","+chart.F1(p.Y(hi)))
		lower = append([]string{chart.F1(x(row.Step)) + "," + chart.F1(p.Y(lo))}, lower...)
	}
	p.Bands = []string{strings.Join(append(upper, lower...), " ")}
	p.Polylines = []chart.Polyline{{Class: "median", Points: strings.Join(median, " ")}}
	type dot struct {
		href, title string
		key         report.Key
		d           float64
	}
	var dots []dot
	for _, a := range answers {
		if a.Step == 0 || a.Model != rows[0].Model || a.Part != sec.Part || a.Status != scoring.StatusScored || a.Drift == nil || cmp.Or(a.Format, rows[0].Format) != rows[0].Format {
			continue
		}
		dots = append(dots, dot{"#" + anchor(a.Model, a.TaskID, a.Repeat), fmt.Sprintf("chain %s r%d, step %d (%s): drift %s", a.Chain, a.Repeat, a.Step, label[a.Step], unit.Num(*a.Drift)),
			report.Key{Model: a.Model, Part: a.Part, Step: a.Step}, *a.Drift})
	}
	slices.SortStableFunc(dots, func(a, b dot) int { return cmp.Compare(a.href, b.href) })
	for _, d := range dots {
		shape, class := "circle", "forward"
		if inverse(d.key) {
			shape, class = "triangle", "inverse"
		}
		p.Mark(shape, class, x(d.key.Step), p.Y(d.d), d.href, d.title)
	}
	p.Legend = []chart.LegendItem{
		{Kind: "circle", Class: "forward", Label: legend[0]},
		{Kind: "triangle", Class: "inverse", Label: legend[1]},
		{Kind: "line", Class: "median", Label: "median per step"},
		{Kind: "band", Class: "band", Label: "exact 95% interval of the median"},
		{Kind: "symbol", Symbol: "↺", Label: "the step expects the source itself"},
	}
	return p
}

// roundTripMark is the ↺ of a step label that has one ("4 ↺"), or "".
func roundTripMark(step string) string {
	if _, mark, ok := strings.Cut(step, " "); ok {
		return mark
	}
	return ""
}
