package metric

// editDistance returns the unit-cost edit distance between a and b: with
// subst, the Levenshtein distance (insertions, deletions, substitutions);
// without, the insertion/deletion distance n + m − 2·LCS(a, b).
//
// It uses diagonal transition (Ukkonen 1985; Myers 1986): for each cost e it
// keeps, on every diagonal k = x − y, the furthest point reachable at that
// cost, and slides along matching elements. That takes O((n+m)·d) steps for
// distance d, and about n + m + d² on similar sequences, so a near-copy of a
// large document costs little. One step is one diagonal visited or one
// matching pair slid over. It gives up (ok false) when the steps would
// exceed limit; spent is what it used either way, so that callers can share
// one budget. The result depends only on a, b and limit, never on time.
func editDistance[T comparable](a, b []T, subst bool, limit int) (d, spent int, ok bool) {
	n, m := len(a), len(b)
	switch {
	case n == 0 || m == 0:
		if subst {
			return max(n, m), 0, true
		}
		return n + m, 0, true
	case limit <= 0:
		return 0, 0, false
	}
	// The distance is at most emax: max(n, m) with substitutions, n + m
	// without. After e costs at least e²/2 steps have been spent (cost e
	// visits at least e+1 diagonals), so within the limit e also stays
	// below √(2·limit)+2. Diagonals lie in [−m, n], so they fit in
	// [−kmax, kmax].
	emax := n + m
	if subst {
		emax = max(n, m)
	}
	emax = min(emax, isqrt(2*limit)+2)
	kmax := min(max(n, m), emax)
	target := n - m
	if target > emax || -target > emax {
		return 0, 0, false
	}
	off := kmax + 1
	prev, cur := make([]int, 2*kmax+3), make([]int, 2*kmax+3)
	for i := range prev {
		prev[i], cur[i] = -1, -1
	}
	x := slide(a, b, 0, 0)
	spent = 1 + x
	if x == n && x == m {
		return 0, spent, true
	}
	prev[off] = x
	for e := 1; e <= emax; e++ {
		for k := max(-e, -m, -kmax); k <= min(e, n, kmax); k++ {
			best := furthest(prev, off, k, n, m, subst)
			spent++
			if best >= 0 {
				x := slide(a, b, best, best-k)
				spent += x - best
				best = x
			}
			cur[off+k] = best
		}
		if cur[off+target] >= n {
			return e, spent, true
		}
		if spent > limit {
			return 0, spent, false
		}
		prev, cur = cur, prev
	}
	return 0, spent, false
}

// furthest is the furthest x that diagonal k reaches at cost e, before
// sliding, from the furthest points of cost e−1 (prev, indexed off+k): by
// a substitution on k, a deletion from k−1 or an insertion from k+1; −1
// when none reaches it.
func furthest(prev []int, off, k, n, m int, subst bool) int {
	best := -1
	if v := prev[off+k]; subst && v >= 0 && v < n && v-k < m {
		best = v + 1 // substitution
	}
	if v := prev[off+k-1]; v >= 0 && v < n {
		best = max(best, v+1) // deletion of a[v]
	}
	if v := prev[off+k+1]; v >= 0 && v-k-1 < m {
		best = max(best, v) // insertion of b[v-k-1]
	}
	return best
}

// slide returns the first x' ≥ x with a[x'] ≠ b[x'−x+y] (or an end).
func slide[T comparable](a, b []T, x, y int) int {
	for x < len(a) && y < len(b) && a[x] == b[y] {
		x++
		y++
	}
	return x
}

// isqrt returns ⌊√n⌋ for n ≥ 0.
func isqrt(n int) int {
	r := 0
	for bit := 1 << 30; bit > 0; bit >>= 1 {
		if t := r + bit; t <= n/t {
			r = t
		}
	}
	return r
}
