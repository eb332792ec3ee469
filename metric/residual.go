package metric

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"bendscript.com/round-trip-harness/bend"
)

// factSet is a multiset of facts, each "path = canonical value".
type factSet map[string]int

// residual computes the sixth component (doc.go, "Residual"): the
// multiset distance between the facts the five components do not read in
// the expected document and in the output. It returns the value and, per
// differing fact, a diagnostic detail.
func residual(exp, out *bend.Document, relExp, relOut func(string) string) (float64, []string) {
	spans := commonSpans(exp, out)
	links := commonLinks(exp, out, relExp, relOut)
	triples := commonTriples(exp, out, relExp, relOut)
	fe := facts(exp, relExp, spans, links, triples)
	fo := facts(out, relOut, spans, links, triples)
	var diff, union int
	var details []string
	for _, k := range slices.Sorted(maps.Keys(unionKeys(fe, fo))) {
		a, b := fe[k], fo[k]
		diff += abs(a - b)
		union += max(a, b)
		switch {
		case a > b:
			details = append(details, fmt.Sprintf("lost: %s (expected ×%d, output ×%d)", cut(k), a, b))
		case b > a:
			details = append(details, fmt.Sprintf("added: %s (expected ×%d, output ×%d)", cut(k), a, b))
		}
	}
	if union == 0 {
		return 0, nil
	}
	return float64(diff) / float64(union), details
}

func unionKeys(a, b factSet) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// facts returns F(d): the bendscript version, the leaves of the document's
// meta and unknown members, and, for the spans, link marks and edge triples
// both documents have, the leaves of their unknown members and edge meta,
// and one fact per extra copy of an edge.
func facts(d *bend.Document, rel func(string) string, spans, links, triples map[string]bool) factSet {
	f := factSet{}
	f["/bendscript = "+strconv.Quote(d.Bendscript)]++
	f.leaves("/meta", d.Meta)
	f.members("", d.Extra)
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			key := b.ID + "." + s.ID
			if !spans[key] {
				continue
			}
			f.members("span "+key, s.Extra)
			for _, m := range s.Marks {
				if m.Link == nil {
					continue
				}
				if lk := linkKey(key, m.Link, rel); links[lk] {
					f.members(lk, m.Link.Extra)
				}
			}
		}
		return true
	})
	seen := map[string]bool{}
	for _, e := range d.Edges {
		t := edgeKey{rel(e.Subject), e.Predicate, rel(e.Object)}.String()
		if !triples[t] {
			continue
		}
		if seen[t] {
			f["edge "+t+": an extra copy"]++
		}
		seen[t] = true
		f.leaves("edge "+t+" /meta", e.Meta)
		f.members("edge "+t+" ", e.Extra)
	}
	return f
}

// members adds the leaves of each member under prefix/name.
func (f factSet) members(prefix string, ms []bend.Member) {
	for _, m := range ms {
		f.leaves(prefix+"/"+bend.EscapePointer(m.Key), m.Value)
	}
}

// leaves adds one fact per leaf of v: a scalar, or an empty object or
// array, each with its pointer below path.
func (f factSet) leaves(path string, v *bend.Value) {
	switch {
	case v == nil:
	case v.Kind == bend.Object && len(v.Members) > 0:
		f.members(path, v.Members)
	case v.Kind == bend.Array && len(v.Elems) > 0:
		for i, e := range v.Elems {
			f.leaves(path+"/"+strconv.Itoa(i), e)
		}
	default:
		f[path+" = "+canon(v)]++
	}
}

// commonSpans returns the block.span keys present in both documents.
func commonSpans(a, b *bend.Document) map[string]bool {
	in := func(d *bend.Document) map[string]bool {
		m := map[string]bool{}
		d.Walk(func(bl *bend.Block, _ int, _ string) bool {
			for _, s := range bl.Spans {
				m[bl.ID+"."+s.ID] = true
			}
			return true
		})
		return m
	}
	return intersect(in(a), in(b))
}

// linkKey names a link mark by its span, relative target and predicate.
func linkKey(span string, l *bend.Link, rel func(string) string) string {
	p := "untyped"
	if l.Predicate != nil {
		p = strconv.Quote(*l.Predicate)
	}
	return "link " + span + " → " + strconv.Quote(rel(l.Target)) + " " + p
}

// commonLinks returns the link-mark keys present in both documents.
func commonLinks(a, b *bend.Document, relA, relB func(string) string) map[string]bool {
	in := func(d *bend.Document, rel func(string) string) map[string]bool {
		m := map[string]bool{}
		d.Walk(func(bl *bend.Block, _ int, _ string) bool {
			for _, s := range bl.Spans {
				for _, mk := range s.Marks {
					if mk.Link != nil {
						m[linkKey(bl.ID+"."+s.ID, mk.Link, rel)] = true
					}
				}
			}
			return true
		})
		return m
	}
	return intersect(in(a, relA), in(b, relB))
}

// commonTriples returns the explicit edges' relative triples present in
// both documents.
func commonTriples(a, b *bend.Document, relA, relB func(string) string) map[string]bool {
	in := func(d *bend.Document, rel func(string) string) map[string]bool {
		m := map[string]bool{}
		for _, e := range d.Edges {
			m[edgeKey{rel(e.Subject), e.Predicate, rel(e.Object)}.String()] = true
		}
		return m
	}
	return intersect(in(a, relA), in(b, relB))
}

func intersect(a, b map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}
