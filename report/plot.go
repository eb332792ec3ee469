package report

import (
	"fmt"
	"math"
	"sort"

	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Plot geometry, in SVG user units.
const (
	plotW, plotH                         = 460, 190
	padLeft, padRight, padTop, padBottom = 44, 120, 12, 26
)

// plot is the inline SVG of one (model, class): one mark per document
// (a dot at its drift, or a bar of its faithfulness) and horizontal lines
// for the median, the P95 and the thresholds.
type plot struct {
	ID, Model, Class, Title string
	W, H                    int
	X0, X1, Y0, Y1          string // the plot area
	Dots                    []plotMark
	Bars                    []plotMark
	Lines                   []plotLine
	YTicks, XTicks          []plotTick
	Empty                   bool
}

type plotMark struct {
	X, Y, W, H, R string
	Href, Title   string
}

type plotLine struct {
	Y, LabelY, Class, Label string
}

type plotTick struct {
	X, Y, Label string
}

func f1(v float64) string { return fmt.Sprintf("%.1f", v) }

func newPlot(r *Report, model string, c *ClassResult) plot {
	p := plot{ID: fmt.Sprintf("plot-%s-%s", transcript.Slug(model), c.Class), Model: model, Class: c.Class, W: plotW, H: plotH}
	x0, x1 := float64(padLeft), float64(plotW-padRight)
	y0, y1 := float64(padTop), float64(plotH-padBottom)
	p.X0, p.X1, p.Y0, p.Y1 = f1(x0), f1(x1), f1(y0), f1(y1)
	n := len(c.PerDocument)
	if n == 0 {
		p.Empty = true
		return p
	}
	top := yTop(r, c)
	y := func(v float64) float64 { return y1 - (y1-y0)*math.Min(v, top)/top }
	step := (x1 - x0) / float64(n)
	for i, d := range c.PerDocument {
		cx := x0 + step*(float64(i)+0.5)
		href := "#" + anchor(model, d.TaskID, 0)
		if c.Class == task.ClassA {
			if d.Faithful != nil {
				p.Bars = append(p.Bars, plotMark{X: f1(cx - step*0.35), Y: f1(y(*d.Faithful)), W: f1(step * 0.7), H: f1(y1 - y(*d.Faithful)),
					Href: href, Title: fmt.Sprintf("%s: faithful %s", d.TaskID, num(*d.Faithful))})
			}
		} else if d.Drift != nil {
			p.Dots = append(p.Dots, plotMark{X: f1(cx), Y: f1(y(*d.Drift)), R: "3.5",
				Href: href, Title: fmt.Sprintf("%s: drift %s", d.TaskID, num(*d.Drift))})
		}
		if i%5 == 0 || i == n-1 {
			p.XTicks = append(p.XTicks, plotTick{X: f1(cx), Y: f1(y1 + 14), Label: d.TaskID[:min(2, len(d.TaskID))]})
		}
	}
	for _, t := range []float64{0, top / 2, top} {
		p.YTicks = append(p.YTicks, plotTick{X: f1(x0 - 6), Y: f1(y(t) + 4), Label: num(t)})
	}
	p.Lines = placeLabels(plotLines(r, c), y)
	return p
}

// yTop is the top of the value axis: 1 for faithfulness; for drift the
// largest of the drifts and the thresholds, with a margin, at most 1.
func yTop(r *Report, c *ClassResult) float64 {
	if c.Class == task.ClassA {
		return 1
	}
	top := 0.0
	if c.MaxDrift != nil {
		top = *c.MaxDrift
	}
	for _, t := range r.thresholds() {
		if t.class == c.Class && !t.own && gated(r.Suite) {
			top = math.Max(top, t.limit)
		}
	}
	return math.Min(1, math.Max(0.05, math.Ceil(top*1.15*20)/20))
}

type lineSpec struct {
	v            float64
	class, label string
}

func plotLines(r *Report, c *ClassResult) []lineSpec {
	var ls []lineSpec
	for _, t := range r.thresholds() {
		// The harness's own thresholds are on edit compliance, not on the
		// plotted drift or faithfulness; an informational suite has none.
		if t.class == c.Class && !t.own && gated(r.Suite) {
			ls = append(ls, lineSpec{t.limit, "threshold", fmt.Sprintf("limit %s %s", opSymbol(t.op), num(t.limit))})
		}
	}
	switch {
	case c.Class == task.ClassA && c.Faithfulness != nil:
		ls = append(ls, lineSpec{*c.Faithfulness, "median", "faithful " + num(*c.Faithfulness)})
	case c.MedianDrift != nil:
		ls = append(ls, lineSpec{*c.MedianDrift, "median", "median " + num(*c.MedianDrift)},
			lineSpec{*c.P95Drift, "p95", "P95 " + num(*c.P95Drift)})
	}
	return ls
}

// placeLabels positions the lines and moves their labels apart so that no
// two overlap.
func placeLabels(ls []lineSpec, y func(float64) float64) []plotLine {
	type placed struct {
		spec   lineSpec
		y, lab float64
	}
	ps := make([]placed, len(ls))
	for i, l := range ls {
		ps[i] = placed{l, y(l.v), y(l.v) + 4}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].y < ps[j].y })
	for i := 1; i < len(ps); i++ {
		if ps[i].lab < ps[i-1].lab+11 {
			ps[i].lab = ps[i-1].lab + 11
		}
	}
	out := make([]plotLine, len(ps))
	for i, p := range ps {
		out[i] = plotLine{Y: f1(p.y), LabelY: f1(p.lab), Class: p.spec.class, Label: p.spec.label}
	}
	return out
}
