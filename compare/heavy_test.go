//go:build !race

package compare_test

import (
	"fmt"
	"testing"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/internal/reporttest"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
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
