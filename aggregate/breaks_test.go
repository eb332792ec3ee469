package aggregate

import (
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/transcript"
)

// TestRelayChainWithAGapDoesNotPanic: a chain that lacks a step (one chain
// ran further than another) made the first-exceed count read a nil score.
// The gap is passed over and the chain still counts once.
func TestRelayChainWithAGapDoesNotPanic(t *testing.T) {
	t.Parallel()
	score := func(chain string, step int, drift float64) scoring.Score {
		return scoring.Score{Model: "m", TaskID: chain + "-s0" + string(rune('0'+step)), Class: "B", Status: scoring.StatusScored,
			Suite: suites.Relay, Chain: chain, Step: step, Metric: &metric.Result{Valid: true, Drift: drift}}
	}
	in := Input{
		Manifest: &transcript.Manifest{Models: []string{"m"}, Repeats: 1, Inputs: transcript.Inputs{Suite: suites.Relay}},
		Config:   config.Default(),
		Scores:   []scoring.Score{score("01", 1, 0), score("01", 2, 0.9), score("02", 1, 0)},
	}
	r := Build(in)
	if len(r.Sections) != 1 {
		t.Fatalf("%d sections, want the relay's", len(r.Sections))
	}
	breaks := r.Sections[0].Breaks
	if len(breaks) != 1 || breaks[0].FirstExceed["2"] != 1 || breaks[0].FirstExceed["never"] != 1 {
		t.Errorf("first exceed %v, want chain 01 at step 2 and chain 02 never", breaks)
	}
}
