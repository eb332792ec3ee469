package aggregate

import (
	"math"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/transcript"
)

// TestKs: RS@k is given at 2, 4, 10, 20 and the horizon, those the chains
// reach, each once.
func TestKs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		horizon int
		want    []int
		reason  string
	}{
		{2, []int{2}, "one round trip"},
		{6, []int{2, 4, 6}, "the horizon between the fixed ks"},
		{20, []int{2, 4, 10, 20}, "the default: the horizon is 20"},
		{100, []int{2, 4, 10, 20, 100}, "the longest chain"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if got := Ks(tt.horizon); !slices.Equal(got, tt.want) {
			t.Errorf("Ks(%d) = %v, want %v (%s)", tt.horizon, got, tt.want, tt.reason)
		}
	}
}

// TestDelegationBrokenChain: a chain that breaks at step 3 counts as
// drift 1 (RS 0) at every later round-trip end (its not-run steps,
// scoring.EndChains); the round trip that broke it is critical and the
// rises sum to the drift at the horizon; a chain with a step missing (an
// unfinished run) is left out of RS at that k.
func TestDelegationBrokenChain(t *testing.T) {
	t.Parallel()
	w := config.Default().Weights
	score := func(chain string, step int, drift float64, valid bool) scoring.Score {
		c := drift
		res := &metric.Result{Valid: valid, Drift: drift, Weights: w, Lossless: drift == 0,
			Components: metric.Components{BlockStructure: c, EdgePreservation: c, SpanCoverage: c, MarkFidelity: c, VocabularyIntegrity: c}}
		return scoring.Score{Model: "m", TaskID: chain + "-d00" + string(rune('0'+step)), Class: "B", Status: scoring.StatusScored,
			Suite: suites.Delegate, Chain: chain, Step: step, Metric: res}
	}
	var scores []scoring.Score
	for s := 1; s <= 6; s++ {
		scores = append(scores, score("01", s, 0, true))
		switch {
		case s < 3:
			scores = append(scores, score("02", s, 0, true))
		default:
			scores = append(scores, score("02", s, 1, s == 3 && false))
		}
		if s != 4 {
			scores = append(scores, score("03", s, 0, true))
		}
	}
	in := Input{
		Manifest: &transcript.Manifest{Models: []string{"m"}, Repeats: 1, Inputs: transcript.Inputs{Suite: suites.Delegate}},
		Config:   config.Default(),
		Scores:   scores,
	}
	r := Build(in)
	if len(r.Sections) != 1 || r.Sections[0].Delegation == nil {
		t.Fatalf("%d sections, want the delegate's with a delegation", len(r.Sections))
	}
	d := r.Sections[0].Delegation
	if !slices.Equal(d.Ks, []int{2, 4, 6}) || len(d.Surfaces) != 1 {
		t.Fatalf("ks %v, %d surfaces", d.Ks, len(d.Surfaces))
	}
	rs := d.Surfaces[0].RS
	want := []struct {
		mean   float64
		chains int
		reason string
	}{{1, 3, "RS@2: every chain back at the original"}, {0.5, 2, "RS@4: chain 02 broke (RS 0), chain 03 has no step 4"},
		{2.0 / 3, 3, "RS@6: chain 02 still counts as RS 0"}}
	for i, w := range tabletest.Cases(t, want) {
		if math.Abs(rs[i].Mean-w.mean) > 1e-12 || rs[i].Chains != w.chains {
			t.Errorf("RS@%d = %v over %d chains, want %v over %d (%s)", rs[i].K, rs[i].Mean, rs[i].Chains, w.mean, w.chains, w.reason)
		}
	}
	if len(d.Critical) != 1 || d.Critical[0].Chain != "02" || d.Critical[0].Step != 4 || d.Critical[0].Loss != 1 || d.Critical[0].Share != 1 {
		t.Errorf("critical %+v, want chain 02's second round trip, all its loss", d.Critical)
	}
	for _, c := range d.Chains {
		sum := 0.0
		for _, x := range c.Rises {
			sum += x
		}
		if c.Loss != nil && math.Abs(sum-c.Loss.Drift) > 1e-12 {
			t.Errorf("chain %s: rises %v sum to %v, drift %v", c.Chain, c.Rises, sum, c.Loss.Drift)
		}
		if c.Chain == "03" && (c.Loss == nil || len(c.Rises) != 1) {
			t.Errorf("chain 03 (step 4 missing): rises %v, loss %v; want one round trip and the horizon's loss", c.Rises, c.Loss)
		}
	}
}
