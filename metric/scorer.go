package metric

import (
	"fmt"
	"slices"
	"strconv"

	"bendscript.com/round-trip-harness/bend"
)

// scorer compares one output document with the expected document.
type scorer struct {
	src, exp, out *bend.Document
	// relExp and relOut make self-references relative: a reference naming
	// the expected (= source) document's id, or for the output also its own
	// declared id, is the document itself (docs/interpretations.md).
	relExp, relOut func(string) string

	lev                   levStats
	gExp, gOut            *graph
	edgesLost, edgesAdded []edgeKey
	marksLost, marksAdded []markKey
	rewritten             []edgeKey
}

func newScorer(src, exp, out *bend.Document) *scorer {
	return &scorer{
		src: src, exp: exp, out: out,
		relExp: func(s string) string { return bend.RelativeTo(s, exp.ID, src.ID) },
		relOut: func(s string) string { return bend.RelativeTo(s, out.ID, src.ID, exp.ID) },
	}
}

// components computes the five components and keeps what the diagnostics
// need.
func (s *scorer) components() (Components, textStats) {
	var c Components
	c.BlockStructure, s.lev = blockStructure(blockTokens(s.exp, s.relExp), blockTokens(s.out, s.relOut))
	s.gExp, s.gOut = newGraph(s.exp, s.relExp), newGraph(s.out, s.relOut)
	c.EdgePreservation, s.edgesLost, s.edgesAdded = jaccardDistance(s.gExp.edges, s.gOut.edges)
	c.MarkFidelity, s.marksLost, s.marksAdded = jaccardDistance(s.gExp.marks, s.gOut.marks)
	c.VocabularyIntegrity, s.rewritten = vocabularyIntegrity(s.exp.Vocabulary, s.out.Vocabulary, s.gExp, s.gOut)
	var td textStats
	c.SpanCoverage, td = spanCoverage(textProjection(s.exp), textProjection(s.out))
	return c, td
}

// result turns the diff statistics into the report's numbers.
func (t textStats) result() *TextDiff {
	r := &TextDiff{ExpectedLength: t.expLen, OutputLength: t.outLen, Deleted: t.deleted, Inserted: t.inserted}
	if t.expLen > 0 {
		r.DeletedFraction = float64(t.deleted) / float64(t.expLen)
	}
	if t.outLen > 0 {
		r.InsertedFraction = float64(t.inserted) / float64(t.outLen)
	}
	return r
}

// beyond computes what the harness adds beside the five components:
// lossless, the residual component and the unrequested changes, into r,
// and returns their diagnostics.
func (s *scorer) beyond(r *Result) diagList {
	var l diagList
	relExp, relOut := losslessRel(s.src, s.exp)
	diffs, more := losslessDiff(s.exp, s.out, relExp, relOut)
	r.Lossless = r.SchemaValid && len(diffs) == 0
	for _, d := range diffs {
		l.add(KindNotLossless, d)
	}
	if more {
		l.add(KindNotLossless, fmt.Sprintf("(only the first %d differences are listed)", MaxDifferences))
	}
	if !r.SchemaValid {
		l.add(KindNotLossless, "the output fails validation: a document a conformant processor rejects is not a round trip")
	}
	var facts []string
	r.Residual, facts = residual(s.exp, s.out, s.relExp, s.relOut)
	for _, f := range facts {
		l.add(KindResidual, f)
	}
	relSrc := func(x string) string { return bend.Relative(x, s.src.ID) }
	changes := unrequested(s.src, s.exp, s.out, relSrc, s.relExp, s.relOut)
	n := len(changes)
	r.UnrequestedChanges = &n
	for _, c := range changes {
		l.add(KindUnrequested, c)
	}
	return l
}

// diagnostics lists the findings beside the components, after those of
// beyond (l).
func (s *scorer) diagnostics(td textStats, idStatus string, l diagList) []Diagnostic {
	s.blockDiagnostics(&l)
	for _, k := range s.edgesLost {
		l.add(KindEdgeLost, k.String())
	}
	for _, k := range s.edgesAdded {
		l.add(KindEdgeAdded, k.String())
	}
	for k, metas := range s.gExp.edges {
		if out, ok := s.gOut.edges[k]; ok && !slices.Equal(metas, out) {
			l.add(KindEdgeMetaChanged, k.String())
		}
	}
	for _, k := range s.marksLost {
		l.add(KindMarkLost, k.String())
	}
	for _, k := range s.marksAdded {
		l.add(KindMarkAdded, k.String())
	}
	for _, k := range s.rewritten {
		l.add(KindPredicateRewritten, k.String())
	}
	if s.exp.Vocabulary != s.out.Vocabulary {
		l.add(KindVocabularyChanged, fmt.Sprintf("%q → %q", s.exp.Vocabulary, s.out.Vocabulary))
	}
	brokenReferences(s.out, []string{s.out.ID, s.src.ID, s.exp.ID}, &l)
	switch idStatus {
	case IDChanged:
		l.add(KindIDChanged, fmt.Sprintf("declared %q; the source declares %q and the output's content id differs", s.out.ID, s.src.ID))
	case IDMissing:
		l.add(KindIDMissing, "the output declares no id")
	}
	if canonical(s.exp.Meta) != canonical(s.out.Meta) {
		l.add(KindMetaChanged, "document meta differs from the expected (no component compares it)")
	}
	if !equalPtr(s.exp.Title, s.out.Title) {
		l.add(KindTitleChanged, quotePtr(s.exp.Title)+" → "+quotePtr(s.out.Title))
	}
	if s.lev.bounded > 0 {
		l.add(KindWorkBound, fmt.Sprintf("block_structure: %d blocks charged as replaced without an exact alignment", s.lev.bounded))
	}
	if td.bounded > 0 {
		l.add(KindWorkBound, fmt.Sprintf("span_coverage: %d characters charged as replaced without a character diff", td.bounded))
	}
	return l.sorted()
}

// blockDiagnostics lists blocks lost, added or of another kind, and, in
// blocks present on both sides, spans lost, added or with other text.
func (s *scorer) blockDiagnostics(l *diagList) {
	exp, out := blockIndex(s.exp), blockIndex(s.out)
	for id, b := range exp {
		o, ok := out[id]
		if !ok {
			l.add(KindBlockLost, id)
			continue
		}
		if b.Kind != o.Kind {
			l.add(KindBlockKindChanged, fmt.Sprintf("%s: %q → %q", id, b.Kind, o.Kind))
		}
		spans := make(map[string]*bend.Span, len(o.Spans))
		for _, sp := range o.Spans {
			spans[sp.ID] = sp
		}
		for _, sp := range b.Spans {
			switch osp, ok := spans[sp.ID]; {
			case !ok:
				l.add(KindSpanLost, id+"."+sp.ID)
			case !equalPtr(sp.Text, osp.Text):
				l.add(KindSpanTextChanged, id+"."+sp.ID)
			}
		}
		for _, sp := range o.Spans {
			if b.FindSpan(sp.ID) == nil {
				l.add(KindSpanAdded, id+"."+sp.ID)
			}
		}
	}
	for id := range out {
		if _, ok := exp[id]; !ok {
			l.add(KindBlockAdded, id)
		}
	}
}

// blockIndex maps each block id to its first block.
func blockIndex(d *bend.Document) map[string]*bend.Block {
	m := make(map[string]*bend.Block)
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if _, dup := m[b.ID]; !dup {
			m[b.ID] = b
		}
		return true
	})
	return m
}

// brokenReferences lists the references of d into d itself (relative, or
// naming one of self) whose block or span does not exist (§6.4 "broken").
func brokenReferences(d *bend.Document, self []string, l *diagList) {
	spans := make(map[string]map[string]bool)
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		set := spans[b.ID]
		if set == nil {
			set = make(map[string]bool)
			spans[b.ID] = set
		}
		for _, s := range b.Spans {
			set[s.ID] = true
		}
		return true
	})
	check := func(ref, ptr string) {
		r, ok := bend.ParseRef(ref)
		if !ok || !r.Bend || r.Block == "" || !(r.Doc == "" || slices.Contains(self, r.Doc)) {
			return
		}
		switch set, ok := spans[r.Block]; {
		case !ok:
			l.add(KindBrokenReference, fmt.Sprintf("%s: %s (no block %s)", ptr, ref, r.Block))
		case r.Span != "" && !set[r.Span]:
			l.add(KindBrokenReference, fmt.Sprintf("%s: %s (block %s has no span %s)", ptr, ref, r.Block, r.Span))
		}
	}
	d.Walk(func(b *bend.Block, _ int, ptr string) bool {
		if b.Target != nil {
			check(*b.Target, ptr+"/target")
		}
		for i, s := range b.Spans {
			for j, m := range s.Marks {
				if m.Link != nil {
					check(m.Link.Target, ptr+"/spans/"+strconv.Itoa(i)+"/marks/"+strconv.Itoa(j)+"/target")
				}
			}
		}
		return true
	})
	for i, e := range d.Edges {
		p := "/edges/" + strconv.Itoa(i)
		check(e.Subject, p+"/subject")
		check(e.Object, p+"/object")
	}
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func quotePtr(s *string) string {
	if s == nil {
		return "(none)"
	}
	return strconv.Quote(*s)
}
