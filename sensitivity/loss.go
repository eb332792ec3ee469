// Package sensitivity measures what the thresholds let through: it applies
// a fixed set of canonical losses to every class B and C expected document,
// scores each as a model's answer, and says per loss and class what the
// drift, its components and the harness's own measures are, and which §8.5
// thresholds and harness gates a model making that loss in every answer
// would fail (`harness corpus sensitivity`).
//
// Every loss is deterministic and "unrelated": it touches only places the
// gold edit left as the source had them (metric/doc.go, "Unrequested
// changes"), chosen by a fixed rule, so a careful reader can redo it by
// hand. A loss that finds nothing to touch in a document (no edge, no
// mark, ...) is not applied to it, and its row counts only the documents
// it was applied to (n).
package sensitivity

import (
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// Invented is the sentence the "sentence" loss writes.
const Invented = "The committee later reversed this decision without explanation."

// A Loss is one canonical way an answer can lose content. Apply makes the
// k-th candidate change (0-based, in a fixed order) to a copy of the
// expected document exp of a task on source src, and reports whether there
// was a k-th candidate.
type Loss struct {
	Name        string // short, for tables and flags
	Description string // what it does, in a sentence
	Apply       func(src, exp *bend.Document, k int) bool
}

// Losses are the canonical losses, in table order.
var Losses = []Loss{
	{"none", "the expected document itself: the control, which must pass", func(_, _ *bend.Document, k int) bool { return k == 0 }},
	{"sentence", "the text of the first span of the first untouched paragraph replaced by an invented sentence", replaceSentence},
	{"mark", "the first mark of the first untouched span with marks dropped", dropMark},
	{"edge", "the first untouched explicit edge dropped (documents with edges)", dropEdge},
	{"paragraph", "the first untouched top-level paragraph dropped", dropParagraph},
	{"meta", "all metadata stripped: the document's meta and every untouched edge's", stripMeta},
	{"predicate", "the first untouched edge with a namespaced predicate rewritten as core \"supports\"", rewritePredicate},
	{"retype", "the first untouched paragraph retyped as a level-2 heading", retype},
	{"swap", "the first two adjacent untouched top-level blocks swapped", swap},
}

// untouched reports whether the gold edit left block b (its shell and its
// spans) as the source had it: the source has a block of that id whose
// canonical JSON is the same.
func untouched(src *bend.Document, b *bend.Block) bool {
	s := src.FindBlock(b.ID)
	return s != nil && string(bend.MarshalValue(s.Value())) == string(bend.MarshalValue(b.Value()))
}

// nthBlock returns the k-th block of exp in pre-order that is untouched
// and satisfies ok, or nil.
func nthBlock(src, exp *bend.Document, k int, ok func(*bend.Block) bool) *bend.Block {
	var found *bend.Block
	exp.Walk(func(b *bend.Block, _ int, _ string) bool {
		if untouched(src, b) && ok(b) {
			if k == 0 {
				found = b
			}
			k--
		}
		return found == nil
	})
	return found
}

func replaceSentence(src, exp *bend.Document, k int) bool {
	b := nthBlock(src, exp, k, func(b *bend.Block) bool {
		return b.Kind == bend.KindParagraph && slices.ContainsFunc(b.Spans, func(s *bend.Span) bool { return s.Text != nil && *s.Text != "" })
	})
	if b == nil {
		return false
	}
	for _, s := range b.Spans {
		if s.Text != nil && *s.Text != "" {
			t := Invented
			s.Text = &t
			return true
		}
	}
	return false
}

func dropMark(src, exp *bend.Document, k int) bool {
	b := nthBlock(src, exp, k, func(b *bend.Block) bool {
		return slices.ContainsFunc(b.Spans, func(s *bend.Span) bool { return len(s.Marks) > 0 })
	})
	if b == nil {
		return false
	}
	for _, s := range b.Spans {
		if len(s.Marks) > 0 {
			s.Marks = s.Marks[1:]
			return true
		}
	}
	return false
}

// untouchedEdges returns the indexes of the edges of exp, satisfying ok,
// that the source has too (same canonical JSON).
func untouchedEdges(src, exp *bend.Document, ok func(*bend.Edge) bool) []int {
	have := map[string]bool{}
	for _, e := range src.Edges {
		have[string(bend.MarshalValue(e.Value()))] = true
	}
	var out []int
	for i, e := range exp.Edges {
		if ok(e) && have[string(bend.MarshalValue(e.Value()))] {
			out = append(out, i)
		}
	}
	return out
}

// nthEdge returns the index of the k-th untouched edge satisfying ok, or -1.
func nthEdge(src, exp *bend.Document, k int, ok func(*bend.Edge) bool) int {
	if es := untouchedEdges(src, exp, ok); k < len(es) {
		return es[k]
	}
	return -1
}

func dropEdge(src, exp *bend.Document, k int) bool {
	i := nthEdge(src, exp, k, func(*bend.Edge) bool { return true })
	if i < 0 {
		return false
	}
	exp.Edges = slices.Delete(exp.Edges, i, i+1)
	return true
}

func dropParagraph(src, exp *bend.Document, k int) bool {
	for i, b := range exp.Blocks {
		if b.Kind == bend.KindParagraph && untouched(src, b) {
			if k == 0 {
				exp.Blocks = slices.Delete(exp.Blocks, i, i+1)
				return true
			}
			k--
		}
	}
	return false
}

// stripMeta has one candidate: the document's meta and the meta of every
// edge the source has (edges whose meta the edit writes keep it).
func stripMeta(src, exp *bend.Document, k int) bool {
	if k > 0 {
		return false
	}
	had := exp.Meta != nil
	exp.Meta = nil
	for _, i := range untouchedEdges(src, exp, func(*bend.Edge) bool { return true }) {
		had = had || exp.Edges[i].Meta != nil
		exp.Edges[i].Meta = nil
	}
	return had
}

func rewritePredicate(src, exp *bend.Document, k int) bool {
	i := nthEdge(src, exp, k, func(e *bend.Edge) bool { return strings.Contains(e.Predicate, ":") })
	if i < 0 {
		return false
	}
	exp.Edges[i].Predicate = "supports"
	return true
}

func retype(src, exp *bend.Document, k int) bool {
	b := nthBlock(src, exp, k, func(b *bend.Block) bool { return b.Kind == bend.KindParagraph })
	if b == nil {
		return false
	}
	level := 2
	b.Kind, b.Level = bend.KindHeading, &level
	return true
}

func swap(src, exp *bend.Document, k int) bool {
	for i := 0; i+1 < len(exp.Blocks); i++ {
		a, b := exp.Blocks[i], exp.Blocks[i+1]
		if untouched(src, a) && untouched(src, b) {
			if k == 0 {
				exp.Blocks[i], exp.Blocks[i+1] = b, a
				return true
			}
			k--
		}
	}
	return false
}

// Apply returns a copy of the expected document of a task with the loss
// applied at its first candidate that is unrelated to the task: the result
// still carries out every operation of the gold edit and is a valid
// document (a dropped paragraph that an edge cites is not unrelated). It
// returns nil when no candidate is.
func Apply(l Loss, src, exp *bend.Document, ops []*edit.Op) *bend.Document {
	for k := 0; ; k++ {
		c := exp.Clone()
		if !l.Apply(src, c, k) {
			return nil
		}
		if applied, _ := edit.Compliance(edit.Check(c, src.ID, ops)); applied && len(bend.Validate(c)) == 0 {
			return c
		}
	}
}
