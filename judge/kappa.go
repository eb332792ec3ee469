package judge

// CohenKappa returns Cohen's κ for two raters who put the same N items into
// categories 0..k-1 (a[i] and b[i] are their choices for item i):
//
//	κ   = (p_o − p_e) / (1 − p_e)
//	p_o = (1/N) Σ_i [a_i = b_i]
//	p_e = Σ_c (n_a(c)/N) · (n_b(c)/N)
//
// where n_a(c) is the number of items a put in c. κ is 1 for perfect
// agreement, 0 for agreement at chance level, and negative below it. ok is
// false when κ is undefined: no items, unequal lengths, a category out of
// range, or p_e = 1 (both raters used one and the same category for every
// item).
func CohenKappa(a, b []int, k int) (kappa float64, ok bool) {
	n := len(a)
	if n == 0 || len(b) != n || k < 1 {
		return 0, false
	}
	na, nb := make([]int, k), make([]int, k)
	agree := 0
	for i := range a {
		if a[i] < 0 || a[i] >= k || b[i] < 0 || b[i] >= k {
			return 0, false
		}
		na[a[i]]++
		nb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	po := float64(agree) / float64(n)
	pe := 0.0
	for c := range k {
		pe += float64(na[c]) / float64(n) * float64(nb[c]) / float64(n)
	}
	if pe >= 1 {
		return 0, false
	}
	return (po - pe) / (1 - pe), true
}

// FleissKappa returns Fleiss' κ for N items each rated by the same number
// n ≥ 2 of raters; counts[i][c] is how many raters put item i in category
// c:
//
//	p_c = (1/(N·n)) Σ_i counts[i][c]
//	P_i = (Σ_c counts[i][c]² − n) / (n·(n − 1))
//	P̄   = (1/N) Σ_i P_i
//	P̄_e = Σ_c p_c²
//	κ   = (P̄ − P̄_e) / (1 − P̄_e)
//
// ok is false when κ is undefined: no items, fewer than two raters, rows
// that do not all sum to the same n, a negative count, or P̄_e = 1 (every
// rating in one category).
func FleissKappa(counts [][]int) (kappa float64, ok bool) {
	if len(counts) == 0 {
		return 0, false
	}
	k := len(counts[0])
	n := 0
	for _, x := range counts[0] {
		n += x
	}
	if n < 2 {
		return 0, false
	}
	pc := make([]float64, k)
	sumP := 0.0
	for _, row := range counts {
		if len(row) != k {
			return 0, false
		}
		sum, sq := 0, 0
		for c, x := range row {
			if x < 0 {
				return 0, false
			}
			sum += x
			sq += x * x
			pc[c] += float64(x)
		}
		if sum != n {
			return 0, false
		}
		sumP += float64(sq-n) / float64(n*(n-1))
	}
	items := float64(len(counts))
	pbar := sumP / items
	pe := 0.0
	for _, p := range pc {
		p /= items * float64(n)
		pe += p * p
	}
	if pe >= 1 {
		return 0, false
	}
	return (pbar - pe) / (1 - pe), true
}
