package report

import (
	"fmt"
	"strconv"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/relay"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
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
		doc, step := s.Chain, s.Step
		if step == 0 {
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
	for _, m := range in.Manifest.Models {
		for step := 1; step <= maxStep; step++ {
			if ss := groups[key{m, step}]; len(ss) > 0 {
				steps = append(steps, relayStep(m, step, ss, seed))
			}
		}
		rm := RelayModel{Model: m, FirstExceed: map[string]int{}}
		for c, bySteps := range drifts {
			if c.model == m {
				rm.FirstExceed[firstExceed(bySteps, maxStep, in.Config.Thresholds)]++
			}
		}
		models = append(models, rm)
	}
	return steps, models
}

// firstExceed is the first step ("1", "2", ...) at which a chain's drift
// exceeds its class's §8.5 P95 threshold, or "never". A step the chain
// lacks (a selection, an unfinished run) is passed over.
func firstExceed(bySteps map[int]*scoring.Score, maxStep int, t config.Thresholds) string {
	for step := 1; step <= maxStep; step++ {
		s := bySteps[step]
		if s == nil {
			continue
		}
		d, ok := s.Drift()
		if !ok {
			continue
		}
		limit := t.ClassBP95Max
		if s.Class == task.ClassC {
			limit = t.ClassCP95Max
		}
		if d > limit {
			return strconv.Itoa(step)
		}
	}
	return "never"
}

func relayStep(model string, step int, ss []*scoring.Score, seed int64) RelayStep {
	t := tallyOf(ss)
	r := RelayStep{Model: model, Step: step, Edit: relay.Edits[(step-1)%4], Class: ss[0].Class, RoundTrip: step%4 == 0, Chains: len(ss),
		Scored: t.scored, Missing: t.missing, APIErrors: t.apiErrors, NotRun: t.notRun}
	r.MedianDrift, r.P95Drift = t.medianP95()
	r.MedianInterval = interval(stats.BootstrapQuantile(t.drifts, 0.5, seed, fmt.Sprintf("%s/relay/%d", model, step)))
	r.EditsApplied, r.Lossless = t.shares()
	return r
}
