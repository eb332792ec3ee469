package metric

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// Component names, as in the JSON report.
const (
	cBlock = "block_structure"
	cEdge  = "edge_preservation"
	cSpan  = "span_coverage"
	cMark  = "mark_fidelity"
	cVocab = "vocabulary_integrity"
)

var componentNames = []string{cBlock, cEdge, cSpan, cMark, cVocab}

func (c Components) named(name string) float64 {
	return c.List()[slices.Index(componentNames, name)]
}

// perturbation is one kind of model mistake, applied to an expected
// document. touches are the components it must raise; may are those it is
// allowed to raise as well (the coupling the reason explains); every other
// component must stay 0.
type perturbation struct {
	name    string
	touches []string
	may     []string
	reason  string
	// apply changes the i-th target of d (0-based, in document order) in
	// place; it returns false when d has fewer targets. Distinct i touch
	// distinct elements, so that repeated applications add up.
	apply func(d *bend.Document, i int) bool
	// raw serializes the perturbed document; nil means bend.Marshal.
	raw func(d *bend.Document) string
	// check makes further assertions on the result.
	check func(t *testing.T, r Result)
}

var perturbations = []perturbation{
	{
		name: "rename a block kind", touches: []string{cBlock},
		reason: "a kind change is a token substitution; the spans stay, so text and marks do not change (§8.4: paragraph → quote is drift)",
		apply: func(d *bend.Document, i int) bool {
			b := nthBlock(d, i, isKind(bend.KindParagraph))
			if b != nil {
				b.Kind = bend.KindQuote
			}
			return b != nil
		},
	},
	{
		name: "change a heading level", touches: []string{cBlock},
		reason: "the level is part of a heading's token; nothing else depends on it",
		apply: func(d *bend.Document, i int) bool {
			b := nthBlock(d, i, func(b *bend.Block) bool { return b.Level != nil })
			if b != nil {
				l := *b.Level%6 + 1
				b.Level = &l
			}
			return b != nil
		},
	},
	{
		name: "swap two blocks", touches: []string{cBlock}, may: []string{cSpan},
		reason: "a reorder costs two substitutions; when both blocks hold text, the text order changes too (span coverage compares the concatenated text)",
		apply: func(d *bend.Document, i int) bool {
			j := 2 * i
			if j+1 >= len(d.Blocks) {
				return false
			}
			d.Blocks[j], d.Blocks[j+1] = d.Blocks[j+1], d.Blocks[j]
			return true
		},
	},
	{
		name: "drop a block", touches: []string{cBlock, cSpan},
		reason: "a paragraph without marks is dropped: one token and its text are lost; references to it break (a diagnostic), the edge triples do not change",
		apply: func(d *bend.Document, i int) bool {
			return removeBlock(d, nthBlock(d, i, func(b *bend.Block) bool { return b.Kind == bend.KindParagraph && !hasMarks(b) }))
		},
		check: func(t *testing.T, r Result) {
			if r.Text.Deleted == 0 || r.Text.Inserted != 0 {
				t.Errorf("dropped text counted as %+v, want deletion only", r.Text)
			}
			wantDiagnostic(t, r, KindBlockLost)
		},
	},
	{
		name: "change a block id", touches: []string{cBlock}, may: []string{cMark, cEdge},
		reason: "the id is part of the token; marks are keyed by (block id, span id) and link-mark edges have the span as subject, so a block with marks also moves those",
		apply: func(d *bend.Document, i int) bool {
			b := nthBlock(d, i, isKind(bend.KindParagraph))
			if b != nil {
				b.ID += "x"
			}
			return b != nil
		},
		check: func(t *testing.T, r Result) {
			wantDiagnostic(t, r, KindBlockLost)
			wantDiagnostic(t, r, KindBlockAdded)
		},
	},
	{
		name: "change a span id", touches: []string{cBlock},
		reason: "a block's token lists its span ids, so renaming a span (which breaks references to it) is structural drift; a span without marks is chosen",
		apply: func(d *bend.Document, i int) bool {
			b := nthBlock(d, i, func(b *bend.Block) bool { return slices.ContainsFunc(b.Spans, noMarks) })
			if b != nil {
				b.Spans[slices.IndexFunc(b.Spans, noMarks)].ID += "x"
			}
			return b != nil
		},
		check: func(t *testing.T, r Result) {
			wantDiagnostic(t, r, KindSpanLost)
			wantDiagnostic(t, r, KindSpanAdded)
		},
	},
	{
		name: "merge two plain spans", touches: []string{cBlock},
		reason: "the text is unchanged, but the span list of the block is not (spans are the addressable unit, §2.3)",
		apply: func(d *bend.Document, i int) bool {
			b := nthBlock(d, i, func(b *bend.Block) bool { return plainPair(b) >= 0 })
			if b == nil {
				return false
			}
			j := plainPair(b)
			t := *b.Spans[j].Text + *b.Spans[j+1].Text
			b.Spans[j].Text = &t
			b.Spans = slices.Delete(b.Spans, j+1, j+2)
			return true
		},
	},
	{
		name: "drop an edge", touches: []string{cEdge},
		reason: "an explicit edge with a core predicate is removed: one member of E is missing from O",
		apply: func(d *bend.Document, i int) bool {
			j := nthIndex(d.Edges, i, isCoreEdge)
			if j >= 0 {
				d.Edges = slices.Delete(d.Edges, j, j+1)
			}
			return j >= 0
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindEdgeLost) },
	},
	{
		name: "add a spurious edge", touches: []string{cEdge},
		reason: "an edge that is not expected is drift as much as a missing one (§8.4)",
		apply: func(d *bend.Document, i int) bool {
			d.Edges = append(d.Edges, &bend.Edge{Subject: "bend:#" + d.Blocks[0].ID, Predicate: "supports", Object: "https://example.org/spurious/" + strconv.Itoa(i)})
			return true
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindEdgeAdded) },
	},
	{
		name: "change a predicate", touches: []string{cEdge},
		reason: "a core predicate replaced by another core one: the triple differs; vocabulary integrity only watches namespaced predicates",
		apply: func(d *bend.Document, i int) bool {
			j := nthIndex(d.Edges, i, isCoreEdge)
			if j >= 0 {
				d.Edges[j].Predicate = otherCore(d, d.Edges[j])
			}
			return j >= 0
		},
	},
	{
		name: "rewrite a namespaced predicate as core", touches: []string{cVocab, cEdge},
		reason: "the namespaced edge is lost and a core one appears between the same references: vocabulary drift, and edge drift for the changed triple",
		apply: func(d *bend.Document, i int) bool {
			j := nthIndex(d.Edges, i, func(e *bend.Edge) bool { return namespace(e.Predicate) != "" })
			if j >= 0 {
				d.Edges[j].Predicate = otherCore(d, d.Edges[j])
			}
			return j >= 0
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindPredicateRewritten) },
	},
	{
		name: "change the vocabulary", touches: []string{cVocab},
		reason: "a changed vocabulary field is total vocabulary drift (1) and nothing else",
		apply: func(d *bend.Document, i int) bool {
			d.Vocabulary = map[bool]string{true: "bendscript.argument.v1", false: "core"}[d.Vocabulary == "core"]
			return i == 0
		},
		check: func(t *testing.T, r Result) {
			if r.Components.VocabularyIntegrity != 1 {
				t.Errorf("vocabulary_integrity %v, want 1", r.Components.VocabularyIntegrity)
			}
			wantDiagnostic(t, r, KindVocabularyChanged)
		},
	},
	{
		name: "alter unrelated text", touches: []string{cSpan},
		reason: "characters changed in one span: only the text differs",
		apply: func(d *bend.Document, i int) bool {
			s := nthSpan(d, i, func(_ *bend.Block, s *bend.Span) bool { return s.Text != nil && len(*s.Text) > 3 })
			if s != nil {
				t := "Zz~" + *s.Text
				s.Text = &t
			}
			return s != nil
		},
		check: func(t *testing.T, r Result) {
			if r.Text.Inserted != 3 || r.Text.Deleted != 0 {
				t.Errorf("text diff %+v, want 3 characters inserted", r.Text)
			}
			wantDiagnostic(t, r, KindSpanTextChanged)
		},
	},
	{
		name: "change code text", touches: []string{cSpan},
		reason: "a code block's text is part of the document's text",
		apply: func(d *bend.Document, i int) bool {
			b := nthBlock(d, i, isKind(bend.KindCode))
			if b != nil {
				t := *b.Text + "\n// added"
				b.Text = &t
			}
			return b != nil
		},
	},
	{
		name: "drop the title", touches: []string{cSpan},
		reason: "the title is the first line of the text projection; no other component sees it",
		apply: func(d *bend.Document, i int) bool {
			ok := i == 0 && d.Title != nil && *d.Title != ""
			d.Title = nil
			return ok
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindTitleChanged) },
	},
	{
		name: "un-tombstone a span", touches: []string{cSpan},
		reason: "a tombstone's text is empty; giving it text back inserts text, and nothing else changes",
		apply: func(d *bend.Document, i int) bool {
			s := nthSpan(d, i, func(_ *bend.Block, s *bend.Span) bool { return s.Text == nil })
			if s != nil {
				t := "the superseded wording"
				s.Text = &t
			}
			return s != nil
		},
	},
	{
		name: "drop a mark", touches: []string{cMark},
		reason: "a plain mark (bold, italic, code) is formatting only: no edge, no text",
		apply: func(d *bend.Document, i int) bool {
			s := nthSpan(d, i, func(_ *bend.Block, s *bend.Span) bool { return slices.ContainsFunc(s.Marks, isPlain) })
			if s != nil {
				j := slices.IndexFunc(s.Marks, isPlain)
				s.Marks = slices.Delete(s.Marks, j, j+1)
			}
			return s != nil
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindMarkLost) },
	},
	{
		name: "add a mark", touches: []string{cMark},
		reason: "an unrequested italic mark",
		apply: func(d *bend.Document, i int) bool {
			s := nthSpan(d, i, func(_ *bend.Block, s *bend.Span) bool {
				return s.Text != nil && !slices.ContainsFunc(s.Marks, func(m *bend.Mark) bool { return m.Name == "italic" })
			})
			if s != nil {
				s.Marks = append(s.Marks, &bend.Mark{Name: "italic"})
			}
			return s != nil
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindMarkAdded) },
	},
	{
		name: "drop a typed link mark", touches: []string{cMark, cEdge},
		reason: "a typed link is a mark and, expanded, an edge (§2.5.1): both are lost",
		apply: func(d *bend.Document, i int) bool {
			s := nthSpan(d, i, func(_ *bend.Block, s *bend.Span) bool { return slices.ContainsFunc(s.Marks, isTypedLink) })
			if s != nil {
				j := slices.IndexFunc(s.Marks, isTypedLink)
				s.Marks = slices.Delete(s.Marks, j, j+1)
			}
			return s != nil
		},
	},
	{
		name: "type an untyped link as cites", touches: []string{cMark},
		reason: "graph extraction already reads an untyped link as cites (§2.5.1), so the edge set is unchanged; the mark must stay untyped, so mark fidelity sees it",
		apply:  func(d *bend.Document, i int) bool { return typeLink(d, i, "cites") },
	},
	{
		name: "type an untyped link as supports", touches: []string{cMark, cEdge},
		reason: "as above, and the extracted edge changes from cites to supports",
		apply:  func(d *bend.Document, i int) bool { return typeLink(d, i, "supports") },
	},
	{
		name:   "wrap the output in a fence with prose",
		reason: "the document is found in the one fenced block and scored as if bare; the prose is a diagnostic",
		apply:  func(_ *bend.Document, i int) bool { return i == 0 },
		raw: func(d *bend.Document) string {
			return "Here is the modified document:\n\n```json\n" + string(bend.Marshal(d)) + "```\n\nI changed only what was asked.\n"
		},
		check: func(t *testing.T, r Result) {
			if r.Extraction != ExtractionFenced {
				t.Errorf("extraction %q, want fenced", r.Extraction)
			}
			wantDiagnostic(t, r, KindProse)
		},
	},
	{
		name:   "reorder the edges array",
		reason: "edge order is not significant (§3)",
		apply: func(d *bend.Document, i int) bool {
			slices.Reverse(d.Edges)
			return i == 0 && len(d.Edges) > 1
		},
	},
	{
		name:   "copy link-mark edges into edges",
		reason: "the normalized form already holds them (§2.5.1); the copies name the document by its declared id",
		apply: func(d *bend.Document, i int) bool {
			n := len(d.Edges)
			for _, e := range bend.LinkEdges(d) {
				e.Subject = strings.Replace(e.Subject, "bend:#", "bend:"+d.ID+"#", 1)
				d.Edges = append(d.Edges, e)
			}
			return i == 0 && len(d.Edges) > n
		},
	},
	{
		name:   "write self-references with the declared id",
		reason: "bend:<id>#x and bend:#x are the same reference (identity rule)",
		apply: func(d *bend.Document, i int) bool {
			n := 0
			abs := func(s string) string {
				if strings.HasPrefix(s, "bend:#") {
					n++
					return "bend:" + d.ID + s[len("bend:"):]
				}
				return s
			}
			for _, e := range d.Edges {
				e.Subject, e.Object = abs(e.Subject), abs(e.Object)
			}
			return i == 0 && n > 0
		},
	},
	{
		name:   "recompute the id",
		reason: "the harness recomputes ids: a model that updates id (and its self-references) is not penalized",
		apply: func(d *bend.Document, i int) bool {
			id, err := bend.ID(d)
			if err != nil {
				return false
			}
			bend.SetID(d, id)
			return i == 0
		},
		check: func(t *testing.T, r Result) {
			if r.IDStatus != IDRecomputed {
				t.Errorf("id_status %q, want recomputed", r.IDStatus)
			}
		},
	},
	{
		name:   "change document meta",
		reason: "meta is outside identity (§5.1) and outside the drift; it is reported",
		apply: func(d *bend.Document, i int) bool {
			d.Meta = &bend.Value{Kind: bend.Object, Members: []bend.Member{{Key: "note", Value: bend.StringValue("edited")}}}
			return i == 0
		},
		check: func(t *testing.T, r Result) { wantDiagnostic(t, r, KindMetaChanged) },
	},
}

func TestCalibration(t *testing.T) {
	t.Parallel()
	if len(perturbations) < 15 {
		t.Fatalf("%d perturbation kinds, want at least 15", len(perturbations))
	}
	for _, p := range tabletest.Cases(t, perturbations) {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			applied := 0
			for _, tk := range tasks(t) {
				out := tk.Expected.Clone()
				if !p.apply(out, 0) {
					continue
				}
				applied++
				r := score(tk, rawOf(p, out))
				if !r.Valid {
					t.Fatalf("%s: invalid: %s", tk.ID, r.Reason)
				}
				for _, c := range componentNames {
					v := r.Components.named(c)
					switch {
					case slices.Contains(p.touches, c) && v <= 0:
						t.Errorf("%s: %s is %v, want > 0 (%s)", tk.ID, c, v, p.reason)
					case !slices.Contains(p.touches, c) && !slices.Contains(p.may, c) && v != 0:
						t.Errorf("%s: %s is %v, want 0 (%s)", tk.ID, c, v, p.reason)
					}
				}
				if len(p.touches) == 0 && r.Drift != 0 {
					t.Errorf("%s: drift %v, want 0 (%s)", tk.ID, r.Drift, p.reason)
				}
				if p.check != nil {
					p.check(t, r)
				}
			}
			if applied == 0 {
				t.Fatal("applies to no task of the corpus")
			}
			t.Logf("applied to %d tasks", applied)
		})
	}
}

// TestDriftRisesWithRepetition applies each drifting perturbation to the
// first, second and third of its targets in turn: every application must
// raise the drift, unless the components it touches are already 1 (a set
// distance saturates when the expected set is empty: doc.go).
func TestDriftRisesWithRepetition(t *testing.T) {
	t.Parallel()
	for _, p := range tabletest.Cases(t, perturbations) {
		if len(p.touches) == 0 {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			for _, tk := range tasks(t) {
				out := tk.Expected.Clone()
				prev := 0.0
				for i := 0; i < 3 && p.apply(out, i); i++ {
					r := score(tk, rawOf(p, out))
					if r.Drift <= prev && !saturated(r, p.touches) {
						t.Errorf("%s: after %d applications drift %v, not above %v", tk.ID, i+1, r.Drift, prev)
					}
					prev = r.Drift
				}
			}
		})
	}
}

// TestDriftRisesWithKinds applies perturbations of different kinds one after
// another: every one must raise the drift, unless saturated as above.
func TestDriftRisesWithKinds(t *testing.T) {
	t.Parallel()
	kinds := []string{"rename a block kind", "alter unrelated text", "add a spurious edge", "drop a mark", "add a mark", "change the vocabulary", "drop a block", "change a heading level"}
	for _, tk := range tasks(t) {
		out := tk.Expected.Clone()
		prev, n := 0.0, 0
		for _, name := range kinds {
			p := perturbations[slices.IndexFunc(perturbations, func(p perturbation) bool { return p.name == name })]
			if !p.apply(out, 0) {
				continue
			}
			n++
			r := score(tk, rawOf(p, out))
			if r.Drift <= prev && !saturated(r, p.touches) {
				t.Errorf("%s: after %d perturbations (last %q) drift %v, not above %v", tk.ID, n, name, r.Drift, prev)
			}
			prev = r.Drift
		}
		if n < 5 {
			t.Errorf("%s: only %d perturbations applied", tk.ID, n)
		}
	}
}

// saturated reports whether all the given components are 1.
func saturated(r Result, components []string) bool {
	for _, c := range components {
		if r.Components.named(c) != 1 {
			return false
		}
	}
	return true
}

func rawOf(p perturbation, d *bend.Document) string {
	if p.raw != nil {
		return p.raw(d)
	}
	return string(bend.Marshal(d))
}

func wantDiagnostic(t *testing.T, r Result, kind string) {
	t.Helper()
	if !slices.ContainsFunc(r.Diagnostics, func(d Diagnostic) bool { return d.Kind == kind }) {
		t.Errorf("no %s diagnostic in %v", kind, r.Diagnostics)
	}
}

func isKind(k string) func(*bend.Block) bool {
	return func(b *bend.Block) bool { return b.Kind == k }
}

// nthBlock returns the i-th block, in pre-order, that pred accepts.
func nthBlock(d *bend.Document, i int, pred func(*bend.Block) bool) *bend.Block {
	var found *bend.Block
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if pred(b) {
			if i == 0 {
				found = b
			}
			i--
		}
		return found == nil
	})
	return found
}

// nthSpan returns the i-th span, in document order, that pred accepts.
func nthSpan(d *bend.Document, i int, pred func(*bend.Block, *bend.Span) bool) *bend.Span {
	var found *bend.Span
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			if pred(b, s) {
				if i == 0 {
					found = s
					return false
				}
				i--
			}
		}
		return true
	})
	return found
}

// nthIndex returns the index of the i-th element that pred accepts, or -1.
func nthIndex[T any](xs []T, i int, pred func(T) bool) int {
	for j, x := range xs {
		if pred(x) {
			if i == 0 {
				return j
			}
			i--
		}
	}
	return -1
}

// removeBlock removes target from wherever it is in the tree.
func removeBlock(d *bend.Document, target *bend.Block) bool {
	var rm func(list *[]*bend.Block) bool
	rm = func(list *[]*bend.Block) bool {
		for i, b := range *list {
			if b == target {
				*list = slices.Delete(*list, i, i+1)
				return true
			}
			if rm(&b.Items) || rm(&b.Blocks) {
				return true
			}
		}
		return false
	}
	return target != nil && rm(&d.Blocks)
}

func hasMarks(b *bend.Block) bool {
	return slices.ContainsFunc(b.Spans, func(s *bend.Span) bool { return len(s.Marks) > 0 })
}

func noMarks(s *bend.Span) bool { return len(s.Marks) == 0 }

// plainPair returns the index of the first of two adjacent spans of b that
// both have text and no marks, or -1.
func plainPair(b *bend.Block) int {
	for j := 0; j+1 < len(b.Spans); j++ {
		x, y := b.Spans[j], b.Spans[j+1]
		if noMarks(x) && noMarks(y) && x.Text != nil && y.Text != nil {
			return j
		}
	}
	return -1
}

func isCoreEdge(e *bend.Edge) bool { return bend.IsCorePredicate(e.Predicate) }

func isPlain(m *bend.Mark) bool { return m.Link == nil && m.Raw == nil }

func isTypedLink(m *bend.Mark) bool { return m.Link != nil && m.Link.Predicate != nil }

func isUntypedLink(m *bend.Mark) bool { return m.Link != nil && m.Link.Predicate == nil }

func typeLink(d *bend.Document, i int, pred string) bool {
	s := nthSpan(d, i, func(_ *bend.Block, s *bend.Span) bool { return slices.ContainsFunc(s.Marks, isUntypedLink) })
	if s == nil {
		return false
	}
	s.Marks[slices.IndexFunc(s.Marks, isUntypedLink)].Link.Predicate = &pred
	return true
}

// otherCore returns a core predicate other than e's that no edge of d
// already has between e's subject and object.
func otherCore(d *bend.Document, e *bend.Edge) string {
	for _, p := range bend.CorePredicates {
		if p != e.Predicate && !slices.ContainsFunc(d.Edges, func(x *bend.Edge) bool {
			return x.Subject == e.Subject && x.Object == e.Object && x.Predicate == p
		}) {
			return p
		}
	}
	panic("no free core predicate")
}
