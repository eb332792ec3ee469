package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
)

// The viewer's plots are inline SVG charts that explain themselves: both
// axes carry a title with the unit, every plot has a legend that names
// each kind of mark and line (and every symbol a tick uses), marks differ
// in shape as well as colour, and every panel of one quantity shares one
// y-scale across models so that panels compare by eye. Labels of
// horizontal lines sit in the right margin, moved apart so that no two
// overlap; the browser test measures that in Chromium.

// Chart geometry, in SVG user units. The SVG scales down with the page
// (viewer.css), so one geometry serves every width.
const (
	plotW, plotH                         = 520, 250
	padLeft, padRight, padTop, padBottom = 58, 106, 14, 48
	labelGap                             = 12   // between the baselines of two line labels
	minTickGap                           = 38.0 // between the centres of two x-tick labels
)

// chart is one plot of the viewer.
type chart struct {
	ID, Caption    string
	W, H           int
	X0, X1, Y0, Y1 string // the plot area
	// XTitle and YTitle name the axes with their units; Y2Title the
	// right axis (the size plot's cost), when there is one.
	XTitle, YTitle, Y2Title       string
	XTitleAt, YTitleAt, Y2TitleAt point
	XTicks, YTicks, Y2Ticks       []plotTick
	Bands                         []string // polygons' points
	Polylines                     []polyline
	Lines                         []plotLine
	Bars, Marks                   []plotMark
	Legend                        []legendItem
	// Fails are the failures of the panel's model and class, shown
	// under it: the gates no line of the plot draws among them.
	Fails              []string
	Empty              bool
	top                float64
	x0f, x1f, y0f, y1f float64
}

type point struct{ X, Y string }

// plotMark is one mark: a bar (X, Y, W, H) or a point mark (X, Y) of a
// Shape ("circle", "triangle", "square") and Class (its colour).
type plotMark struct {
	X, Y, W, H   string
	Shape, Class string
	Points       string // a triangle's or square's points
	Href, Title  string
}

type polyline struct{ Class, Points string }

// plotLine is a horizontal line across the plot with its label in the
// right margin.
type plotLine struct {
	Y, LabelY, Class, Label string
}

// plotTick is a tick label; Label2, when set, is a second line under it.
type plotTick struct {
	X, Y, Label, Label2 string
}

// legendItem is one entry of a legend: a swatch of Kind ("circle",
// "triangle", "square", "bar", "line", "band", "symbol") and Class, and
// what it means.
type legendItem struct {
	Kind, Class, Symbol, Label string
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// newChart lays out an empty chart with its axis titles.
func newChart(id, caption, xTitle, yTitle string) chart {
	c := chart{ID: id, Caption: caption, W: plotW, H: plotH, XTitle: xTitle, YTitle: yTitle}
	c.x0f, c.x1f = padLeft, plotW-padRight
	c.y0f, c.y1f = padTop, plotH-padBottom
	c.X0, c.X1, c.Y0, c.Y1 = f1(c.x0f), f1(c.x1f), f1(c.y0f), f1(c.y1f)
	c.XTitleAt = point{f1((c.x0f + c.x1f) / 2), f1(plotH - 6)}
	c.YTitleAt = point{"14", f1((c.y0f + c.y1f) / 2)}
	return c
}

// tickSteps are the steps a value axis may count in: round numbers, so
// that a tick reads 0.1, not 0.225 (issue 34).
var tickSteps = []float64{0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1}

// niceScale rounds top up to a whole number of the smallest step that
// reaches it in at most five ticks above 0.
func niceScale(top float64) (float64, float64) {
	for _, step := range tickSteps {
		if n := math.Ceil(top/step - 1e-9); n <= 5 {
			return math.Max(n, 1) * step, step
		}
	}
	step := math.Ceil(top / 5)
	return 5 * step, step
}

// yScale sets the value axis to [0, top], top rounded up by niceScale,
// with a tick at every step.
func (c *chart) yScale(top float64) {
	top, step := niceScale(top)
	c.top = top
	for i := 0.0; i*step <= top+1e-9; i++ {
		v := i * step
		c.YTicks = append(c.YTicks, plotTick{X: f1(c.x0f - 6), Y: f1(c.y(v) + 4), Label: unit.Num(v)})
	}
}

// y is the SVG y of value v, clamped to the axis.
func (c *chart) y(v float64) float64 {
	return c.y1f - (c.y1f-c.y0f)*math.Max(0, math.Min(v, c.top))/c.top
}

// xTick adds an x-tick label at x unless it would crowd the previous one
// (the mark stays; only its label is left out). A last tick crowding the
// previous one replaces it, so the axis always shows its end.
func (c *chart) xTick(x float64, label, label2 string, last bool) {
	t := plotTick{X: f1(x), Y: f1(c.y1f + 14), Label: label, Label2: label2}
	if n := len(c.XTicks); n > 0 {
		prev, _ := strconv.ParseFloat(c.XTicks[n-1].X, 64)
		if x-prev < minTickGap {
			if !last {
				return
			}
			c.XTicks = c.XTicks[:n-1]
		}
	}
	c.XTicks = append(c.XTicks, t)
}

// mark adds a point mark of a shape at (x, y).
func (c *chart) mark(shape, class string, x, y float64, href, title string) {
	m := plotMark{X: f1(x), Y: f1(y), Shape: shape, Class: class, Href: href, Title: title}
	switch shape {
	case "triangle":
		m.Points = fmt.Sprintf("%s,%s %s,%s %s,%s", f1(x), f1(y-4.5), f1(x-4), f1(y+3), f1(x+4), f1(y+3))
	case "square":
		m.Points = fmt.Sprintf("%s,%s %s,%s %s,%s %s,%s", f1(x-3.5), f1(y-3.5), f1(x+3.5), f1(y-3.5), f1(x+3.5), f1(y+3.5), f1(x-3.5), f1(y+3.5))
	}
	c.Marks = append(c.Marks, m)
}

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
		tops[class] = niceTop(top)
	}
	return tops
}

// niceTop rounds the largest value up to a twentieth, with a margin,
// within [0.05, 1].
func niceTop(v float64) float64 {
	return math.Min(1, math.Max(0.05, math.Ceil(v*1.1*20)/20))
}

// newPlot is the chart of one (model, class): one mark per document (a
// dot at its drift, or a bar of its faithfulness) and horizontal lines
// for the median, the P95 and the thresholds.
func newPlot(r *report.Report, model string, c *report.ClassResult, top float64) chart {
	id := fmt.Sprintf("plot-%s-%s", transcript.Slug(model), c.Class)
	yTitle := "drift (0 = as expected)"
	if c.Class == task.ClassA {
		yTitle = "faithful share of answers"
	}
	p := newChart(id, fmt.Sprintf("%s, class %s", model, c.Class), "document (task id)", yTitle)
	n := len(c.PerDocument)
	if n == 0 {
		p.Empty = true
		return p
	}
	p.yScale(top)
	step := (p.x1f - p.x0f) / float64(n)
	for i, d := range c.PerDocument {
		cx := p.x0f + step*(float64(i)+0.5)
		href := "#" + anchor(model, d.TaskID, 0)
		if c.Class == task.ClassA {
			if d.Faithful != nil {
				p.Bars = append(p.Bars, p.bar(cx, step, *d.Faithful, href, fmt.Sprintf("%s: faithful %s", d.TaskID, unit.Num(*d.Faithful))))
			}
		} else if d.Drift != nil {
			p.mark("circle", "doc", cx, p.y(*d.Drift), href, fmt.Sprintf("%s: drift %s", d.TaskID, unit.Num(*d.Drift)))
		}
		if i%5 == 0 || i == n-1 {
			doc, _, _ := strings.Cut(d.TaskID, "-")
			p.xTick(cx, doc, "", i == n-1)
		}
	}
	p.Lines = placeLabels(plotLines(r, c), p.y, p.y0f, float64(plotH)-4)
	if c.Class == task.ClassA {
		p.Legend = append(p.Legend, legendItem{Kind: "bar", Class: "bar", Label: "a document's faithful share (click for its transcript)"},
			legendItem{Kind: "line", Class: "median", Label: "faithfulness (mean over documents)"})
	} else {
		p.Legend = append(p.Legend, legendItem{Kind: "circle", Class: "doc", Label: "a document's drift, its first scored repeat's (click for its transcript)"},
			legendItem{Kind: "line", Class: "median", Label: "median"}, legendItem{Kind: "line", Class: "p95", Label: "P95"})
	}
	if slices.ContainsFunc(p.Bars, func(b plotMark) bool { return b.Class == "bar zero" }) {
		p.Legend = append(p.Legend, legendItem{Kind: "bar", Class: "bar zero", Label: "no answer judged faithful (a stub, to click)"})
	}
	if !r.Informational() {
		p.Legend = append(p.Legend, legendItem{Kind: "line", Class: "threshold", Label: "§8.5 threshold"})
	}
	p.Fails = panelFailures(r, model, c.Class)
	return p
}

// zeroBar is the height of a bar of value 0: a stub, so that a document
// no answer was faithful on is seen and can be clicked (a bar of height 0
// was neither: issue 34).
const zeroBar = 3.0

// bar is a document's bar, centred at cx, step wide with gaps.
func (c *chart) bar(cx, step, v float64, href, title string) plotMark {
	y, class := c.y(v), "bar"
	if c.y1f-y < zeroBar {
		y, class = c.y1f-zeroBar, "bar zero"
	}
	return plotMark{X: f1(cx - step*0.35), Y: f1(y), W: f1(step * 0.7), H: f1(c.y1f - y), Class: class, Href: href, Title: title}
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
func limitLabel(t report.Threshold) string {
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
func placeLabels(ls []lineSpec, y func(float64) float64, lo, hi float64) []plotLine {
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
	out := make([]plotLine, len(ps))
	for i, p := range ps {
		out[i] = plotLine{Y: f1(p.y), LabelY: f1(p.lab), Class: p.spec.class, Label: p.spec.label}
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
	if sec.Formats {
		return row.Model + ", " + row.Format
	}
	return row.Model
}

// newSizePlots are the charts of a section compared by document size,
// one per model (and format): per total row (a rung), its median and P95
// drift against the document's size on a log axis, and its cost as bars
// on a right axis when any answer's cost was reported. Every chart has
// the same axes.
func newSizePlots(sec report.Section) []chart {
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
	var out []chart
	for _, rows := range groups {
		out = append(out, sizePlotOf(sec, rows, lo, hi, niceTop(top), maxCost))
	}
	return out
}

func sizePlotOf(sec report.Section, rows []report.Row, lo, hi, top, maxCost float64) chart {
	name := chartName(sec, rows[0])
	// The title promises cost only where bars draw it: offline models
	// cost nothing, and the title promised it anyway (issue 34).
	what := ": drift against document size"
	if maxCost > 0 {
		what = ": drift and cost against document size"
	}
	p := newChart("size-"+transcript.Slug(name), name+what, "document size (KiB, log scale)", "drift (0 = as expected)")
	p.yScale(top)
	x := func(bytes int) float64 {
		if hi == lo {
			return (p.x0f + p.x1f) / 2
		}
		f := (math.Log(float64(max(bytes, 1))) - lo) / (hi - lo)
		return p.x0f + (p.x1f-p.x0f)*(0.08+0.84*f)
	}
	var median, p95 []string
	for i, row := range rows {
		cx, label := x(row.DocumentBytes), strings.Join(nonTotal(row.Labels), " ")
		p.xTick(cx, kib(row.DocumentBytes), label, i == len(rows)-1)
		if maxCost > 0 {
			h := (p.y1f - p.y0f) * row.Cost.USD / maxCost
			p.Bars = append(p.Bars, plotMark{X: f1(cx - 9), Y: f1(p.y1f - h), W: "18", H: f1(h),
				Title: fmt.Sprintf("%s: cost $%.4f, %d output tokens", label, row.Cost.USD, row.Tokens.Completion)})
		}
		if row.MedianDrift == nil {
			continue
		}
		title := fmt.Sprintf("%s (%d bytes): median drift %s, P95 %s, edits applied %s, lossless %s, %d invalid, %d cut off", label, row.DocumentBytes,
			unit.Num(*row.MedianDrift), unit.NumOr(row.P95Drift, "n/a"), unit.PercentOr(row.EditsApplied), unit.PercentOr(row.Lossless), row.Invalid, row.CutOff)
		p.mark("circle", "median", cx, p.y(*row.MedianDrift), "", title)
		median = append(median, f1(cx)+","+f1(p.y(*row.MedianDrift)))
		if row.P95Drift != nil {
			p.mark("square", "p95", cx, p.y(*row.P95Drift), "", title)
			p95 = append(p95, f1(cx)+","+f1(p.y(*row.P95Drift)))
		}
	}
	p.Polylines = []polyline{{"p95", strings.Join(p95, " ")}, {"median", strings.Join(median, " ")}}
	p.Legend = []legendItem{{Kind: "circle", Class: "median", Label: "median drift of the rung's answers"}, {Kind: "square", Class: "p95", Label: "P95 drift"}}
	if maxCost > 0 {
		p.Y2Title, p.Y2TitleAt = "cost (USD)", point{f1(plotW - 16), f1((p.y0f + p.y1f) / 2)}
		p.Y2Ticks = []plotTick{{X: f1(p.x1f + 6), Y: f1(p.y1f + 4), Label: "$0"}, {X: f1(p.x1f + 6), Y: f1(p.y0f + 4), Label: fmt.Sprintf("$%.4f", maxCost)}}
		p.Legend = append(p.Legend, legendItem{Kind: "bar", Class: "bar", Label: "the rung's cost (right axis)"})
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

// kib formats a byte count in KiB for an axis.
func kib(b int) string {
	v := float64(b) / 1024
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " KiB"
}

// newStepPlots are the charts of a section of steps, one per model (and
// format), with one y-scale: every chain's drift at every step, forward
// edits as circles and inverse ones (suites.Section.Inverse) as triangles
// of another colour, the median per step joined by a line, and its
// exact interval as a band.
func newStepPlots(suite *suites.Suite, sec report.Section, in Input) []chart {
	inverse := func(suites.Key) bool { return false }
	legend := [2]string{"a chain at a forward step (B, C; click for its transcript)", "a chain at an inverse step (C⁻¹, B⁻¹)"}
	if s := suite.SectionOf(sec.Part); s != nil && s.Inverse != nil {
		inverse = s.Inverse
		if s.Legend[0] != "" {
			legend = s.Legend
		}
	}
	// The scale reaches the largest chain drift, so that no mark is
	// clamped.
	top := 0.0
	for _, s := range in.Scores {
		if s.Step > 0 && s.Suite == sec.Part {
			if d, scored := s.Drift(); scored {
				top = math.Max(top, d)
			}
		}
	}
	var out []chart
	for _, rows := range byModelFormat(sec, func(report.Row) bool { return true }) {
		out = append(out, stepPlotOf(sec, rows, in, niceTop(top), inverse, legend))
	}
	return out
}

func stepPlotOf(sec report.Section, rows []report.Row, in Input, top float64, inverse func(suites.Key) bool, legend [2]string) chart {
	name := chartName(sec, rows[0])
	p := newChart("steps-"+transcript.Slug(name), name+": drift against step", "step (edit asked for; ↺ expects the source)", "drift (0 = as expected)")
	p.yScale(top)
	n := rows[len(rows)-1].Step
	x := func(step int) float64 { return p.x0f + (p.x1f-p.x0f)*(float64(step)-0.5)/float64(n) }
	var median, upper, lower []string
	label := map[int]string{}
	for i, row := range rows {
		label[row.Step] = strings.Join(row.Labels[1:], " ")
		p.xTick(x(row.Step), strconv.Itoa(row.Step), strings.Join(append(row.Labels[1:], roundTripMark(row.Labels[0])), " "), i == len(rows)-1)
		if row.MedianDrift == nil {
			continue
		}
		median = append(median, f1(x(row.Step))+","+f1(p.y(*row.MedianDrift)))
		lo, hi := *row.MedianDrift, *row.MedianDrift
		if iv := row.MedianInterval; iv != nil {
			lo, hi = iv.Low, iv.High
		}
		upper = append(upper, f1(x(row.Step))+","+f1(p.y(hi)))
		lower = append([]string{f1(x(row.Step)) + "," + f1(p.y(lo))}, lower...)
	}
	p.Bands = []string{strings.Join(append(upper, lower...), " ")}
	p.Polylines = []polyline{{"median", strings.Join(median, " ")}}
	type dot struct {
		href, title string
		key         suites.Key
		d           float64
	}
	var dots []dot
	for _, s := range in.Scores {
		d, scored := s.Drift()
		if s.Step == 0 || s.Model != rows[0].Model || s.Suite != sec.Part || !scored || cmp.Or(s.Format, rows[0].Format) != rows[0].Format {
			continue
		}
		dots = append(dots, dot{"#" + anchor(s.Model, s.TaskID, s.Repeat), fmt.Sprintf("chain %s r%d, step %d (%s): drift %s", s.Chain, s.Repeat, s.Step, label[s.Step], unit.Num(d)),
			suites.Key{Model: s.Model, Part: s.Suite, Step: s.Step}, d})
	}
	slices.SortStableFunc(dots, func(a, b dot) int { return cmp.Compare(a.href, b.href) })
	for _, d := range dots {
		shape, class := "circle", "forward"
		if inverse(d.key) {
			shape, class = "triangle", "inverse"
		}
		p.mark(shape, class, x(d.key.Step), p.y(d.d), d.href, d.title)
	}
	p.Legend = []legendItem{
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
