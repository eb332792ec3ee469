package verdict

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/unit"
)

// TestIntervalWords: an interval at 95% prints as its two ends; one that
// cannot reach 95% at its n says its confidence (short, in a cell) or
// each end's (in a sentence); none prints as nothing.
func TestIntervalWords(t *testing.T) {
	t.Parallel()
	two := &Interval{Low: 0.01, High: 0.05, Level: 0.95, LowLevel: 0.975, HighLevel: 0.975}
	one := &Interval{Low: 0.12, High: 0.25, Level: 0.626, LowLevel: 0.984, HighLevel: 0.642}
	for _, c := range tabletest.Cases(t, []struct {
		name        string
		iv          *Interval
		short, text string
		reason      string
	}{
		{"two-sided", two, "[0.01, 0.05]", "[0.01, 0.05]", "a 95% interval is its ends"},
		{"one-sided ends", one, "[0.12, 0.25: 62.6%]", "[≥ 0.12 at 98.4%, ≤ 0.25 at 64.2%]", "no 95% interval at this n: the confidence is said"},
		{"none", nil, "", "", "no values, no interval"},
	}) {
		if got := IntervalShort(c.iv, unit.Num); got != c.short {
			t.Errorf("%s: short %q, want %q (%s)", c.name, got, c.short, c.reason)
		}
		if got := IntervalText(c.iv, unit.Num); got != c.text {
			t.Errorf("%s: text %q, want %q (%s)", c.name, got, c.text, c.reason)
		}
	}
}

// TestIntervalsOfPlainValues: a share's interval is Clopper–Pearson's and
// names its count; a median's is by order statistics and names its
// ranks; either is nil without values, and its confidences are rounded
// to 1e-6 so that the JSON is short.
func TestIntervalsOfPlainValues(t *testing.T) {
	t.Parallel()
	if ShareInterval(0, 0) != nil || QuantileInterval(nil, 0.5) != nil {
		t.Error("an interval of no values")
	}
	s := ShareInterval(18, 20)
	if s.Method != "Clopper–Pearson 18/20" || !s.TwoSided() || s.Low >= 0.9 || s.High <= 0.9 {
		t.Errorf("share 18/20: %+v, want a two-sided Clopper–Pearson interval around 0.9", s)
	}
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = float64(i) / 20
	}
	q := QuantileInterval(xs, 0.5)
	if q.Method != "order statistics x(6), x(15) of 20" || !q.TwoSided() {
		t.Errorf("median of 20: %+v, want order statistics x(6), x(15)", q)
	}
	p := QuantileInterval(xs, 0.95)
	if p.TwoSided() || p.Level != roundTo(p.Level, 1e6) {
		t.Errorf("P95 of 20: %+v: no two-sided 95%% interval exists, and its level is rounded", p)
	}
}
