package verdict

import (
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestMiss: a threshold's failure says the value beside the limit as the
// threshold's kind prints it, or why nothing was measured; a custom
// threshold adds its default.
func TestMiss(t *testing.T) {
	t.Parallel()
	ts := Table(config.Default().Thresholds)
	byMetric := map[string]Threshold{}
	for _, th := range ts {
		byMetric[th.Metric] = th
	}
	v := func(x float64) *float64 { return &x }
	custom := byMetric["class_b_median_drift"]
	custom.Limit = 0.5
	for _, c := range tabletest.Cases(t, []struct {
		name, metric string
		t            *Threshold
		v            *float64
		want         string
		reason       string
	}{
		{"drift", "class_b_median_drift", nil, v(0.2), "m: class B median drift 0.2, want ≤ 0.05", "a drift beside its limit, four decimals"},
		{"near", "class_b_median_drift", nil, v(0.05000001), "m: class B median drift 0.05000001, want ≤ 0.05", "a miss that would print as the limit prints in full"},
		{"share", "class_b_edit_applied", nil, v(0.5), "m: class B edits applied 50%, want ≥ 90%", "a harness share as percentages"},
		{"unmeasured", "class_a_faithfulness", nil, nil, "m: class A faithfulness was not measured (why)", "nothing measured says why"},
		{"custom", "", &custom, v(0.6), "m: class B median drift 0.6, want ≤ 0.5 (a custom threshold: §8.5 says ≤ 0.05)", "a custom threshold names its default"},
	}) {
		th := byMetric[c.metric]
		if c.t != nil {
			th = *c.t
		}
		f := Miss("m", th, c.v, "why")
		if got := f.Message + CustomNote(th); got != c.want {
			t.Errorf("%s: %q, want %q (%s)", c.name, got, c.want, c.reason)
		}
	}
}
