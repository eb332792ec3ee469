package task

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"bendscript.com/round-trip-harness/bend"
)

// row is one line of the §8.2 corpus table.
type row struct {
	vocabulary string
	minBlocks  int // top-level blocks
	maxBlocks  int
	focus      string
}

// Sizes (§8.2): small 1–3 blocks, medium 5–10, large 15 or more.
const (
	small  = 1
	medium = 5
	large  = 15
)

func rowFor(n int) row {
	switch {
	case n <= 3:
		return row{"core", small, 3, "plain prose, headings, paragraphs only"}
	case n <= 6:
		return row{"core", small, 3, "lists, nested lists, quotes"}
	case n <= 9:
		return row{"core", small, 3, "code blocks, dividers, embeds"}
	case n <= 12:
		return row{"core", medium, 10, "marks including untyped links"}
	case n <= 14:
		return row{"core", medium, 10, "inline link marks with all 9 core predicates"}
	case n == 15:
		return row{"core", medium, 10, "document-level edges with meta.weight and meta.confidence"}
	case n == 16:
		return row{"core", medium, 10, "span supersession with tombstones"}
	case n == 17:
		return row{"bendscript.memory.v1", medium, 10, "memory vocabulary"}
	case n == 18:
		return row{"bendscript.argument.v1", medium, 10, "argument vocabulary"}
	case n == 19:
		return row{"core", large, 1 << 30, "cross-document edges"}
	}
	return row{"core", large, 1 << 30, "adversarial nesting, canonicalization, Unicode"}
}

// Check returns every problem of a loaded set beyond what Load reports: the
// §8.2 table (20 documents, vocabulary and size per row, the row-specific
// musts), the §8.3 task layout (one task per document and class), the
// inverse tasks (CheckInverse) and the natural tasks (CheckNatural). The
// pools of reversible edits are checked apart (CheckPool), once loaded.
func Check(s *Set) []Problem {
	var probs []Problem
	add := func(file, format string, args ...any) {
		probs = append(probs, Problem{file, fmt.Sprintf(format, args...)})
	}
	if len(s.Documents) != 20 {
		add("corpus", "%d documents, want 20 (§8.2)", len(s.Documents))
	}
	byNum := map[int]*Document{}
	for _, d := range s.Documents {
		var n int
		if _, err := fmt.Sscanf(d.Name, "%02d-", &n); err != nil || n < 1 || n > 20 {
			add("corpus/"+d.Name, "name must be NN-<slug>.bend.json with NN from 01 to 20")
			continue
		}
		if byNum[n] != nil {
			add("corpus/"+d.Name, "a second document numbered %02d", n)
			continue
		}
		byNum[n] = d
		r := rowFor(n)
		file := "corpus/" + d.Name
		if d.Doc.Vocabulary != r.vocabulary {
			add(file, "/vocabulary: %q, row %d (%s) wants %q (§8.2)", d.Doc.Vocabulary, n, r.focus, r.vocabulary)
		}
		if nb := len(d.Doc.Blocks); nb < r.minBlocks || nb > r.maxBlocks {
			add(file, "/blocks: %d top-level blocks, row %d wants %d to %d (§8.2)", nb, n, r.minBlocks, r.maxBlocks)
		}
		for _, msg := range rowMusts(n, d) {
			add(file, "%s", msg)
		}
	}
	if d13, d14 := byNum[13], byNum[14]; d13 != nil && d14 != nil {
		used := map[string]bool{}
		for _, d := range []*bend.Document{d13.Doc, d14.Doc} {
			for _, e := range bend.LinkEdges(d) {
				used[e.Predicate] = true
			}
		}
		for _, p := range bend.CorePredicates {
			if !used[p] {
				add("corpus/"+d13.Name, "documents 13 and 14 together use no link mark with predicate %q (§8.2)", p)
			}
		}
	}
	have := map[string]bool{}
	for _, t := range s.Tasks {
		have[t.ID] = true
	}
	for n := 1; n <= 20; n++ {
		for _, c := range []string{"a", "b", "c"} {
			if id := fmt.Sprintf("%02d-%s", n, c); !have[id] {
				add("instructions/"+id+".json", "missing or unusable task (§8.3: one per document and class)")
			}
		}
	}
	probs = append(probs, CheckInverse(s)...)
	return append(probs, CheckNatural(s)...)
}

// rowMusts checks the row-specific requirements of documents 15 to 20.
func rowMusts(n int, doc *Document) []string {
	if check, ok := rowChecks[n]; ok {
		return check(doc)
	}
	return nil
}

// rowChecks are the rows whose documents must show something particular
// (§8.2), each checked by a function of its own.
var rowChecks = map[int]func(*Document) []string{
	15: row15,
	16: row16,
	17: row17,
	18: row18,
	19: row19,
	20: row20,
}

// row15 is what §8.2 row 15 asks of its document.
func row15(doc *Document) []string {
	d := doc.Doc
	var out []string
	count := 0
	for _, e := range d.Edges {
		if e.Meta.Get("weight") != nil && e.Meta.Get("confidence") != nil {
			count++
		}
	}
	if count == 0 {
		out = append(out, "/edges: no edge with meta.weight and meta.confidence (§8.2 row 15)")
	}
	return out
}

// row16 is what §8.2 row 16 asks of its document.
func row16(doc *Document) []string {
	d := doc.Doc
	var out []string
	if !hasTombstoneWithEdge(d) {
		out = append(out, "no tombstone span (text null, no marks) that a supersedes edge replaces (§8.2 row 16, §5.3)")
	}
	return out
}

// row17 is what §8.2 row 17 asks of its document.
func row17(doc *Document) []string {
	d := doc.Doc
	var out []string
	out = append(out, vocabMusts(d, "bendscript.memory.v1",
		[]string{"consolidated-from", "contradicts-with-evidence", "retrieved-for", "learned-from-outcome"})...)
	for _, f := range []string{"confidence", "provenance", "recall_count", "last_consolidated_at"} {
		if d.Meta.Get(f) == nil {
			out = append(out, fmt.Sprintf("/meta: no %q (§14.3.1)", f))
		}
	}
	return out
}

// row18 is what §8.2 row 18 asks of its document.
func row18(doc *Document) []string {
	d := doc.Doc
	var out []string
	out = append(out, vocabMusts(d, "bendscript.argument.v1", []string{"rebuts", "undercuts", "undermines", "reinstates"})...)
	kinds := map[string]bool{}
	d.Walk(func(b *bend.Block, _ int, _ string) bool { kinds[b.Kind] = true; return true })
	for _, k := range []string{"argument-position", "argument-attack", "argument-support"} {
		if !kinds[k] {
			out = append(out, fmt.Sprintf("/blocks: no %q block (§14.3.2)", k))
		}
	}
	metaSeen := map[string]bool{}
	for _, e := range d.Edges {
		for _, f := range []string{"attack_strength", "dialectical_status"} {
			if e.Meta.Get(f) != nil {
				metaSeen[f] = true
			}
		}
	}
	for _, f := range []string{"attack_strength", "dialectical_status"} {
		if !metaSeen[f] {
			out = append(out, fmt.Sprintf("/edges: no edge meta %q (§14.3.2)", f))
		}
	}
	return out
}

// row19 is what §8.2 row 19 asks of its document.
func row19(doc *Document) []string {
	d := doc.Doc
	var out []string
	docs := map[string]bool{}
	schemes := map[string]bool{}
	for _, e := range d.Edges {
		for _, ref := range []string{e.Subject, e.Object} {
			r, ok := bend.ParseRef(ref)
			switch {
			case ok && r.Bend && !r.IsSelf(d.ID):
				docs[r.Doc] = true
			case ok && !r.Bend:
				schemes[strings.SplitN(ref, ":", 2)[0]] = true
			}
		}
	}
	if len(docs) < 3 {
		out = append(out, fmt.Sprintf("/edges: edges reach %d other bend: documents, want several (at least 3) (§8.2 row 19)", len(docs)))
	}
	for _, s := range []string{"https", "did", "ipfs"} {
		if !schemes[s] {
			out = append(out, fmt.Sprintf("/edges: no edge to a %s: URI (§8.2 row 19)", s))
		}
	}
	return out
}

// row20 is what §8.2 row 20 asks of its document.
func row20(doc *Document) []string {
	d := doc.Doc
	var out []string
	depth := 0
	d.Walk(func(b *bend.Block, dep int, _ string) bool {
		if b.Kind == bend.KindList {
			// A list at block depth dep sits inside dep/2 enclosing lists.
			if l := dep/2 + 1; l > depth {
				depth = l
			}
		}
		return true
	})
	if depth < 8 {
		out = append(out, fmt.Sprintf("/blocks: lists nest %d deep, want at least 8 (§8.2 row 20)", depth))
	}
	out = append(out, canonicalizationMusts(doc)...)
	return out
}

// row20Numbers are number literals whose RFC 8785 form differs from how they
// are written, or that a float64 cannot hold exactly (§5.1).
var row20Numbers = []string{"1e21", "1e-7", "-0", "0.1", "9007199254740993"}

// canonicalizationMusts checks row 20's canonicalization and Unicode edge
// cases: the number literals above in meta, a non-ASCII member name, string
// escapes, and text with a ZWJ sequence, a combining mark, right-to-left and
// CJK script, and a character beyond the Basic Multilingual Plane.
func canonicalizationMusts(doc *Document) []string {
	d := doc.Doc
	numbers, nonASCIIKey := metaLiterals(d)
	var out []string
	for _, n := range row20Numbers {
		if !numbers[n] {
			out = append(out, fmt.Sprintf("meta: no number written %s (§8.2 row 20: canonicalization edge cases)", n))
		}
	}
	if !nonASCIIKey {
		out = append(out, "meta: no non-ASCII member name (§8.2 row 20)")
	}
	if !bytes.Contains(doc.Bytes, []byte(`\u`)) || !bytes.Contains(doc.Bytes, []byte(`\"`)) {
		out = append(out, `no \u or \" escape in any string (§8.2 row 20)`)
	}
	out = append(out, scriptMusts(d)...)
	sort.Strings(out)
	return out
}

// metaLiterals returns the number literals (lower case) of d's document
// and edge meta, and whether a member name there is not ASCII.
func metaLiterals(d *bend.Document) (numbers map[string]bool, nonASCIIKey bool) {
	numbers = map[string]bool{}
	var walk func(v *bend.Value)
	walk = func(v *bend.Value) {
		if v == nil {
			return
		}
		switch v.Kind {
		case bend.Number:
			numbers[strings.ToLower(v.Str)] = true
		case bend.Array:
			for _, e := range v.Elems {
				walk(e)
			}
		case bend.Object:
			for _, m := range v.Members {
				for _, r := range m.Key {
					if r > unicode.MaxASCII {
						nonASCIIKey = true
					}
				}
				walk(m.Value)
			}
		}
	}
	walk(d.Meta)
	for _, e := range d.Edges {
		walk(e.Meta)
	}
	return numbers, nonASCIIKey
}

// scriptMusts says which of the scripts and sequences row 20 asks for
// d's span text lacks.
func scriptMusts(d *bend.Document) []string {
	var text strings.Builder
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			if s.Text != nil {
				text.WriteString(*s.Text)
			}
		}
		return true
	})
	has := func(f func(rune) bool) bool { return strings.IndexFunc(text.String(), f) >= 0 }
	var out []string
	for name, ok := range map[string]bool{
		"an emoji ZWJ sequence":     has(func(r rune) bool { return r == '\u200d' }),
		"a combining mark":          has(func(r rune) bool { return unicode.Is(unicode.Mn, r) }),
		"right-to-left text":        has(func(r rune) bool { return unicode.In(r, unicode.Arabic, unicode.Hebrew) }),
		"CJK text":                  has(func(r rune) bool { return unicode.Is(unicode.Han, r) }),
		"an astral-plane character": has(func(r rune) bool { return r > 0xFFFF }),
	} {
		if !ok {
			out = append(out, fmt.Sprintf("span text lacks %s (§8.2 row 20)", name))
		}
	}
	return out
}

func vocabMusts(d *bend.Document, vocab string, names []string) []string {
	used := map[string]bool{}
	for _, e := range append(bend.LinkEdges(d), d.Edges...) {
		used[e.Predicate] = true
	}
	var out []string
	for _, n := range names {
		if !used[vocab+":"+n] {
			out = append(out, fmt.Sprintf("/edges: predicate %s:%s is not used (§14.3)", vocab, n))
		}
	}
	return out
}

func hasTombstoneWithEdge(d *bend.Document) bool {
	found := false
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			if s.Text != nil || len(s.Marks) > 0 {
				continue
			}
			ref := bend.SpanRef(b.ID, s.ID)
			for _, e := range d.Edges {
				if e.Predicate == "supersedes" && bend.Relative(e.Object, d.ID) == ref {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
