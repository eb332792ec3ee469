package chart

import (
	"math"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestNiceScale: the drift axes read 0/0.225/0.45 (issue 34); a value
// axis now counts in round steps, at most five above 0, up to a top that
// is a whole number of steps at or above the largest value.
func TestNiceScale(t *testing.T) {
	tests := []struct {
		top, wantTop, wantStep float64
		reason                 string
	}{
		{0.45, 0.5, 0.1, "the axis that read 0.225: tenths"},
		{1, 1, 0.2, "faithfulness: fifths"},
		{0.05, 0.05, 0.01, "the smallest drift axis: hundredths"},
		{0.3, 0.3, 0.1, "a top that is already round stays"},
		{0.11, 0.125, 0.025, "just above a tenth: quarters of a tenth, not 0.2"},
	}
	for _, tc := range tabletest.Cases(t, tests) {
		top, step := NiceScale(tc.top)
		if diff(top, tc.wantTop) || diff(step, tc.wantStep) {
			t.Errorf("NiceScale(%v) = %v, %v; want %v, %v (%s)", tc.top, top, step, tc.wantTop, tc.wantStep, tc.reason)
		}
	}
}

func diff(a, b float64) bool { return a-b > 1e-9 || b-a > 1e-9 }

// TestDecades: the log token axis read 0/420/177399 (issue 34); it now
// has a tick at 0 and at each power of ten up to the decade above the
// largest count.
func TestDecades(t *testing.T) {
	c := New("x", "x", "x", "x")
	c.Decades(math.Log10(177399 + 1))
	var labels []string
	for _, tk := range c.YTicks {
		labels = append(labels, tk.Label)
	}
	if want := []string{"0", "10", "100", "1k", "10k", "100k", "1M"}; !slices.Equal(labels, want) {
		t.Errorf("ticks %q, want %q", labels, want)
	}
}
