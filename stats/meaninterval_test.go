package stats

import (
	"math"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestMeanInterval: the Student-t interval of a mean, against values
// worked by hand, clipped to [0, 1].
func TestMeanInterval(t *testing.T) {
	t.Parallel()
	tests := []struct {
		xs           []float64
		mean, lo, hi float64
		reason       string
	}{
		{[]float64{0.5}, 0.5, 0.5, 0.5, "one document is its own interval"},
		{[]float64{1, 1, 1}, 1, 1, 1, "no spread"},
		// mean 0.5, s = 0.0707, n = 2: ± 12.706 · 0.0707/√2 = 0.635, clipped.
		{[]float64{0.45, 0.55}, 0.5, 0, 1, "two documents: t = 12.706, clipped to [0, 1]"},
		// n = 5, values 0.9 … 0.98 step 0.02: mean 0.94, s = 0.031623,
		// t(4) = 2.776: ± 0.039259.
		{[]float64{0.9, 0.92, 0.94, 0.96, 0.98}, 0.94, 0.94 - 0.039259, 0.94 + 0.039259, "t with 4 degrees of freedom"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		m, lo, hi := MeanInterval(tt.xs)
		if math.Abs(m-tt.mean) > 1e-6 || math.Abs(lo-tt.lo) > 1e-5 || math.Abs(hi-tt.hi) > 1e-5 {
			t.Errorf("MeanInterval(%v) = %v [%v, %v], want %v [%v, %v] (%s)", tt.xs, m, lo, hi, tt.mean, tt.lo, tt.hi, tt.reason)
		}
	}
	if q := tQuantile975(31); math.Abs(q-2.0395) > 0.001 {
		t.Errorf("t(31) = %v, want 2.0395 within 0.001", q)
	}
}
