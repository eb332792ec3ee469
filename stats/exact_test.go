package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestQuantileBound(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		name                string
		p                   float64
		n                   int
		low, high           int
		lowLevel, highLevel float64
		reason              string
	}{
		{"median of 20", 0.5, 20, 6, 15, 0.979305, 0.979305, "the textbook order-statistic interval: P(6 ≤ B ≤ 14) = 95.9% for B ~ Bin(20, ½)"},
		{"P95 of 20", 0.95, 20, 17, 20, 0.984098, 0.641514, "no two-sided 95% interval exists: x(17) bounds it below with 98.4%, x(20) above with only 1 − 0.95²⁰"},
		{"P95 of 58", 0.95, 58, 52, 58, 0.974824, 0.948953, "one document short of a two-sided interval: 1 − 0.95⁵⁸ < 95%"},
		{"P95 of 59", 0.95, 59, 50, 59, 0.999356, 0.951505, "the fewest documents with a two-sided 95% interval of a P95 (its tails uneven)"},
		{"median of 5", 0.5, 5, 1, 5, 0.96875, 0.96875, "too few for 95% two-sided: each side at its best, 1 − 2⁻⁵"},
	}) {
		b := QuantileBound(seq(tc.n), tc.p, Level)
		if b.LowRank != tc.low || b.HighRank != tc.high || math.Abs(b.LowLevel-tc.lowLevel) > 1e-6 || math.Abs(b.HighLevel-tc.highLevel) > 1e-6 {
			t.Errorf("%s: ranks %d, %d with %.6f, %.6f; want %d, %d with %.6f, %.6f (%s)", tc.name, b.LowRank, b.HighRank, b.LowLevel, b.HighLevel,
				tc.low, tc.high, tc.lowLevel, tc.highLevel, tc.reason)
		}
		// seq is n..1, so x(k) = k.
		if b.Low != float64(tc.low) || b.High != float64(tc.high) {
			t.Errorf("%s: values %v, %v; want x(%d), x(%d)", tc.name, b.Low, b.High, tc.low, tc.high)
		}
	}
}

func TestShareBound(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		name      string
		k, n      int
		low, high float64
		reason    string
	}{
		{"20 of 20", 20, 20, 0.831566, 1, "a share at 100% does not collapse to [1, 1]: 0.025^(1/20)"},
		{"0 of 20", 0, 20, 0, 0.168434, "no document over: up to 16.8% of such documents could be (two-sided 95%)"},
		{"4 of 20", 4, 20, 0.057334, 0.436614, "four of 20 over a P95 limit: the share over is above 5% (a decisive fail)"},
		{"18 of 20", 18, 20, 0.683017, 0.987651, "edits applied 90% of 20"},
	}) {
		b := ShareBound(tc.k, tc.n, Level)
		if math.Abs(b.Low-tc.low) > 1e-6 || math.Abs(b.High-tc.high) > 1e-6 {
			t.Errorf("%s: [%.6f, %.6f], want [%.6f, %.6f] (%s)", tc.name, b.Low, b.High, tc.low, tc.high, tc.reason)
		}
	}
}

// population is a drift distribution by its quantile function, so that
// its true quantiles are known and draws are Q(U).
type population struct {
	name   string
	q      func(u float64) float64
	reason string
}

var populations = []population{
	{"uniform", func(u float64) float64 { return 0.4 * u }, "the textbook case"},
	{"zero-inflated", func(u float64) float64 {
		if u <= 0.6 {
			return 0
		}
		return (u - 0.6) / 0.4 * 0.5
	}, "most answers lossless (drift 0, a median on an atom), the rest spread: real drift"},
	{"kumaraswamy", func(u float64) float64 { return math.Sqrt(1 - math.Pow(1-u, 1.0/8)) },
		"Kumaraswamy(2, 8), a beta-like skewed shape with a closed quantile"},
}

// TestCoverage draws 20-document samples from three populations and
// checks the printed intervals against the truth: every interval printed
// at 95% (the median's, each share's, the share over a P95 limit) covers
// at least 94% of the time, and where no 95% interval exists (the P95 of
// 20) each printed confidence is the measured coverage within 2 points.
func TestCoverage(t *testing.T) {
	const trials, n = 2000, 20
	rng := rand.New(rand.NewPCG(44, 1))
	xs := make([]float64, n)
	for _, pop := range tabletest.Cases(t, populations) {
		var median, low, high, both, over int
		var b95 Bound
		limit := pop.q(0.95) // a model exactly at the P95 limit
		for range trials {
			for i := range xs {
				xs[i] = pop.q(rng.Float64())
			}
			if b := QuantileBound(xs, 0.5, Level); b.Low <= pop.q(0.5) && pop.q(0.5) <= b.High {
				median++
			}
			b95 = QuantileBound(xs, 0.95, Level)
			lo, hi := b95.Low <= limit, limit <= b95.High
			low, high, both = low+b2i(lo), high+b2i(hi), both+b2i(lo && hi)
			k := 0
			for _, x := range xs {
				k += b2i(x > limit)
			}
			if s := ShareBound(k, n, Level); s.Low <= 0.05 && 0.05 <= s.High {
				over++
			}
		}
		t.Logf("%s: median %.3f, share over the P95 limit %.3f, P95 ≥ x(17) %.3f (printed %.3f), ≤ x(20) %.3f (printed %.3f)", pop.name,
			float64(median)/trials, float64(over)/trials, float64(low)/trials, b95.LowLevel, float64(high)/trials, b95.HighLevel)
		if got := float64(median) / trials; got < 0.94 {
			t.Errorf("%s: the median's 95%% interval covers %.3f", pop.name, got)
		}
		if got := float64(over) / trials; got < 0.94 {
			t.Errorf("%s: the share over the P95 limit's 95%% interval covers %.3f", pop.name, got)
		}
		for _, c := range tabletest.Cases(t, []struct {
			what      string
			hits      int
			confident float64
			reason    string
		}{
			{"P95 ≥ x(17)", low, b95.LowLevel, "the one-sided lower statement"},
			{"P95 ≤ x(20)", high, b95.HighLevel, "the upper one, far from 95%"},
			{"x(17) ≤ P95 ≤ x(20)", both, b95.Level, "both together"},
		}) {
			if got := float64(c.hits) / trials; math.Abs(got-c.confident) > 0.02 {
				t.Errorf("%s: %s holds %.3f of the time, printed %.3f", pop.name, c.what, got, c.confident)
			}
		}
	}
	for _, share := range []float64{0.5, 0.9, 0.95, 0.98} {
		hit := 0
		for range trials {
			k := 0
			for range n {
				k += b2i(rng.Float64() < share)
			}
			if s := ShareBound(k, n, Level); s.Low <= share && share <= s.High {
				hit++
			}
		}
		t.Logf("share %v: Clopper–Pearson covers %.3f", share, float64(hit)/trials)
		if got := float64(hit) / trials; got < 0.94 {
			t.Errorf("share %v: Clopper–Pearson covers %.3f", share, got)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAllowed: a P95 of 20 allows one document over its limit.
func TestAllowed(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct {
		n, want int
		reason  string
	}{
		{20, 1, "the P95 of 20 is the 19th value"},
		{19, 0, "of 19, the largest"},
		{40, 2, "of 40, the 38th"},
		{60, 3, "of 60, the 57th, though 0.95·60 is not exact in binary"},
		{1, 0, "one value"},
	}) {
		xs := seq(c.n)
		slices.Sort(xs)
		if got := Allowed(0.95, c.n); got != c.want || P95(xs) != xs[c.n-1-got] {
			t.Errorf("Allowed(0.95, %d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// BenchmarkQuantileBound: the P95 interval of 20 documents, as every
// class's report computes it.
func BenchmarkQuantileBound(b *testing.B) {
	xs := seq(20)
	for b.Loop() {
		QuantileBound(xs, 0.95, Level)
	}
}

// BenchmarkShareBound: one Clopper–Pearson interval of 20, computed (not
// remembered): two bisections of binomial sums.
func BenchmarkShareBound(b *testing.B) {
	for b.Loop() {
		shareBound(17, 20, Level)
	}
}
