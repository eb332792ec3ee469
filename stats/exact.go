package stats

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// Level is the confidence every interval of the harness aims at.
const Level = 0.95

// Bound is an exact, distribution-free confidence statement about a
// population quantile or share: the true value is at least Low with
// confidence LowLevel and at most High with confidence HighLevel, so in
// [Low, High] with confidence Level = LowLevel + HighLevel − 1 (the two
// one-sided statements fail on disjoint events). Nothing in it depends on
// a seed: the same values give the same Bound.
type Bound struct {
	Low, High           float64
	LowLevel, HighLevel float64
	Level               float64
	// LowRank and HighRank are, for a quantile, the order statistics
	// x(LowRank) and x(HighRank) that bound it (1-based); 0 for a share.
	LowRank, HighRank int
}

// TwoSided reports whether the Bound is a two-sided interval at the
// level asked for (within rounding): both one-sided statements hold at
// 1 − (1 − level)/2.
func (b Bound) TwoSided(level float64) bool { return b.Level >= level-1e-12 }

// binomialPMF is P(B = i), i = 0..n, of B ~ Binomial(n, p), from logs so
// that it stays finite for any n.
func binomialPMF(n int, p float64) []float64 {
	out := make([]float64, n+1)
	switch p {
	case 0:
		out[0] = 1
		return out
	case 1:
		out[n] = 1
		return out
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	lc := 0.0 // log C(n, i), kept up term by term
	for i := range out {
		out[i] = math.Exp(lc + float64(i)*lp + float64(n-i)*lq)
		lc += math.Log(float64(n-i)) - math.Log(float64(i+1))
	}
	return out
}

// BinomialCDF is P(B ≤ k) of B ~ Binomial(n, p): 0 for k < 0, 1 for
// k ≥ n.
func BinomialCDF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	}
	s := 0.0
	for _, x := range binomialPMF(n, p)[:k+1] {
		s += x
	}
	return math.Min(1, s)
}

// QuantileBound is the exact distribution-free interval of the population
// quantile ξ_p from the n values xs, by order statistics: with B the
// number of values below ξ_p, B ~ Binomial(n, p) whatever the
// distribution (exactly for a continuous one, conservatively for one with
// ties or atoms), and
//
//	P(x(l) ≤ ξ_p) = P(B ≥ l),   P(ξ_p ≤ x(u)) = P(B ≤ u − 1).
//
// It takes the narrowest [x(l), x(u)] (fewest ranks apart, then the most
// even tails) whose confidence P(l ≤ B < u) reaches level: the median of
// 20 is [x(6), x(15)], 95.9%. Where none does (a P95 below 59 values:
// even x(n) bounds it above with only 1 − pⁿ < 95%), each side is chosen
// at the one-sided level instead, and a side that cannot reach even that
// is the extreme value with its own confidence (the P95 of 20: at least
// x(17) with 98.4%, at most x(20) with 64.2%). xs must not be
// empty; it is not modified.
func QuantileBound(xs []float64, p, level float64) Bound {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	cdf := make([]float64, n+1) // cdf[i] = P(B ≤ i)
	acc := 0.0
	for i, x := range binomialPMF(n, p) {
		acc += x
		cdf[i] = math.Min(1, acc)
	}
	// lowConf(l) = P(B ≥ l) = 1 − cdf[l−1]; highConf(u) = cdf[u−1].
	lowConf := func(l int) float64 { return 1 - cdf[l-1] }
	highConf := func(u int) float64 { return cdf[u-1] }
	l, u := twoSided(n, level, lowConf, highConf)
	if l == 0 {
		l, u = oneSided(n, level, lowConf, highConf)
	}
	b := Bound{Low: s[l-1], High: s[u-1], LowRank: l, HighRank: u, LowLevel: lowConf(l), HighLevel: highConf(u)}
	b.Level = math.Max(0, b.LowLevel+b.HighLevel-1)
	return b
}

// ShareBound is the Clopper–Pearson (exact binomial) interval of a
// population share from k successes in n trials at level: the low end is
// the share under which k or more successes have chance (1 − level)/2,
// the high end the share over which k or fewer do (0 and 1 at k = 0 and
// k = n). It never collapses: 20 of 20 gives [0.832, 1]. Both ends are
// found by bisection to 1e-12, so the result is the same bits everywhere.
// n must be positive.
func ShareBound(k, n int, level float64) Bound {
	key := shareKey{k, n, level}
	if b, ok := shares.Load(key); ok {
		return b.(Bound)
	}
	b := shareBound(k, n, level)
	if shareCount.Add(1) > maxShares {
		shares.Clear()
		shareCount.Store(0)
	}
	shares.Store(key, b)
	return b
}

// The share bounds computed, by (k, n, level): a report asks for the same
// few again and again (every P95 check asks for 0..n of n), and each is
// some hundred binomial sums. At most maxShares are kept.
var (
	shares     sync.Map
	shareCount atomic.Int64
)

const maxShares = 1 << 14

type shareKey struct {
	k, n  int
	level float64
}

func shareBound(k, n int, level float64) Bound {
	a := (1 - level) / 2
	b := Bound{Low: 0, High: 1, LowLevel: 1, HighLevel: 1}
	if k > 0 {
		// P(B ≥ k; p) grows with p: the p where it reaches a.
		b.Low = bisect(func(p float64) bool { return 1-BinomialCDF(k-1, n, p) >= a })
		b.LowLevel = 1 - a
	}
	if k < n {
		// P(B ≤ k; p) falls with p: the p where it falls to a.
		b.High = bisect(func(p float64) bool { return BinomialCDF(k, n, p) <= a })
		b.HighLevel = 1 - a
	}
	b.Level = b.LowLevel + b.HighLevel - 1
	return b
}

// bisect is the smallest p in [0, 1] where the monotone test turns true,
// to 1e-12.
func bisect(test func(p float64) bool) float64 {
	lo, hi := 0.0, 1.0
	for hi-lo > 1e-12 {
		mid := lo + (hi-lo)/2
		if test(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// Allowed is how many of n values may lie above a limit L while Q(p) ≤ L
// still holds: Q(p) is the ⌈p·n⌉-th smallest (as Quantile computes k), so
// n − k may be above it (the P95 of 20: 1).
func Allowed(p float64, n int) int {
	return n - quantileRank(p, n)
}

// quantileRank is the 1-based rank k that Quantile takes of n values.
func quantileRank(p float64, n int) int {
	k := int(math.Ceil(p * float64(n)))
	return min(max(k, 1), n)
}

// twoSided is the narrowest pair of ranks (l, u) whose two-sided
// confidence lowConf(l) + highConf(u) − 1 reaches level, or (0, 0). For
// each u, the best l is the largest whose lowConf reaches what highConf(u)
// leaves; it grows with u, so one pass finds every pair.
func twoSided(n int, level float64, lowConf, highConf func(int) float64) (bestL, bestU int) {
	bestW, bestTilt := n+1, 2.0
	l := 0
	for u := 1; u <= n; u++ {
		need := level + 1 - highConf(u)
		if need > 1+1e-12 {
			continue
		}
		for l < n && lowConf(l+1) >= need-1e-12 {
			l++
		}
		if l == 0 || l > u {
			continue
		}
		w, tilt := u-l, math.Abs(lowConf(l)-highConf(u))
		if w < bestW || w == bestW && tilt < bestTilt-1e-12 {
			bestL, bestU, bestW, bestTilt = l, u, w, tilt
		}
	}
	return bestL, bestU
}

// oneSided is each side at the one-sided level: the largest l whose
// lowConf reaches it (else 1) and the smallest u whose highConf does
// (else n).
func oneSided(n int, level float64, lowConf, highConf func(int) float64) (l, u int) {
	l, u = 1, n
	for k := n; k >= 1; k-- {
		if lowConf(k) >= level-1e-12 {
			l = k
			break
		}
	}
	for k := 1; k <= n; k++ {
		if highConf(k) >= level-1e-12 {
			u = k
			break
		}
	}
	return l, u
}
