package metric

import (
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// levBudget bounds the steps of the block-structure edit distance (see
// editDistance): a few milliseconds.
const levBudget = 1 << 22

// blockTokens returns the pre-order block sequence of d, one token per
// block: depth, kind, id, the kind's attributes (level, ordered, language,
// target with self-references made relative), the block's span ids in order
// and its unknown members (canonical JSON). rel makes references relative.
func blockTokens(d *bend.Document, rel func(string) string) []string {
	var out []string
	d.Walk(func(b *bend.Block, depth int, _ string) bool {
		var t strings.Builder
		t.WriteString(strconv.Itoa(depth))
		for _, f := range []string{b.Kind, b.ID} {
			t.WriteByte(0)
			t.WriteString(f)
		}
		t.WriteByte(0)
		if b.Level != nil {
			t.WriteString("level=" + strconv.Itoa(*b.Level) + ";")
		}
		if b.Ordered != nil {
			t.WriteString("ordered=" + strconv.FormatBool(*b.Ordered) + ";")
		}
		if b.Language != nil {
			t.WriteString("language=" + strconv.Quote(*b.Language) + ";")
		}
		if b.Target != nil {
			t.WriteString("target=" + strconv.Quote(rel(*b.Target)) + ";")
		}
		if b.Spans != nil {
			t.WriteString("spans=")
			for _, s := range b.Spans {
				t.WriteString(strconv.Quote(s.ID))
				t.WriteByte(',')
			}
			t.WriteByte(';')
		}
		if len(b.Extra) > 0 {
			t.WriteString("extra=" + canonical(&bend.Value{Kind: bend.Object, Members: b.Extra}))
		}
		out = append(out, t.String())
		return true
	})
	return out
}

// levStats is the outcome of a bounded Levenshtein distance.
type levStats struct {
	dist    int // the distance found (an upper bound when bounded > 0)
	bounded int // tokens charged as replaced because of levBudget
}

// blockStructure returns lev(E, O) / max(|E|, |O|) over the block tokens.
func blockStructure(exp, out []string) (float64, levStats) {
	in := newInterner()
	a, b := in.all(exp), in.all(out)
	st := levenshtein(a, b, len(in.ids))
	if n := max(len(a), len(b)); n > 0 {
		return float64(st.dist) / float64(n), st
	}
	return 0, st
}

// levenshtein is the unit-cost edit distance between a and b (insertion,
// deletion, substitution), with bounded work. The common prefix and suffix
// are removed; if the rest share no token, the distance is max(n, m).
// Otherwise editDistance gets half of levBudget. If that is not enough, the
// sequences are split at their patience anchors and each gap between
// anchors, in order, costs its exact distance while the budget lasts (or
// max(n, m) when its sides share no token, also exact); a gap beyond the
// budget costs max(n, m), an upper bound counted in bounded. ids must be
// smaller than n.
func levenshtein(a, b []int32, n int) levStats {
	d := disjointness{seen: make([]int32, n)}
	budget := levBudget
	dist, exact := d.gap(a, b, budget/2, &budget)
	if exact {
		return levStats{dist: dist}
	}
	var st levStats
	gaps := anchorGaps(a, b, n)
	if len(gaps) == 1 {
		// No anchor: the gap is the whole, which has just failed.
		return levStats{dist: dist, bounded: dist}
	}
	for _, g := range gaps {
		gd, exact := d.gap(a[g.a.lo:g.a.hi], b[g.b.lo:g.b.hi], budget, &budget)
		st.dist += gd
		if !exact {
			st.bounded += gd
		}
	}
	return st
}

// disjointness tells whether two token sequences share a token, with one
// stamp per token id.
type disjointness struct {
	seen  []int32
	stamp int32
}

func (d *disjointness) disjoint(a, b []int32) bool {
	d.stamp++
	for _, t := range a {
		d.seen[t] = d.stamp
	}
	for _, t := range b {
		if d.seen[t] == d.stamp {
			return false
		}
	}
	return true
}

// gap returns the Levenshtein distance of a and b and whether it is exact;
// when not, it returns max(n, m), an upper bound. It spends at most limit
// steps out of *budget.
func (d *disjointness) gap(a, b []int32, limit int, budget *int) (int, bool) {
	pre, suf := trimInts(a, b)
	a, b = a[pre:len(a)-suf], b[pre:len(b)-suf]
	if d.disjoint(a, b) {
		return max(len(a), len(b)), true
	}
	dist, spent, ok := editDistance(a, b, true, limit)
	*budget -= spent
	if !ok {
		return max(len(a), len(b)), false
	}
	return dist, true
}
