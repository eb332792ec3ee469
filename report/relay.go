package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"bendscript.com/round-trip-harness/relay"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
)

// RelayStep is one model's results at one step of the relay chains: how
// drift compounds when every step starts from the model's own previous
// answer.
type RelayStep struct {
	Model string `json:"model"`
	// Step is 1-based; Edit says which edit of the cycle it asks for (B,
	// C, C⁻¹, B⁻¹) and Class that edit's class.
	Step  int    `json:"step"`
	Edit  string `json:"edit"`
	Class string `json:"class"`
	// RoundTrip is true at steps 4, 8, …, whose expected document is the
	// source itself: the drift there is the drift against the source.
	RoundTrip bool `json:"round_trip"`
	// Chains counts the chains (document, repeat) planned; Scored those
	// with a value at this step (NotRun included); NotRun those ended
	// earlier by an answer that held no document (scored as drift 1);
	// APIErrors and Missing the others.
	Chains    int `json:"chains"`
	Scored    int `json:"scored"`
	NotRun    int `json:"not_run"`
	APIErrors int `json:"api_errors"`
	Missing   int `json:"missing"`
	// MedianDrift and P95Drift are over the chains' drifts at this step;
	// MedianInterval the bootstrap 95% interval of the median.
	MedianDrift    *float64  `json:"median_drift"`
	P95Drift       *float64  `json:"p95_drift"`
	MedianInterval *Interval `json:"median_interval,omitempty"`
	// EditsApplied is the share of scored answers whose edit was fully
	// applied.
	EditsApplied *float64 `json:"edits_applied"`
	// Lossless is the share of scored answers that are lossless
	// (metric.Result.Lossless), the harness's own headline.
	Lossless *float64 `json:"lossless"`
}

// RelayModel is one model's relay summary.
type RelayModel struct {
	Model string `json:"model"`
	// FirstExceed counts, per chain, the first step at which its drift
	// exceeds the §8.5 P95 threshold of that step's class ("never" when no
	// step does): where chains break.
	FirstExceed map[string]int `json:"first_exceed"`
}

// relaySteps computes the relay section from the scores.
func relaySteps(in Input, seed int64) ([]RelayStep, []RelayModel) {
	type key struct {
		model string
		step  int
	}
	type chain struct {
		model, doc string
		repeat     int
	}
	groups := map[key][]*scoring.Score{}
	drifts := map[chain]map[int]*scoring.Score{}
	maxStep := 0
	for i := range in.Scores {
		s := &in.Scores[i]
		doc, step, ok := relay.StepOf(s.TaskID)
		if !ok {
			continue
		}
		maxStep = max(maxStep, step)
		groups[key{s.Model, step}] = append(groups[key{s.Model, step}], s)
		c := chain{s.Model, doc, s.Repeat}
		if drifts[c] == nil {
			drifts[c] = map[int]*scoring.Score{}
		}
		drifts[c][step] = s
	}
	var steps []RelayStep
	var models []RelayModel
	t := in.Config.Thresholds
	for _, m := range in.Manifest.Models {
		for step := 1; step <= maxStep; step++ {
			if ss := groups[key{m, step}]; len(ss) > 0 {
				steps = append(steps, relayStep(m, step, ss, seed))
			}
		}
		rm := RelayModel{Model: m, FirstExceed: map[string]int{}}
		for c, bySteps := range drifts {
			if c.model != m {
				continue
			}
			first := "never"
			for step := 1; step <= maxStep; step++ {
				s := bySteps[step]
				d, ok := s.Drift()
				if s == nil || !ok {
					continue
				}
				limit := t.ClassBP95Max
				if s.Class == task.ClassC {
					limit = t.ClassCP95Max
				}
				if d > limit {
					first = strconv.Itoa(step)
					break
				}
			}
			rm.FirstExceed[first]++
		}
		models = append(models, rm)
	}
	return steps, models
}

func relayStep(model string, step int, ss []*scoring.Score, seed int64) RelayStep {
	r := RelayStep{Model: model, Step: step, Edit: relay.Edits[(step-1)%4], Class: ss[0].Class, RoundTrip: step%4 == 0, Chains: len(ss)}
	var drifts []float64
	applied, lossless := 0, 0
	for _, s := range ss {
		switch s.Status {
		case scoring.StatusMissing:
			r.Missing++
			continue
		case scoring.StatusAPIError:
			r.APIErrors++
			continue
		}
		if s.NotRun {
			r.NotRun++
		}
		if d, ok := s.Drift(); ok {
			r.Scored++
			drifts = append(drifts, d)
			if s.Metric.EditApplied {
				applied++
			}
			if s.Metric.Lossless {
				lossless++
			}
		}
	}
	if len(drifts) > 0 {
		r.MedianDrift, r.P95Drift = ptr(median(drifts)), ptr(p95(drifts))
		r.MedianInterval = bootstrap(drifts, median, seed, fmt.Sprintf("%s/relay/%d", model, step))
		r.EditsApplied = ptr(float64(applied) / float64(r.Scored))
		r.Lossless = ptr(float64(lossless) / float64(r.Scored))
	}
	return r
}

// relayPlot is the inline SVG of one model's relay: the median drift per
// step joined by a line, its bootstrap interval as a band, and one small
// mark per chain and step linking to that step's transcript.
type relayPlot struct {
	Model          string
	W, H           int
	X0, X1, Y0, Y1 string
	Median, Band   string // polyline and polygon points
	Dots           []plotMark
	XTicks, YTicks []plotTick
}

func newRelayPlots(r *Report, in Input) []relayPlot {
	var out []relayPlot
	for _, m := range r.Models {
		var rows []RelayStep
		for _, s := range r.Relay {
			if s.Model == m {
				rows = append(rows, s)
			}
		}
		if len(rows) == 0 {
			continue
		}
		out = append(out, relayPlotOf(m, rows, in))
	}
	return out
}

func relayPlotOf(model string, rows []RelayStep, in Input) relayPlot {
	p := relayPlot{Model: model, W: plotW, H: plotH}
	x0, x1 := float64(padLeft), float64(plotW-padRight)
	y0, y1 := float64(padTop), float64(plotH-padBottom)
	p.X0, p.X1, p.Y0, p.Y1 = f1(x0), f1(x1), f1(y0), f1(y1)
	top := 0.05
	for _, row := range rows {
		if row.P95Drift != nil {
			top = math.Max(top, *row.P95Drift)
		}
	}
	top = math.Min(1, math.Ceil(top*1.15*20)/20)
	n := rows[len(rows)-1].Step
	x := func(step int) float64 { return x0 + (x1-x0)*(float64(step)-0.5)/float64(n) }
	y := func(v float64) float64 { return y1 - (y1-y0)*math.Min(v, top)/top }
	var upper, lower []string
	for _, row := range rows {
		p.XTicks = append(p.XTicks, plotTick{X: f1(x(row.Step)), Y: f1(y1 + 16), Label: strconv.Itoa(row.Step)})
		if row.MedianDrift == nil {
			continue
		}
		if p.Median != "" {
			p.Median += " "
		}
		p.Median += f1(x(row.Step)) + "," + f1(y(*row.MedianDrift))
		lo, hi := *row.MedianDrift, *row.MedianDrift
		if iv := row.MedianInterval; iv != nil {
			lo, hi = iv.Low, iv.High
		}
		upper = append(upper, f1(x(row.Step))+","+f1(y(hi)))
		lower = append([]string{f1(x(row.Step)) + "," + f1(y(lo))}, lower...)
	}
	p.Band = joinSpace(append(upper, lower...))
	for _, s := range in.Scores {
		doc, step, ok := relay.StepOf(s.TaskID)
		d, scored := s.Drift()
		if !ok || s.Model != model || !scored {
			continue
		}
		p.Dots = append(p.Dots, plotMark{X: f1(x(step)), Y: f1(y(d)), R: "2",
			Href:  "#" + anchor(s.Model, s.TaskID, s.Repeat),
			Title: fmt.Sprintf("chain %s r%d, step %d: drift %s", doc, s.Repeat, step, num(d))})
	}
	slices.SortStableFunc(p.Dots, func(a, b plotMark) int { return cmp.Compare(a.Href, b.Href) })
	for _, v := range []float64{0, top / 2, top} {
		p.YTicks = append(p.YTicks, plotTick{X: f1(x0 - 6), Y: f1(y(v) + 4), Label: num(v)})
	}
	return p
}

func joinSpace(ss []string) string {
	out := ""
	for i, s := range ss {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}
