package render

import "html/template"

// The viewer's charts and page, for pages made outside this package (the
// trend): they draw with the same geometry, style and template.

// Chart is one chart of the viewer.
type Chart = chart

// NewChart starts a chart with its id, caption and axis titles.
func NewChart(id, caption, xTitle, yTitle string) Chart { return newChart(id, caption, xTitle, yTitle) }

// YScale sets the top of the y axis and its ticks.
func (c *chart) YScale(top float64) { c.yScale(top) }

// Y is where value v lies on the y axis.
func (c *chart) Y(v float64) float64 { return c.y(v) }

// XAt is the x position a fraction f of the way across the plot area.
func (c *chart) XAt(f float64) float64 { return c.x0f + (c.x1f-c.x0f)*f }

// XTick adds a tick label at x (label2 a second line under it); the last
// tick is kept whatever its neighbours.
func (c *chart) XTick(x float64, label, label2 string, last bool) { c.xTick(x, label, label2, last) }

// Mark adds a point mark of a shape and class at (x, y), with a link and
// a title.
func (c *chart) Mark(shape, class string, x, y float64, href, title string) {
	c.mark(shape, class, x, y, href, title)
}

// Line joins points (x, y pairs, in SVG units) with a line of a class.
func (c *chart) Line(class, points string) {
	c.Polylines = append(c.Polylines, polyline{class, points})
}

// AddLegend names a kind of mark or line of a class in the legend.
func (c *chart) AddLegend(kind, class, label string) {
	c.Legend = append(c.Legend, legendItem{Kind: kind, Class: class, Label: label})
}

// F1 formats an SVG coordinate.
func F1(v float64) string { return f1(v) }

// NiceTop rounds a largest value up to a plot's top (niceTop).
func NiceTop(v float64) float64 { return niceTop(v) }

// ViewerTemplate is a clone of the viewer's templates ("chart", "table"),
// for a page of its own to define itself on.
func ViewerTemplate() *template.Template { return template.Must(viewer.Clone()) }

// ViewerCSS is the viewer's style sheet.
func ViewerCSS() string { return viewerCSS }

// CSPHash is the Content-Security-Policy hash of an inline style or
// script.
func CSPHash(s string) string { return cspHash(s) }
