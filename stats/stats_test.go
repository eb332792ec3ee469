package stats

import (
	"math"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func seq(n int) []float64 {
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = float64(n - i) // descending: quantile must sort
	}
	return xs
}

func TestQuantile(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		p      float64
		xs     []float64
		want   float64
		reason string
	}{
		{"median of 20", 0.5, seq(20), 10, "k = ⌈0.5·20⌉ = 10: the lower median, a real document's value"},
		{"P95 of 20", 0.95, seq(20), 19, "k = ⌈0.95·20⌉ = 19: the worst document alone does not set the P95"},
		{"max", 1, seq(20), 20, "p = 1 is the largest value"},
		{"median of 19", 0.5, seq(19), 10, "odd n: the middle value"},
		{"P95 of 19", 0.95, seq(19), 19, "k = ⌈18.05⌉ = 19: with fewer than 20 documents the P95 is the max"},
		{"P95 of 60", 0.95, seq(60), 57, "k = ⌈57⌉ = 57, though 0.95·60 is not exact in binary"},
		{"single", 0.95, []float64{0.3}, 0.3, "one value is every quantile"},
		{"ties", 0.5, []float64{0, 0, 0, 1}, 0, "ties count once each"},
	}) {
		if got := Quantile(tc.p, tc.xs); got != tc.want {
			t.Errorf("%s: Quantile(%v) = %v, want %v (%s)", tc.name, tc.p, got, tc.want, tc.reason)
		}
	}
	xs := []float64{3, 1, 2}
	Quantile(0.5, xs)
	if xs[0] != 3 || xs[1] != 1 {
		t.Errorf("quantile sorted its argument in place: %v", xs)
	}
}

func TestSignedRank(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		name    string
		d       []float64
		p       float64
		n, sign int
		reason  string
	}{
		{"no change", []float64{0, 0, 0}, 1, 0, 0, "zero differences are dropped; nothing is left to test"},
		{"all up, n=5", []float64{1, 2, 3, 4, 5}, 2.0 / 32, 5, 1, "the most extreme of 2^5 sign patterns, two-sided: 2/32"},
		{"all down, n=6", []float64{-1, -2, -3, -4, -5, -6}, 2.0 / 64, 6, -1, "2/64 = 0.03125 < 0.05: six documents can show significance"},
		{"balanced", []float64{1, -1, 2, -2}, 1, 4, 0, "W⁺ at its mean: p = 1"},
		{"ties", []float64{0.1, 0.1, 0.1, -0.1}, 10.0 / 16, 4, 1, "four tied ranks 2.5: W⁺ = 7.5 of 10; patterns with |W⁺−5| ≥ 2.5 are those with 0, 1, 3 or 4 positives: 1+4+4+1 = 10 of 16"},
		{"one", []float64{0.2}, 1, 1, 1, "one difference: both sign patterns are as extreme"},
	}) {
		p, n, sign := SignedRank(tc.d)
		if math.Abs(p-tc.p) > 1e-12 || n != tc.n || sign != tc.sign {
			t.Errorf("%s: SignedRank(%v) = %v, %d, %d; want %v, %d, %d (%s)", tc.name, tc.d, p, n, sign, tc.p, tc.n, tc.sign, tc.reason)
		}
	}
}

// TestSignedRankNormal checks a larger untied sample against the normal
// approximation, which is close for n = 20.
func TestSignedRankNormal(t *testing.T) {
	var d []float64
	for i := 1; i <= 20; i++ {
		x := float64(i)
		if i%3 == 0 {
			x = -x
		}
		d = append(d, x)
	}
	p, _, _ := SignedRank(d)
	// W⁺ = 210 − (3+6+…+18) = 147; mean 105; sd = sqrt(20·21·41/24) = 26.79.
	z := (147.0 - 105 - 0.5) / math.Sqrt(20*21*41/24.0)
	approx := math.Erfc(z / math.Sqrt2)
	if math.Abs(p-approx) > 0.01 {
		t.Errorf("exact p = %v, normal approximation %v: too far apart", p, approx)
	}
}

// signedSample is n differences 1..n with every third negative and
// pairs tied.
func signedSample(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = float64(i/2 + 1)
		if i%3 == 0 {
			d[i] = -d[i]
		}
	}
	return d
}

// TestSignedRankOfManyDocumentsIsBounded: the exact distribution costs
// time and memory in n³ and n², so compare of 2,000 paired documents took
// 6.4 s and a report of 50,000 ran out of memory (a table of 2.5e9
// counts). Beyond MaxExactSignedRank the normal approximation answers, and
// it agrees with the exact p at the boundary.
func TestSignedRankOfManyDocumentsIsBounded(t *testing.T) {
	p, n, _ := SignedRank(signedSample(50000))
	if n != 50000 || !(p >= 0 && p <= 1) {
		t.Errorf("n = 50000: p %v, n %d", p, n)
	}
	ranks := doubledRanks(func() []float64 {
		a := signedSample(MaxExactSignedRank)
		for i := range a {
			a[i] = math.Abs(a[i])
		}
		return a
	}())
	total, observed := 0, 0
	for i, x := range signedSample(MaxExactSignedRank) {
		total += ranks[i]
		if x > 0 {
			observed += ranks[i]
		}
	}
	exact, approx := exactSignedRank(ranks, observed, total), signedRankNormal(ranks, observed, total)
	if math.Abs(exact-approx) > 0.001 {
		t.Errorf("n = %d: exact p %v, normal %v: more than 0.001 apart", MaxExactSignedRank, exact, approx)
	}
}

// BenchmarkSignedRank is compare's test on 2,000 paired documents (6.4 s
// when it was exact at every n).
func BenchmarkSignedRank(b *testing.B) {
	d := signedSample(2000)
	for b.Loop() {
		SignedRank(d)
	}
}

// TestHolm pins Holm's arithmetic on a worked example: p-values 0.01,
// 0.04, 0.03, 0.005 (m = 4). Sorted: 0.005, 0.01, 0.03, 0.04, multiplied by
// 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04, then made non-decreasing: 0.02, 0.03,
// 0.06, 0.06. Back in the order given: 0.03, 0.06, 0.06, 0.02. At 0.05,
// two of the four raw "significant" results survive.
func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
	if got := Holm([]float64{0.5, 0.9}); got[0] != 1 || got[1] != 1 {
		t.Errorf("Holm caps at 1: %v", got)
	}
	if got := Holm(nil); len(got) != 0 {
		t.Errorf("Holm(nil) = %v", got)
	}
}

// TestSignedRankNeeds: the exact two-sided signed-rank test needs 6
// differing pairs to reach p < 0.05 (2/64 = 0.031; with 5, 2/32 = 0.0625).
func TestSignedRankNeeds(t *testing.T) {
	if n := SignedRankNeeds(0.05); n != 6 {
		t.Errorf("SignedRankNeeds(0.05) = %d, want 6", n)
	}
	if p, _, _ := SignedRank([]float64{1, 2, 3, 4, 5, 6}); p >= 0.05 {
		t.Errorf("six positive differences: p %v, want < 0.05", p)
	}
}
