//go:build !race

package compare_test

import (
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/trend"
)

// TestSeedsAloneCryNoWolf: twenty pairs of offline runs that differ only
// in --seed. offline/oracle and offline/identity are deterministic: their
// rows show no test at all; offline/noisy draws its slips anew from the
// same distribution, so its rows are tested, and after adjusting every
// test of a comparison together (Holm) at most 3 of the 20 comparisons
// may show any better or worse (each comparison's chance of a false one
// is at most 5%, about one expected). Without the adjustment, every
// comparison tested 3 models × 3 classes × 2 statistics at 5% each.
func TestSeedsAloneCryNoWolf(t *testing.T) {
	models := []string{offline.Oracle, offline.Identity, offline.Noisy}
	var reps []*report.Report
	for seed := range int64(21) {
		run, _ := pipelinetest.Pipeline(t, models, nil, 1, 1000+seed)
		reps = append(reps, build(run))
	}
	flagged := 0
	for i := range 20 {
		c := compare.Compare(reps[i], reps[i+1], fmt.Sprint(i), fmt.Sprint(i+1))
		any := false
		for _, r := range c.Rows {
			if r.Model != offline.Noisy && (r.Center.P != nil || r.Lossless.P != nil) {
				t.Errorf("pair %d: deterministic %s class %s is tested (p=%v, lossless p=%v)", i, r.Model, r.Class, r.Center.P, r.Lossless.P)
			}
			any = any || r.Center.Change == "better" || r.Center.Change == "worse" || r.Lossless.Change == "better" || r.Lossless.Change == "worse"
		}
		if any {
			flagged++
		}
	}
	if flagged > 3 {
		t.Errorf("%d of 20 seed-only comparisons show a change after adjustment; want at most 3", flagged)
	}
	t.Logf("%d of 20 seed-only comparisons show a change after adjustment", flagged)
}

// TestDeterministicModelTiesAtAnyRepeats: offline/identity answers the
// same at every repeat, so its runs at 1, 3, 10 and 11 repeats differ in
// nothing it answered: no row changes and no row is tested, in compare
// and in trend. Its per-document means differed by 1e-17 (summed, then
// divided), and the signed-rank test called 11 repeats "better" (p=0.039).
func TestDeterministicModelTiesAtAnyRepeats(t *testing.T) {
	t.Parallel()
	var reps []*report.Report
	var names []string
	for _, k := range []int{1, 3, 10, 11} {
		run, _ := pipelinetest.Pipeline(t, []string{offline.Identity}, nil, k, 20260427)
		reps = append(reps, build(run))
		names = append(names, strings.Repeat("r", k))
	}
	for i, rep := range reps[1:] {
		c := compare.Compare(reps[0], rep, names[0], names[i+1])
		for _, r := range c.Rows {
			if r.Center.Change != "=" || r.Center.P != nil || (r.Lossless.Change != "" && r.Lossless.Change != "=") {
				t.Errorf("1 against %d repeats: %s class %s is %q/%q (p=%v, n=%d), want = without a test", len(names[i+1]), r.Model, r.Class, r.Center.Change, r.Lossless.Change, r.Center.P, r.N)
			}
		}
		if c.Tests != 0 {
			t.Errorf("1 against %d repeats: %d tests, want none", len(names[i+1]), c.Tests)
		}
	}
	for _, s := range trend.Of(reps, names).Series {
		for _, p := range s.Points[1:] {
			if p.Change != "=" || p.P != nil {
				t.Errorf("trend %s class %s, report %d: %q (p=%v), want =", s.Model, s.Class, p.Report, p.Change, p.P)
			}
		}
	}
}

// TestIdenticalModelAcrossRepeats: offline/noisy at one repeat against
// itself at 3 and 11 (the same base seed, so the same first answers): no
// row differs, none is tested, and the comparison says what it compared.
// Averaging every repeat, one against 11 printed "= (no difference)" on
// drift while the lossless shares moved, and one against 3 flagged 11% of
// pairs of identical models.
func TestIdenticalModelAcrossRepeats(t *testing.T) {
	t.Parallel()
	var reps []*report.Report
	for _, k := range []int{1, 3, 11} {
		run, _ := pipelinetest.Pipeline(t, []string{offline.Noisy}, nil, k, 20260427)
		reps = append(reps, build(run))
	}
	for _, rep := range reps[1:] {
		c := compare.Compare(reps[0], rep, "one", "more")
		for _, r := range c.Rows {
			if r.Center.Change != "=" || r.Center.P != nil || (r.Lossless.Change != "" && r.Lossless.Change != "=") || r.Repeats != 1 {
				t.Errorf("1 against %d repeats: %s class %s is %q/%q (p=%v, n=%d, over %d repeats), want = over 1", rep.Repeats, r.Model, r.Class, r.Center.Change, r.Lossless.Change, r.Center.P, r.N, r.Repeats)
			}
		}
		if !strings.Contains(strings.Join(c.Notes, "\n"), "compared on the mean of its first 1") {
			t.Errorf("1 against %d repeats: the notes do not say what was compared: %q", rep.Repeats, c.Notes)
		}
	}
}

// TestSeedOnlyPairsAcrossRepeats: 200 pairs of runs of the same three
// synthetic models (zero-inflated drift, 90% faithful), differing only in
// their seed and their repeats (1 against 3 or 11): at most 5% of the
// comparisons flag any row better or worse after Holm's adjustment.
func TestSeedOnlyPairsAcrossRepeats(t *testing.T) {
	t.Parallel()
	run := func(seed int64, k int) *report.Report {
		s := scoringtest.Synthetic{Models: []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}, Repeats: k,
			Answer: func(model, id string, r int) (float64, bool, string) {
				u := scoringtest.Jitter("drift", seed, model, id, r)
				d := 0.0
				if u > 0.5 {
					d = (u - 0.5) * 0.4
				}
				return d, scoringtest.Jitter("faithful", seed, model, id, r) < 0.9, scoring.StatusScored
			}}
		return build(s.Run())
	}
	flagged := 0
	for i := range 200 {
		k := 3
		if i%2 == 1 {
			k = 11
		}
		c := compare.Compare(run(int64(2*i), 1), run(int64(2*i+1), k), "old", "new")
		for _, r := range c.Rows {
			if r.Center.Change == "better" || r.Center.Change == "worse" || r.Lossless.Change == "better" || r.Lossless.Change == "worse" {
				flagged++
				break
			}
		}
	}
	if flagged > 10 {
		t.Errorf("%d of 200 seed-only pairs across repeat counts flag a change; want at most 10 (5%%)", flagged)
	}
	t.Logf("%d of 200 seed-only pairs across repeat counts flag a change", flagged)
}
