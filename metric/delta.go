package metric

import (
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/bend"
)

// Counts counts content in the metric's units: blocks (at every depth),
// spans, marks and edges.
type Counts struct {
	Blocks int `json:"blocks"`
	Spans  int `json:"spans"`
	Marks  int `json:"marks"`
	Edges  int `json:"edges"`
}

// Total is the sum of the counts.
func (c Counts) Total() int { return c.Blocks + c.Spans + c.Marks + c.Edges }

// Add returns c + d.
func (c Counts) Add(d Counts) Counts {
	return Counts{c.Blocks + d.Blocks, c.Spans + d.Spans, c.Marks + d.Marks, c.Edges + d.Edges}
}

// Delta is where an output differs from the expected document, by kind of
// loss (the harness's own, issue 48; not part of drift): content deleted
// (in the expected document, missing from the output), corrupted (present
// under the same id, or for an edge the same subject, predicate and
// object, but changed) and added (in the output, not asked for). A block
// is matched by id at any depth and is corrupted when its kind, attributes,
// parent or own text differ, or the ids of its spans or children are
// reordered; a span by its block and id, corrupted when its text differs;
// a mark is compared on the spans present in both, as a multiset (a
// changed mark is one deleted and one added); an edge is corrupted when
// its meta differs. The content of a deleted block (its spans, their
// marks) counts once, as the block.
type Delta struct {
	Deleted   Counts `json:"deleted"`
	Corrupted Counts `json:"corrupted"`
	Added     Counts `json:"added"`
}

// Total is every difference counted: deleted + corrupted + added.
func (d Delta) Total() int { return d.Deleted.Total() + d.Corrupted.Total() + d.Added.Total() }

// DeltaOf is the delta of got against want.
func DeltaOf(want, got *bend.Document) Delta {
	var d Delta
	wb, gb := deltaFlat(want), deltaFlat(got)
	for _, id := range wb.order {
		w, g := wb.at[id], gb.at[id]
		if g == nil {
			d.Deleted.Blocks++
			continue
		}
		if deltaShape(w) != deltaShape(g) {
			d.Corrupted.Blocks++
		}
		ws, gs := deltaSpansOf(w.block), deltaSpansOf(g.block)
		for _, sid := range ws.order {
			x, y := ws.at[sid], gs.at[sid]
			if y == nil {
				d.Deleted.Spans++
				continue
			}
			if deltaText(x) != deltaText(y) {
				d.Corrupted.Spans++
			}
			del, add := deltaMarks(x, y)
			d.Deleted.Marks += del
			d.Added.Marks += add
		}
		for _, sid := range gs.order {
			if ws.at[sid] == nil {
				d.Added.Spans++
			}
		}
	}
	for _, id := range gb.order {
		if wb.at[id] == nil {
			d.Added.Blocks++
		}
	}
	we, ge := deltaEdges(want), deltaEdges(got)
	for k, m := range we {
		gm, ok := ge[k]
		switch {
		case !ok:
			d.Deleted.Edges++
		case gm != m:
			d.Corrupted.Edges++
		}
	}
	for k := range ge {
		if _, ok := we[k]; !ok {
			d.Added.Edges++
		}
	}
	return d
}

type deltaBlock struct {
	block  *bend.Block
	parent string
}

type deltaBlocks struct {
	at    map[string]*deltaBlock
	order []string
}

func deltaFlat(doc *bend.Document) deltaBlocks {
	ix := deltaBlocks{at: map[string]*deltaBlock{}}
	var walk func(parent string, bs []*bend.Block)
	walk = func(parent string, bs []*bend.Block) {
		for _, b := range bs {
			if b == nil {
				continue
			}
			if _, seen := ix.at[b.ID]; !seen {
				ix.at[b.ID] = &deltaBlock{b, parent}
				ix.order = append(ix.order, b.ID)
			}
			walk(b.ID, b.Items)
			walk(b.ID, b.Blocks)
		}
	}
	if doc != nil {
		walk("", doc.Blocks)
	}
	return ix
}

// deltaShape is what makes a block the same block apart from its spans'
// text and marks: kind, attributes, parent, own text and the order of its
// spans' and children's ids.
func deltaShape(p *deltaBlock) string {
	b := p.block
	var spans, kids []string
	for _, s := range b.Spans {
		if s != nil {
			spans = append(spans, s.ID)
		}
	}
	for _, c := range slices.Concat(b.Items, b.Blocks) {
		if c != nil {
			kids = append(kids, c.ID)
		}
	}
	return fmt.Sprintf("%s|%s|%v|%v|%v|%v|%v|%q|%q", p.parent, b.Kind, deltaDeref(b.Level), deltaDeref(b.Ordered), deltaDeref(b.Language), deltaDeref(b.Target), deltaDeref(b.Text), spans, kids)
}

func deltaDeref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

type deltaSpans struct {
	at    map[string]*bend.Span
	order []string
}

func deltaSpansOf(b *bend.Block) deltaSpans {
	ix := deltaSpans{at: map[string]*bend.Span{}}
	for _, s := range b.Spans {
		if s == nil {
			continue
		}
		if _, seen := ix.at[s.ID]; !seen {
			ix.at[s.ID] = s
			ix.order = append(ix.order, s.ID)
		}
	}
	return ix
}

func deltaText(s *bend.Span) any { return deltaDeref(s.Text) }

// deltaMarks counts the marks of want's span missing from got's (deleted)
// and those of got's not in want's (added), as multisets.
func deltaMarks(want, got *bend.Span) (deleted, added int) {
	n := map[string]int{}
	for _, m := range want.Marks {
		n[deltaMarkKey(m)]++
	}
	for _, m := range got.Marks {
		k := deltaMarkKey(m)
		if n[k] > 0 {
			n[k]--
		} else {
			added++
		}
	}
	for _, c := range n {
		deleted += c
	}
	return deleted, added
}

func deltaMarkKey(m *bend.Mark) string {
	if m == nil {
		return ""
	}
	if m.Link != nil {
		return fmt.Sprintf("link %q %v", m.Link.Target, deltaDeref(m.Link.Predicate))
	}
	return m.Name
}

// deltaEdges maps each edge (subject, predicate, object) to its meta as
// JSON; a repeated edge counts once.
func deltaEdges(doc *bend.Document) map[[3]string]string {
	out := map[[3]string]string{}
	if doc == nil {
		return out
	}
	for _, e := range doc.Edges {
		if e == nil {
			continue
		}
		k := [3]string{e.Subject, e.Predicate, e.Object}
		if _, seen := out[k]; seen {
			continue
		}
		meta := ""
		if e.Meta != nil {
			// canonical (RFC 8785), so member order is no change
			if c, err := bend.CanonicalValue(e.Meta); err == nil {
				meta = string(c)
			} else {
				meta = string(bend.MarshalValue(e.Meta))
			}
		}
		out[k] = meta
	}
	return out
}
