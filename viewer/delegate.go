package viewer

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
	"bendscript.com/round-trip-harness/viewer/chart"
)

// This file draws a delegate section's reconstruction scores
// (report.Delegation) for the page: the RS@k curve per model and editing
// surface, and the critical round trips linked to their transcripts; the
// tables are render's (render.DelegationTables).

// criticalLink is a critical round trip as the viewer lists it, linked to
// its backward step's transcript.
type criticalLink struct {
	Href, Text string
}

func criticalLinks(sec report.Section) []criticalLink {
	if sec.Delegation == nil {
		return nil
	}
	var out []criticalLink
	for _, cs := range sec.Delegation.Critical {
		who := cs.Model + " (" + cs.Format + ")"
		out = append(out, criticalLink{Href: "#" + anchor(cs.Model, cs.TaskIDs[1], cs.Repeat),
			Text: fmt.Sprintf("%s, chain %s r%d, round trip %d (steps %d–%d): drift +%s, %s of the chain's loss", who, cs.Chain, cs.Repeat, cs.Step/2, cs.Step-1, cs.Step, unit.Num(cs.Loss), unit.Percent(cs.Share))})
	}
	return out
}

// rsPlots are the RS@k curves of a delegate section, one panel per model
// and surface: the mean RS@k (line) in its 95% interval (band) on the
// left axis, and the share of chains lossless at k as bars on a right
// axis of its own, in percent (issue 56: drawn as squares on the RS@k
// axis, they covered the oracle's dots, both at 1).
func rsPlots(sec report.Section) []chart.Chart {
	d := sec.Delegation
	if d == nil {
		return nil
	}
	var out []chart.Chart
	for _, s := range d.Surfaces {
		name := render.SurfaceName(sec, s)
		if s.Rung != "" {
			name += ", rung " + s.Rung
		}
		p := chart.New("rs-"+transcript.Slug(name), name+": RS@k (the harness's similarity)", "interactions k (each round trip is 2)", "RS@k = 1 − drift against the original")
		p.YScale(1)
		n := len(d.Ks)
		step := (p.X1f - p.X0f) / float64(n)
		x := func(i int) float64 { return p.X0f + step*(float64(i)+0.5) }
		var line, upper, lower []string
		for i, k := range d.Ks {
			p.XTick(x(i), strconv.Itoa(k), "", i == n-1)
			at := render.RSAtK(s, k)
			if at == nil {
				continue
			}
			if at.Chains > 0 {
				// The right axis runs 0–100% over the same height as the
				// left one's 0–1, so p.Y places a share.
				share := float64(at.Lossless) / float64(at.Chains)
				p.Bars = append(p.Bars, p.Bar(x(i), math.Min(step, 40), share, "", fmt.Sprintf("lossless@%d: %d of %d chains (%s)", k, at.Lossless, at.Chains, unit.Percent(share))))
			}
			line = append(line, chart.F1(x(i))+","+chart.F1(p.Y(at.Mean)))
			upper = append(upper, chart.F1(x(i))+","+chart.F1(p.Y(at.High)))
			lower = append([]string{chart.F1(x(i)) + "," + chart.F1(p.Y(at.Low))}, lower...)
			p.Mark("circle", "forward", x(i), p.Y(at.Mean), "", fmt.Sprintf("RS@%d: %s [%s, %s] over %d documents", k, unit.Num(at.Mean), unit.Num(at.Low), unit.Num(at.High), at.Documents))
		}
		if len(line) == 0 {
			p.Empty = true
		}
		p.Bands = []string{strings.Join(append(upper, lower...), " ")}
		p.Polylines = []chart.Polyline{{Class: "median", Points: strings.Join(line, " ")}}
		y := p.Y(verdict.ReadyMin)
		// The ready label sits under its line, clear of the right axis's
		// 100% tick.
		p.Lines = []chart.PlotLine{{Y: chart.F1(y), LabelY: chart.F1(y + 14), Class: "threshold", Label: "ready 0.98"}}
		p.Y2Title, p.Y2TitleAt = "chains lossless (%)", chart.Point{X: chart.F1(chart.W - 16), Y: chart.F1((p.Y0f + p.Y1f) / 2)}
		for _, v := range []float64{0, 0.5, 1} {
			p.Y2Ticks = append(p.Y2Ticks, chart.Tick{X: chart.F1(p.X1f + 6), Y: chart.F1(p.Y(v) + 4), Label: unit.Percent(v)})
		}
		p.Legend = []chart.LegendItem{
			{Kind: "circle", Class: "forward", Label: "mean RS@k over documents (left axis)"},
			{Kind: "band", Class: "band", Label: "Student-t 95% interval of the mean"},
			{Kind: "bar", Class: "bar", Label: "share of chains lossless at k (right axis)"},
			{Kind: "line", Class: "threshold", Label: "ready: RS@20 ≥ 0.98 (DELEGATE-52's rule)"},
		}
		out = append(out, p)
	}
	return out
}
