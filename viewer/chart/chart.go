// Package chart is the viewer's chart geometry: an inline SVG plot's
// axes, ticks, marks, bars, lines and legend, in SVG user units, for the
// viewer's page and for the pages made outside it (the trend) alike.
//
// Rules: it lays out values it is given and computes no statistic; a
// coordinate is written with one decimal (F1), so that a page's bytes do
// not depend on floating-point noise; every value axis counts in round
// steps (NiceScale).
package chart

import (
	"fmt"
	"math"
	"strconv"

	"bendscript.com/round-trip-harness/unit"
)

// Chart geometry, in SVG user units. The SVG scales down with the page
// (viewer.css), so one geometry serves every width.
const (
	// W and H are a chart's width and height.
	W, H                                 = 520, 250
	padLeft, padRight, padTop, padBottom = 58, 106, 14, 48
	minTickGap                           = 38.0 // between the centres of two x-tick labels
)

// Chart is one plot of the viewer.
type Chart struct {
	ID, Caption    string
	W, H           int
	X0, X1, Y0, Y1 string // the plot area
	// XTitle and YTitle name the axes with their units; Y2Title the
	// right axis (the size plot's cost), when there is one.
	XTitle, YTitle, Y2Title       string
	XTitleAt, YTitleAt, Y2TitleAt Point
	XTicks, YTicks, Y2Ticks       []Tick
	Bands                         []string // polygons' points
	Polylines                     []Polyline
	Lines                         []PlotLine
	Bars, Marks                   []PlotMark
	Legend                        []LegendItem
	// Fails are the failures of the panel's model and class, shown
	// under it: the gates no line of the plot draws among them.
	Fails []string
	Empty bool
	top   float64
	// X0f, X1f, Y0f and Y1f are the plot area's edges as numbers.
	X0f, X1f, Y0f, Y1f float64
}

// Point is a position in SVG user units, as written.
type Point struct{ X, Y string }

// PlotMark is one mark: a bar (X, Y, W, H) or a point mark (X, Y) of a
// Shape ("circle", "triangle", "square") and Class (its colour).
type PlotMark struct {
	X, Y, W, H   string
	Shape, Class string
	Points       string // a triangle's or square's points
	Href, Title  string
}

// Polyline is a line through points (x,y pairs) of a class.
type Polyline struct{ Class, Points string }

// PlotLine is a horizontal line across the plot with its label in the
// right margin.
type PlotLine struct {
	Y, LabelY, Class, Label string
}

// Tick is a tick label; Label2, when set, is a second line under it.
type Tick struct {
	X, Y, Label, Label2 string
}

// LegendItem is one entry of a legend: a swatch of Kind ("circle",
// "triangle", "square", "bar", "line", "band", "symbol") and Class, and
// what it means.
type LegendItem struct {
	Kind, Class, Symbol, Label string
}

// F1 writes an SVG coordinate with one decimal.
func F1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// New lays out an empty chart with its axis titles.
func New(id, caption, xTitle, yTitle string) Chart {
	c := Chart{ID: id, Caption: caption, W: W, H: H, XTitle: xTitle, YTitle: yTitle}
	c.X0f, c.X1f = padLeft, W-padRight
	c.Y0f, c.Y1f = padTop, H-padBottom
	c.X0, c.X1, c.Y0, c.Y1 = F1(c.X0f), F1(c.X1f), F1(c.Y0f), F1(c.Y1f)
	c.XTitleAt = Point{F1((c.X0f + c.X1f) / 2), F1(H - 6)}
	c.YTitleAt = Point{"14", F1((c.Y0f + c.Y1f) / 2)}
	return c
}

// tickSteps are the steps a value axis may count in: round numbers, so
// that a tick reads 0.1, not 0.225 (issue 34).
var tickSteps = []float64{0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1}

// NiceScale rounds top up to a whole number of the smallest step that
// reaches it in at most five ticks above 0.
func NiceScale(top float64) (float64, float64) {
	for _, step := range tickSteps {
		if n := math.Ceil(top/step - 1e-9); n <= 5 {
			return math.Max(n, 1) * step, step
		}
	}
	step := math.Ceil(top / 5)
	return 5 * step, step
}

// YScale sets the value axis to [0, top], top rounded up by NiceScale,
// with a tick at every step.
func (c *Chart) YScale(top float64) {
	top, step := NiceScale(top)
	c.top = top
	for i := 0.0; i*step <= top+1e-9; i++ {
		v := i * step
		c.YTicks = append(c.YTicks, Tick{X: F1(c.X0f - 6), Y: F1(c.Y(v) + 4), Label: unit.Num(v)})
	}
}

// Y is the SVG y of value v, clamped to the axis.
func (c *Chart) Y(v float64) float64 {
	return c.Y1f - (c.Y1f-c.Y0f)*math.Max(0, math.Min(v, c.top))/c.top
}

// XTick adds an x-tick label at x unless it would crowd the previous one
// (the mark stays; only its label is left out). A last tick crowding the
// previous one replaces it, so the axis always shows its end.
func (c *Chart) XTick(x float64, label, label2 string, last bool) {
	t := Tick{X: F1(x), Y: F1(c.Y1f + 14), Label: label, Label2: label2}
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

// Mark adds a point mark of a shape at (x, y).
func (c *Chart) Mark(shape, class string, x, y float64, href, title string) {
	m := PlotMark{X: F1(x), Y: F1(y), Shape: shape, Class: class, Href: href, Title: title}
	switch shape {
	case "triangle":
		m.Points = fmt.Sprintf("%s,%s %s,%s %s,%s", F1(x), F1(y-4.5), F1(x-4), F1(y+3), F1(x+4), F1(y+3))
	case "square":
		m.Points = fmt.Sprintf("%s,%s %s,%s %s,%s %s,%s", F1(x-3.5), F1(y-3.5), F1(x+3.5), F1(y-3.5), F1(x+3.5), F1(y+3.5), F1(x-3.5), F1(y+3.5))
	}
	c.Marks = append(c.Marks, m)
}

// NiceTop rounds the largest value up to a twentieth, with a margin,
// within [0.05, 1].
func NiceTop(v float64) float64 {
	return math.Min(1, math.Max(0.05, math.Ceil(v*1.1*20)/20))
}

// ZeroBar is the height of a bar of value 0: a stub, so that a document
// no answer was faithful on is seen and can be clicked (a bar of height 0
// was neither: issue 34).
const ZeroBar = 3.0

// Bar is a document's bar, centred at cx, step wide with gaps.
func (c *Chart) Bar(cx, step, v float64, href, title string) PlotMark {
	y, class := c.Y(v), "bar"
	if c.Y1f-y < ZeroBar {
		y, class = c.Y1f-ZeroBar, "bar zero"
	}
	return PlotMark{X: F1(cx - step*0.35), Y: F1(y), W: F1(step * 0.7), H: F1(c.Y1f - y), Class: class, Href: href, Title: title}
}

// Decades sets a log value axis, v = log10(n+1), from 0 up to the
// decade above top, with a tick at 0 and at each power of ten: the axis
// read 0/420/177399 (issue 34).
func (c *Chart) Decades(top float64) {
	c.top = math.Max(1, math.Ceil(top-1e-9))
	c.YTicks = append(c.YTicks, Tick{X: F1(c.X0f - 6), Y: F1(c.Y(0) + 4), Label: "0"})
	for k := 1.0; k <= c.top; k++ {
		n := math.Pow(10, k)
		c.YTicks = append(c.YTicks, Tick{X: F1(c.X0f - 6), Y: F1(c.Y(math.Log10(n+1)) + 4), Label: shortCount(n)})
	}
}

// shortCount writes a power of ten as 10, 100, 1k, 10k, 100k, 1M, 10M.
func shortCount(n float64) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', -1, 64) + "M"
	case n >= 1e3:
		return strconv.FormatFloat(n/1e3, 'f', -1, 64) + "k"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// KiB formats a byte count in KiB for an axis.
func KiB(b int) string {
	v := float64(b) / 1024
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " KiB"
}

// XAt is the x position a fraction f of the way across the plot area.
func (c *Chart) XAt(f float64) float64 { return c.X0f + (c.X1f-c.X0f)*f }

// Line joins points (x, y pairs, in SVG units) with a line of a class.
func (c *Chart) Line(class, points string) {
	c.Polylines = append(c.Polylines, Polyline{class, points})
}

// AddLegend names a kind of mark or line of a class in the legend.
func (c *Chart) AddLegend(kind, class, label string) {
	c.Legend = append(c.Legend, LegendItem{Kind: kind, Class: class, Label: label})
}
