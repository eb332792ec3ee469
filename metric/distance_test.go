package metric

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// naive is the textbook O(n·m) table: Levenshtein with subst, the
// insertion/deletion distance without.
func naive[T comparable](a, b []T, subst bool) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := range a {
		diag := row[0]
		row[0] = i + 1
		for j := range b {
			up := row[j+1]
			v := min(up, row[j]) + 1
			switch {
			case a[i] == b[j]:
				v = min(v, diag)
			case subst:
				v = min(v, diag+1)
			}
			row[j+1] = v
			diag = up
		}
	}
	return row[len(b)]
}

func randomSeq(r *rand.Rand, n, alphabet int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(r.IntN(alphabet))
	}
	return s
}

// mutate returns a copy of s with k random edits.
func mutate(r *rand.Rand, s []int32, k, alphabet int) []int32 {
	out := append([]int32(nil), s...)
	for range k {
		i := r.IntN(len(out) + 1)
		switch r.IntN(3) {
		case 0:
			out = append(out[:i], append([]int32{int32(r.IntN(alphabet))}, out[i:]...)...)
		case 1:
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		default:
			if i < len(out) {
				out[i] = int32(r.IntN(alphabet))
			}
		}
	}
	return out
}

func TestEditDistanceMatchesTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		alphabet := 1 + r.IntN(6)
		a := randomSeq(r, r.IntN(30), alphabet)
		b := mutate(r, a, r.IntN(12), alphabet)
		if r.IntN(4) == 0 {
			b = randomSeq(r, r.IntN(30), alphabet)
		}
		for _, subst := range []bool{false, true} {
			want := naive(a, b, subst)
			got, _, ok := editDistance(a, b, subst, 1<<30)
			if !ok || got != want {
				t.Fatalf("editDistance(%v, %v, subst=%v) = %d, %v; want %d", a, b, subst, got, ok, want)
			}
		}
	}
}

func TestEditDistanceBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a, b := randomSeq(r, 5000, 50), randomSeq(r, 5000, 50)
	_, spent, ok := editDistance(a, b, false, 1000)
	if ok {
		t.Fatal("unrelated sequences finished within 1000 steps")
	}
	if spent > 1000+2*5000+10 {
		t.Errorf("spent %d steps of a 1000-step limit", spent)
	}
	// Deterministic: the same inputs and limit give the same outcome.
	d1, s1, ok1 := editDistance(a, mutate(r, a, 20, 50), true, 1<<20)
	if !ok1 || d1 > 20 {
		t.Fatalf("near-copy: %d, %v", d1, ok1)
	}
	if s1 > 2*len(a)+50*50 {
		t.Errorf("near-copy of %d took %d steps, want about n + d²", len(a), s1)
	}
}

func TestLevenshteinFallback(t *testing.T) {
	// Unique tokens (like block ids), long enough to exceed the budget's
	// exact attempt only when unrelated.
	r := rand.New(rand.NewPCG(5, 6))
	n := 20000
	a := make([]int32, n)
	for i := range a {
		a[i] = int32(i)
	}
	b := append([]int32(nil), a...)
	b[100], b[n-100] = int32(n), int32(n+1) // two substitutions far apart
	if st := levenshtein(a, b, n+2); st.dist != 2 || st.bounded != 0 {
		t.Errorf("two substitutions: %+v", st)
	}
	c := make([]int32, n)
	for i := range c {
		c[i] = int32(n + 2 + i)
	}
	if st := levenshtein(a, c, 2*n+2); st.dist != n || st.bounded != 0 {
		t.Errorf("disjoint sequences: %+v, want exact %d", st, n)
	}
	// Shuffled: shares every token, no order; the bound must hold and the
	// result must be an upper bound of the exact value.
	p := r.Perm(3000)
	x, y := make([]int32, 3000), make([]int32, 3000)
	for i := range x {
		x[i], y[i] = int32(i), int32(p[i])
	}
	st := levenshtein(x, y, 3000)
	if want := naive(x, y, true); st.dist < want {
		t.Errorf("shuffled: %d, below the exact %d", st.dist, want)
	}
}

func TestSpanCoverageExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("the memory loop closes when consolidation completes 🧑🏽‍💻 Café déjà שלום 你好 a b c")
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString([]string{" ", "\n", ", "}[r.IntN(3)])
		}
		return b.String()
	}
	for range 300 {
		e := text(r.IntN(60))
		o := e
		if r.IntN(3) > 0 {
			o = text(r.IntN(60))
		} else if len(o) > 0 {
			i := r.IntN(len(o))
			for i > 0 && !utf8.RuneStart(o[i]) {
				i--
			}
			o = o[:i] + "XYZ" + o[i:]
		}
		got, st := spanCoverage(e, o)
		ra, rb := []rune(e), []rune(o)
		d := naive(ra, rb, false)
		if st.deleted+st.inserted != d || st.deleted-st.inserted != len(ra)-len(rb) || st.bounded != 0 {
			t.Fatalf("%q vs %q: %+v, want %d edits", e, o, st, d)
		}
		if len(ra)+len(rb) > 0 && got != float64(d)/float64(len(ra)+len(rb)) {
			t.Fatalf("coverage %v", got)
		}
	}
}

func TestSpanCoverageBound(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	letters := []rune("abcdefghij klmnop\n")
	gen := func(n int) string {
		b := make([]rune, n)
		for i := range b {
			b[i] = letters[r.IntN(len(letters))]
		}
		return string(b)
	}
	e, o := gen(200000), gen(200000)
	c, st := spanCoverage(e, o)
	if c < 0 || c > 1 || st.deleted > st.expLen || st.inserted > st.outLen {
		t.Fatalf("unrelated: %v %+v", c, st)
	}
	if st.bounded == 0 {
		t.Errorf("unrelated 200k texts did not hit the bound: %+v", st)
	}
	// Two far-apart edits in a large text stay exact.
	o = e[:1000] + "INSERTED" + e[1000:150000] + e[150010:]
	c, st = spanCoverage(e, o)
	if st.bounded != 0 || st.inserted != 8 || st.deleted != 10 {
		t.Errorf("near-copy: %v %+v", c, st)
	}
}

func TestTrimText(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct{ a, b, wa, wb, reason string }{
		{"abc", "abd", "c", "d", "the common prefix is removed"},
		{"é", "è", "é", "è", "é and è share their first byte, and the cut never falls inside a code point"},
		{"xé", "xè", "é", "è", "after a common prefix, the cut backs up to the start of the differing code point"},
		{"éx", "èx", "é", "è", "a common suffix is removed while the differing code points stay whole"},
		{"same", "same", "", "", "equal texts trim to nothing"},
		{"🧑🏽", "🧑🏾", "🏽", "🏾", "two skin-tone modifiers share three of their four bytes, and only the whole modifier is kept"},
	}) {
		if a, b := trimText(tc.a, tc.b); a != tc.wa || b != tc.wb {
			t.Errorf("trimText(%q, %q) = %q, %q; want %q, %q (%s)", tc.a, tc.b, a, b, tc.wa, tc.wb, tc.reason)
		}
	}
}

func TestLongestIncreasing(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		xs     []int
		want   int
		reason string
	}{
		{nil, 0, "no input, no subsequence"},
		{[]int{3}, 1, "one element is its own longest subsequence"},
		{[]int{3, 1, 2}, 2, "a larger first element is skipped for the longer run after it"},
		{[]int{1, 2, 3}, 3, "an increasing input is kept whole"},
		{[]int{3, 2, 1}, 1, "a decreasing input keeps one element: the subsequence is strictly increasing"},
		{[]int{2, 5, 3, 7, 4, 8}, 4, "among interleaved runs the longest is found (2 3 4 8 or 2 5 7 8), not a greedy one"},
	}) {
		got := longestIncreasing(tc.xs)
		if len(got) != tc.want {
			t.Errorf("%v: %v, want length %d (%s)", tc.xs, got, tc.want, tc.reason)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] || tc.xs[got[i]] <= tc.xs[got[i-1]] {
				t.Errorf("%v: %v is not increasing", tc.xs, got)
			}
		}
	}
}
