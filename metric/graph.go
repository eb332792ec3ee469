package metric

import (
	"sort"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// edgeKey identifies an edge for edge preservation: subject, predicate and
// object, with self-references made relative.
type edgeKey struct{ s, p, o string }

func (k edgeKey) String() string { return k.s + " " + k.p + " " + k.o }

// markKey identifies a mark for mark fidelity: its block and span, and the
// mark: a plain mark's name; for a link, "link", its target (self-references
// relative) and its predicate or its absence; for an invalid mark, its
// canonical JSON.
type markKey struct {
	block, span, mark string
	target, pred      string
	typed             bool
}

func (k markKey) String() string {
	m := k.mark
	if m == "link" {
		p := "untyped"
		if k.typed {
			p = "predicate=" + strconv.Quote(k.pred)
		}
		m = "link(target=" + strconv.Quote(k.target) + " " + p + ")"
	}
	return k.block + "." + k.span + " " + m
}

// graph is the normalized edge set and the mark set of a document.
type graph struct {
	// edges maps each edge to the canonical JSON of the meta of each of
	// its occurrences (sorted; "" for none), for the edge-meta diagnostic.
	edges map[edgeKey][]string
	marks map[markKey]bool
}

// newGraph reads d's edges and marks. The edge set is the normalized form
// (§2.5.1): the explicit edges and one edge per link mark, subject the span,
// object the target, predicate the mark's, or "cites" for an untyped link,
// which §2.5.1 says graph extraction should assume.
func newGraph(d *bend.Document, rel func(string) string) *graph {
	g := &graph{edges: make(map[edgeKey][]string, len(d.Edges)), marks: make(map[markKey]bool)}
	for _, e := range d.Edges {
		k := edgeKey{rel(e.Subject), e.Predicate, rel(e.Object)}
		g.edges[k] = append(g.edges[k], canonical(e.Meta))
	}
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			for _, m := range s.Marks {
				k := markKey{block: b.ID, span: s.ID, mark: m.Name}
				switch {
				case m.Raw != nil:
					k.mark = canonical(m.Raw)
				case m.Link != nil:
					k.mark, k.target = "link", rel(m.Link.Target)
					k.pred, k.typed = "cites", m.Link.Predicate != nil
					if k.typed {
						k.pred = *m.Link.Predicate
					}
					ek := edgeKey{bend.SpanRef(b.ID, s.ID), k.pred, k.target}
					g.edges[ek] = append(g.edges[ek], "")
				}
				g.marks[k] = true
			}
		}
		return true
	})
	for _, metas := range g.edges {
		sort.Strings(metas)
	}
	return g
}

// jaccardDistance returns |E △ O| / |E ∪ O| (0 when both are empty), with
// the members of E not in O and of O not in E.
func jaccardDistance[K comparable, V any](e, o map[K]V) (d float64, lost, added []K) {
	for k := range e {
		if _, ok := o[k]; !ok {
			lost = append(lost, k)
		}
	}
	for k := range o {
		if _, ok := e[k]; !ok {
			added = append(added, k)
		}
	}
	union := len(e) + len(added)
	if union == 0 {
		return 0, lost, added
	}
	return float64(len(lost)+len(added)) / float64(union), lost, added
}

// namespace returns the vocabulary part of a namespaced predicate
// (bendscript.argument.v1 of bendscript.argument.v1:rebuts), or "" for a
// core (bare) predicate.
func namespace(p string) string {
	ns, _, ok := strings.Cut(p, ":")
	if !ok {
		return ""
	}
	return ns
}

// vocabularyIntegrity is 1 when the vocabulary field changed; otherwise the
// fraction of the expected edges with a namespaced predicate that the output
// rewrote: it lacks the edge but has a new one (not in the expected set)
// with the same subject and object whose predicate is outside that namespace
// (core, or another vocabulary).
// It returns the rewritten edges too.
func vocabularyIntegrity(expVocab, outVocab string, e, o *graph) (float64, []edgeKey) {
	if expVocab != outVocab {
		return 1, nil
	}
	type pair struct{ s, o string }
	var outPreds map[pair][]string
	total := 0
	var rewritten []edgeKey
	for k := range e.edges {
		ns := namespace(k.p)
		if ns == "" {
			continue
		}
		total++
		if _, kept := o.edges[k]; kept {
			continue
		}
		if outPreds == nil {
			outPreds = make(map[pair][]string)
			for ok := range o.edges {
				outPreds[pair{ok.s, ok.o}] = append(outPreds[pair{ok.s, ok.o}], ok.p)
			}
		}
		for _, p := range outPreds[pair{k.s, k.o}] {
			if _, old := e.edges[edgeKey{k.s, p, k.o}]; !old && namespace(p) != ns {
				rewritten = append(rewritten, k)
				break
			}
		}
	}
	if total == 0 {
		return 0, nil
	}
	return float64(len(rewritten)) / float64(total), rewritten
}

// canonical is v's RFC 8785 form (canon), "" for nil, so that values equal
// as JSON compare equal whatever their member order or number spelling.
func canonical(v *bend.Value) string {
	if v == nil {
		return ""
	}
	return canon(v)
}
