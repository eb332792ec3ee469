// Package stats is the harness's statistics, in one place (as benchstat's
// benchmath): the one quantile definition, the mean, exact
// distribution-free intervals (order statistics for quantiles,
// Clopper–Pearson for shares), the exact Wilcoxon signed-rank test, the
// exact binomial (McNemar) test and Holm's adjustment. Nothing draws at
// random: the same arguments give the same bits on every machine, whatever
// seed a run has.
package stats

import (
	"math"
	"slices"
	"sort"
)

// QuantileDefinition is the harness's one quantile definition, recorded in
// every report. See Quantile.
const QuantileDefinition = "empirical: Q(p) = x(k), k = ceil(p*n), the k-th smallest of n values (Hyndman-Fan type 1)"

// Quantile returns Q(p) of xs by the inverse of the empirical distribution
// function: the smallest value x(k) whose empirical CDF k/n reaches p, that
// is k = ⌈p·n⌉ (k = 1 for p = 0). It is always one of the values, so a
// median or a P95 is the value of a real document: over 20 documents the
// median is the 10th smallest (the lower median) and the P95 the 19th, so
// that the single worst document alone cannot fail a P95 threshold. xs need
// not be sorted and is not modified; it must not be empty.
func Quantile(p float64, xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[quantileRank(p, len(s))-1]
}

// Median is Q(0.5): over 20 values, the 10th smallest.
func Median(xs []float64) float64 { return Quantile(0.5, xs) }

// P95 is Q(0.95): over 20 values, the 19th smallest.
func P95(xs []float64) float64 { return Quantile(0.95, xs) }

// Mean is Σx/n, summed in order. It has no multiplication, so no machine can
// fuse it into a multiply-add and every machine gets the same bits.
func Mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// SignedRank is the Wilcoxon signed-rank test of paired differences d
// (new − old, one per document) against "no change". Zero differences are
// dropped (Wilcoxon's convention); the rest are ranked by |d| with ties
// given their average rank. The p-value is two-sided, and exact up to
// n = MaxExactSignedRank (the normal approximation beyond): the
// probability, under the null hypothesis that each nonzero difference is
// as likely positive as negative, of a rank sum W⁺ at least as far from its
// mean as the one observed. Average ranks make the null distribution the
// permutation distribution for these tied ranks. n is the number of nonzero differences; p is 1 when n is 0.
// sign is +1 when the positive differences carry more than half the rank
// sum (new tends to be larger), −1 when less, 0 when exactly half.
func SignedRank(d []float64) (p float64, n, sign int) {
	var nonzero, abs []float64
	for _, x := range d {
		if x != 0 {
			nonzero = append(nonzero, x)
			abs = append(abs, math.Abs(x))
		}
	}
	n = len(nonzero)
	if n == 0 {
		return 1, 0, 0
	}
	// Rank sums are counted in doubled ranks, which are integers.
	ranks := doubledRanks(abs)
	total, observed := 0, 0
	for i, x := range nonzero {
		total += ranks[i]
		if x > 0 {
			observed += ranks[i]
		}
	}
	switch {
	case 2*observed > total:
		sign = 1
	case 2*observed < total:
		sign = -1
	}
	if n > MaxExactSignedRank {
		return signedRankNormal(ranks, observed, total), n, sign
	}
	return exactSignedRank(ranks, observed, total), n, sign
}

// MaxExactSignedRank is the largest n whose signed-rank p-value is exact.
// The exact distribution costs time in n·Σr, which is n³ (compare of 2,000
// documents took 6.4 s, and 50,000 ran out of memory: issue 32); beyond it
// the normal approximation, with its tie-corrected variance, is within
// 0.001 of the exact p.
const MaxExactSignedRank = 200

// exactSignedRank is the exact two-sided p of the doubled rank sum
// observed among ranks summing to total.
func exactSignedRank(ranks []int, observed, total int) float64 {
	n := len(ranks)
	// ways[s] counts the sign assignments whose positive doubled ranks sum
	// to s; float64 counts are exact up to 2^53 (n ≤ 52), and within
	// rounding up to n = MaxExactSignedRank (2^200 ≪ 2^1023).
	ways := make([]float64, total+1)
	ways[0] = 1
	for _, r := range ranks {
		for s := total; s >= r; s-- {
			ways[s] += ways[s-r]
		}
	}
	// s is at least as far from the mean total/2 as observed exactly when
	// |2s − total| ≥ |2·observed − total|.
	far := abs2(2*observed - total)
	tail := 0.0
	for s, w := range ways {
		if abs2(2*s-total) >= far {
			tail += w
		}
	}
	return math.Min(1, math.Ldexp(tail, -n))
}

// signedRankNormal is the two-sided p of the doubled rank sum observed by
// the normal approximation: under the null each doubled rank r is in the
// sum with chance ½, so the mean is Σr/2 and the variance Σr²/4 (ties
// included); with a continuity correction of half a rank (1 doubled),
//
//	p = erfc(max(0, |observed − Σr/2| − 1) / (σ·√2)).
func signedRankNormal(ranks []int, observed, total int) float64 {
	var sq float64
	for _, r := range ranks {
		sq += float64(r) * float64(r)
	}
	sd := math.Sqrt(sq / 4)
	z := math.Max(0, math.Abs(float64(observed)-float64(total)/2)-1) / sd
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

func abs2(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// doubledRanks returns twice the average rank (1-based) of each value, so
// that tied ranks stay integers: values 0.1, 0.2, 0.2 have ranks 1, 2.5,
// 2.5, returned as 2, 5, 5.
func doubledRanks(xs []float64) []int {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case xs[a] < xs[b]:
			return -1
		case xs[a] > xs[b]:
			return 1
		}
		return 0
	})
	ranks := make([]int, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		// Positions i..j-1 (0-based) hold ranks i+1..j; their average,
		// doubled, is i+1+j.
		for k := i; k < j; k++ {
			ranks[idx[k]] = i + 1 + j
		}
		i = j
	}
	return ranks
}

// ExactBinomial is the two-sided p-value of a fair binomial test of a
// successes against b failures: 2·P(X ≤ min(a, b)), at most 1.
func ExactBinomial(a, b int) float64 {
	n, k := a+b, min(a, b)
	if n == 0 {
		return 1
	}
	// P(X ≤ k) = Σ_{i≤k} C(n, i) / 2^n, summed in logs to stay finite.
	p := 0.0
	for i := 0; i <= k; i++ {
		lg := lgamma(n+1) - lgamma(i+1) - lgamma(n-i+1) - float64(n)*math.Ln2
		p += math.Exp(lg)
	}
	return math.Min(1, 2*p)
}

func lgamma(x int) float64 {
	v, _ := math.Lgamma(float64(x))
	return v
}

// Holm adjusts the p-values of a family of tests together (Holm's
// step-down method), so that the chance of any false "significant" in the
// family is at most the level: with the m p-values sorted ascending,
// p'(i) = max over j ≤ i of min(1, (m − j + 1)·p(j)) (1-based). The
// adjusted values come back in the order given.
func Holm(p []float64) []float64 {
	m := len(p)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] < p[order[b]] })
	out := make([]float64, m)
	running := 0.0
	for rank, i := range order {
		running = math.Max(running, math.Min(1, float64(m-rank)*p[i]))
		out[i] = running
	}
	return out
}

// SignedRankNeeds is the fewest differing pairs with which the exact
// two-sided signed-rank test can reach p < alpha: all n differences of one
// sign give its smallest p, 2/2^n.
func SignedRankNeeds(alpha float64) int {
	n := 1
	for 2/math.Pow(2, float64(n)) >= alpha {
		n++
	}
	return n
}
