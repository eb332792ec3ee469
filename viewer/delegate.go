package viewer

import (
	"fmt"
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
		who := cs.Model
		if sec.Formats {
			who += " (" + cs.Format + ")"
		}
		out = append(out, criticalLink{Href: "#" + anchor(cs.Model, cs.TaskIDs[1], cs.Repeat),
			Text: fmt.Sprintf("%s, chain %s r%d, round trip %d (steps %d–%d): drift +%s, %s of the chain's loss", who, cs.Chain, cs.Repeat, cs.Step/2, cs.Step-1, cs.Step, unit.Num(cs.Loss), unit.Percent(cs.Share))})
	}
	return out
}

// rsPlots are the RS@k curves of a delegate section, one panel per model
// and surface: the mean RS@k (line) in its 95% interval (band) and the
// lossless share (squares), on the same [0, 1] axis.
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
		x := func(i int) float64 { return p.X0f + (p.X1f-p.X0f)*(float64(i)+0.5)/float64(n) }
		var line, lossless, upper, lower []string
		for i, k := range d.Ks {
			p.XTick(x(i), strconv.Itoa(k), "", i == n-1)
			at := render.RSAtK(s, k)
			if at == nil {
				continue
			}
			line = append(line, chart.F1(x(i))+","+chart.F1(p.Y(at.Mean)))
			upper = append(upper, chart.F1(x(i))+","+chart.F1(p.Y(at.High)))
			lower = append([]string{chart.F1(x(i)) + "," + chart.F1(p.Y(at.Low))}, lower...)
			p.Mark("circle", "forward", x(i), p.Y(at.Mean), "", fmt.Sprintf("RS@%d: %s [%s, %s] over %d documents", k, unit.Num(at.Mean), unit.Num(at.Low), unit.Num(at.High), at.Documents))
			if at.Chains > 0 {
				share := float64(at.Lossless) / float64(at.Chains)
				lossless = append(lossless, chart.F1(x(i))+","+chart.F1(p.Y(share)))
				p.Mark("square", "p95", x(i), p.Y(share), "", fmt.Sprintf("lossless@%d: %d of %d chains", k, at.Lossless, at.Chains))
			}
		}
		if len(line) == 0 {
			p.Empty = true
		}
		p.Bands = []string{strings.Join(append(upper, lower...), " ")}
		p.Polylines = []chart.Polyline{{Class: "median", Points: strings.Join(line, " ")}, {Class: "p95", Points: strings.Join(lossless, " ")}}
		y := p.Y(verdict.ReadyMin)
		p.Lines = []chart.PlotLine{{Y: chart.F1(y), LabelY: chart.F1(y + 4), Class: "threshold", Label: "ready 0.98"}}
		p.Legend = []chart.LegendItem{
			{Kind: "circle", Class: "forward", Label: "mean RS@k over documents"},
			{Kind: "band", Class: "band", Label: "Student-t 95% interval of the mean"},
			{Kind: "square", Class: "p95", Label: "share of chains lossless at k"},
			{Kind: "line", Class: "threshold", Label: "ready: RS@20 ≥ 0.98 (DELEGATE-52's rule)"},
		}
		out = append(out, p)
	}
	return out
}
