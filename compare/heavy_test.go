//go:build !race

package compare_test

import (
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/internal/reporttest"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
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
		run, _ := reporttest.Pipeline(t, models, nil, 1, 1000+seed)
		reps = append(reps, build(run))
	}
	flagged := 0
	for i := range 20 {
		c := compare.Compare(reps[i], reps[i+1], fmt.Sprint(i), fmt.Sprint(i+1))
		any := false
		for _, r := range c.Rows {
			if r.Model != offline.Noisy && (r.P != nil || r.LosslessP != nil) {
				t.Errorf("pair %d: deterministic %s class %s is tested (p=%v, lossless p=%v)", i, r.Model, r.Class, r.P, r.LosslessP)
			}
			any = any || r.Change == "better" || r.Change == "worse" || r.LosslessChange == "better" || r.LosslessChange == "worse"
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
		run, _ := reporttest.Pipeline(t, []string{offline.Identity}, nil, k, 20260427)
		reps = append(reps, build(run))
		names = append(names, strings.Repeat("r", k))
	}
	for i, rep := range reps[1:] {
		c := compare.Compare(reps[0], rep, names[0], names[i+1])
		for _, r := range c.Rows {
			if r.Change != "=" || r.P != nil || (r.LosslessChange != "" && r.LosslessChange != "=") {
				t.Errorf("1 against %d repeats: %s class %s is %q/%q (p=%v, n=%d), want = without a test", len(names[i+1]), r.Model, r.Class, r.Change, r.LosslessChange, r.P, r.N)
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
