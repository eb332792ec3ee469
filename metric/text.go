package metric

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/bend"
)

// textBudget bounds the steps (see editDistance) of the span-coverage diff
// of one score: about 100 ms on 1 MB texts, where a step may miss the cache.
const textBudget = 1 << 24

// Text projection levels, coarse to fine.
const (
	levelLines = iota
	levelWords
	levelChars
)

// textProjection returns the text that span coverage compares: the title
// (when present) and then one line per block that holds text (a spans
// array, or a code block's text), in pre-order, each line ending in "\n".
// A block's line is its span texts concatenated; a tombstone adds nothing.
// Blocks without text (lists, list items, quotes, dividers, embeds) add no
// line, so that structure alone never changes the text.
func textProjection(d *bend.Document) string {
	var b strings.Builder
	if d.Title != nil {
		b.WriteString(*d.Title)
		b.WriteByte('\n')
	}
	d.Walk(func(bl *bend.Block, _ int, _ string) bool {
		if bl.HasText() {
			b.WriteString(bl.PlainText())
			b.WriteByte('\n')
		}
		return true
	})
	return b.String()
}

// textStats is the outcome of the bounded text diff.
type textStats struct {
	expLen, outLen    int
	deleted, inserted int
	bounded           int // code points charged as replaced without an exact diff
	budget            int // steps left
}

// spanCoverage returns (deleted + inserted) / (|E| + |O|) for the text
// projections e and o, with the diff computed under the work bound.
func spanCoverage(e, o string) (float64, textStats) {
	t := textStats{
		expLen: utf8.RuneCountInString(e),
		outLen: utf8.RuneCountInString(o),
		budget: textBudget,
	}
	t.diff(e, o, levelLines, true)
	if t.expLen+t.outLen == 0 {
		return 0, t
	}
	return float64(t.deleted+t.inserted) / float64(t.expLen+t.outLen), t
}

// diff adds to t the code points deleted from a and inserted into b. After
// the common prefix and suffix are removed, the rest is diffed exactly
// (when exact) with what is left of the budget (half of it for the whole
// texts, so that the fallback keeps the other half). If that is not
// enough, the texts are split into lines (then words), aligned at their
// patience anchors, and each gap is diffed at the next level; a gap that
// fits no level is charged as wholly replaced, which can only overstate the
// change.
func (t *textStats) diff(a, b string, level int, exact bool) {
	a, b = trimText(a, b)
	if a == "" || b == "" {
		t.deleted += utf8.RuneCountInString(a)
		t.inserted += utf8.RuneCountInString(b)
		return
	}
	if exact {
		limit := t.budget
		if level == levelLines {
			limit /= 2
		}
		ra, rb := []rune(a), []rune(b)
		d, spent, ok := editDistance(ra, rb, false, limit)
		t.budget -= spent
		if ok {
			t.deleted += (d + len(ra) - len(rb)) / 2
			t.inserted += (d + len(rb) - len(ra)) / 2
			return
		}
	}
	if level < levelChars {
		t.split(a, b, level)
		return
	}
	n, m := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	t.deleted += n
	t.inserted += m
	t.bounded += n + m
}

// split aligns a and b as sequences of level's tokens and diffs each gap
// between anchors at the next level.
func (t *textStats) split(a, b string, level int) {
	ta, tb := tokenize(a, level), tokenize(b, level)
	in := newInterner()
	ia, ib := in.all(ta), in.all(tb)
	oa, ob := offsets(ta), offsets(tb)
	gaps := anchorGaps(ia, ib, len(in.ids))
	for _, g := range gaps {
		// A single gap is the whole, whose exact diff has just failed.
		t.diff(a[oa[g.a.lo]:oa[g.a.hi]], b[ob[g.b.lo]:ob[g.b.hi]], level+1, len(gaps) > 1)
	}
}

// offsets returns the byte offset of each token in their concatenation,
// and the total length last.
func offsets(toks []string) []int {
	out := make([]int, len(toks)+1)
	for i, s := range toks {
		out[i+1] = out[i] + len(s)
	}
	return out
}

// tokenize splits s into lines (each with its "\n") or into words (runs of
// letters and digits, runs of white space, and single other characters).
// The tokens concatenate to s.
func tokenize(s string, level int) []string {
	if level == levelLines {
		out := make([]string, 0, strings.Count(s, "\n")+1)
		for s != "" {
			i := strings.IndexByte(s, '\n') + 1
			if i == 0 {
				i = len(s)
			}
			out = append(out, s[:i])
			s = s[i:]
		}
		return out
	}
	out := make([]string, 0, len(s)/3)
	for s != "" {
		r, n := utf8.DecodeRuneInString(s)
		class := charClass(r)
		for class != 0 && n < len(s) {
			r2, w := utf8.DecodeRuneInString(s[n:])
			if charClass(r2) != class {
				break
			}
			n += w
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// charClass is 1 for word characters, 2 for white space, 0 for others
// (each of which is a token by itself).
func charClass(r rune) int {
	switch {
	case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_':
		return 1
	case unicode.IsSpace(r):
		return 2
	}
	return 0
}

// trimText removes the common prefix and suffix of a and b, cutting only
// between code points.
func trimText(a, b string) (string, string) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for pre > 0 && pre < len(a) && !utf8.RuneStart(a[pre]) {
		pre--
	}
	if pre < len(b) && !utf8.RuneStart(b[pre]) {
		// a ended inside a code point that b continues differently.
		for pre > 0 && !utf8.RuneStart(b[pre]) {
			pre--
		}
	}
	a, b = a[pre:], b[pre:]
	suf := 0
	for suf < len(a) && suf < len(b) && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	// The suffix must start at a code point in both.
	for suf > 0 && (!utf8.RuneStart(a[len(a)-suf]) || !utf8.RuneStart(b[len(b)-suf])) {
		suf--
	}
	return a[:len(a)-suf], b[:len(b)-suf]
}
