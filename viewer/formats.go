package viewer

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/viewer/chart"
)

// formatPoint is one (model, format, document size): the median drift
// and median output tokens of its scored answers.
type formatPoint struct {
	format        string
	bytes         int
	drift, tokens float64
}

// formatPoints are the report's format points (report.FormatPoint) per
// model, by format and document size.
func formatPoints(r *report.Report) map[string][]formatPoint {
	if len(r.FormatPoints) == 0 {
		return nil
	}
	out := map[string][]formatPoint{}
	for _, p := range r.FormatPoints {
		out[p.Model] = append(out[p.Model], formatPoint{p.Format, p.DocumentBytes, p.MedianDrift, p.MedianOutputTokens})
	}
	return out
}

// formatShapes are the marks of the formats, in the run's order.
var formatShapes = []string{"circle", "triangle", "square"}
var formatClasses = []string{"m0", "m1", "m2", "m3"} // a fourth colour, so that a fourth format's series is not the first's

// formatPlots are the format comparison's charts, two per model with
// shared axes: drift against the size of the document the answer was
// given, and output tokens (log scale) against it, one series per format.
func formatPlots(r *report.Report) []chart.Chart {
	points := formatPoints(r)
	if len(points) == 0 {
		return nil
	}
	lo, hi, topDrift, topTokens := math.Inf(1), math.Inf(-1), 0.0, 1.0
	for _, ps := range points {
		for _, p := range ps {
			b := math.Log(float64(max(p.bytes, 1)))
			lo, hi = math.Min(lo, b), math.Max(hi, b)
			topDrift, topTokens = math.Max(topDrift, p.drift), math.Max(topTokens, p.tokens)
		}
	}
	var out []chart.Chart
	for _, m := range r.Models {
		if ps := points[m]; len(ps) > 0 {
			out = append(out, formatPlot(m, "drift", ps, r.Formats, lo, hi, chart.NiceTop(topDrift)),
				formatPlot(m, "tokens", ps, r.Formats, lo, hi, math.Log10(topTokens+1)))
		}
	}
	return out
}

// formatPlot is one model's chart of what (drift, or output tokens on a
// log scale whose top is log10(tokens+1) = top) against document size.
func formatPlot(model, what string, ps []formatPoint, formats []string, lo, hi, top float64) chart.Chart {
	caption, yTitle := model+": drift against document size, per answer format", "median drift (0 = as expected)"
	if what == "tokens" {
		caption, yTitle = model+": output tokens against document size, per answer format", "median output tokens (log scale)"
	}
	p := chart.New("formats-"+what+"-"+transcript.Slug(model), caption, "document size (KiB, log scale)", yTitle)
	if what == "tokens" {
		p.Decades(top)
	} else {
		p.YScale(math.Max(top, 1e-9))
	}
	x := func(bytes int) float64 {
		if hi == lo {
			return (p.X0f + p.X1f) / 2
		}
		return p.X0f + (p.X1f-p.X0f)*(0.08+0.84*(math.Log(float64(max(bytes, 1)))-lo)/(hi-lo))
	}
	seen := map[int]bool{}
	for fi, f := range formats {
		shape, class := formatShapes[fi%len(formatShapes)], formatClasses[fi%len(formatClasses)]
		var line []string
		for _, pt := range ps {
			if pt.format != f {
				continue
			}
			v := pt.drift
			if what == "tokens" {
				v = math.Log10(pt.tokens + 1)
			}
			cx := x(pt.bytes)
			seen[pt.bytes] = true
			p.Mark(shape, class, cx, p.Y(v), "", fmt.Sprintf("%s, %d bytes: median drift %s, median output tokens %.0f", f, pt.bytes, unit.Num(pt.drift), pt.tokens))
			line = append(line, chart.F1(cx)+","+chart.F1(p.Y(v)))
		}
		p.Polylines = append(p.Polylines, chart.Polyline{Class: class, Points: strings.Join(line, " ")})
		p.Legend = append(p.Legend, chart.LegendItem{Kind: shape, Class: class, Label: f})
	}
	sizes := make([]int, 0, len(seen))
	for b := range seen {
		sizes = append(sizes, b)
	}
	slices.Sort(sizes)
	for i, b := range sizes {
		p.XTick(x(b), chart.KiB(b), "", i == len(sizes)-1)
	}
	return p
}
