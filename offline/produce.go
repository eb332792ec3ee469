package offline

import (
	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/task"
)

// slipsOf are offline/noisy's mistakes for the task classes that make
// their own; every other class makes perturbations'. Class P (writing the
// .bend JSON of a text projection) loses what a projection reader
// typically loses: a span's boundary, a link's predicate, an entry of the
// edge list, an edge's meta. (Class R's slips are the projection format's
// own, formats.Format.Slip, made on the text it writes.)
var slipsOf = map[string][]perturbation{
	task.ClassP: {
		{"two adjacent spans merged", mergeSpans},
		{"a typed link written as a plain one", untypeLink},
		{"an edge dropped", dropEdge},
		{"an edge's meta lost", dropEdgeMeta},
	},
}

// mergeSpans joins a span with the next one of its block: the text of
// both under the first one's id and marks.
func mergeSpans(d *bend.Document, r rng) bool {
	var blocks []*bend.Block
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if len(b.Spans) >= 2 {
			blocks = append(blocks, b)
		}
		return true
	})
	if len(blocks) == 0 {
		return false
	}
	b := blocks[r.IntN(len(blocks))]
	i := r.IntN(len(b.Spans) - 1)
	a, next := b.Spans[i], b.Spans[i+1]
	if a.Text == nil || next.Text == nil {
		return false
	}
	text := *a.Text + *next.Text
	a.Text = &text
	b.Spans = append(b.Spans[:i+1:i+1], b.Spans[i+2:]...)
	return true
}

// untypeLink drops the predicate of a typed link mark.
func untypeLink(d *bend.Document, r rng) bool {
	var links []*bend.Link
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			for _, m := range s.Marks {
				if m.Link != nil && m.Link.Predicate != nil {
					links = append(links, m.Link)
				}
			}
		}
		return true
	})
	if len(links) == 0 {
		return false
	}
	links[r.IntN(len(links))].Predicate = nil
	return true
}

// dropEdgeMeta drops the meta of an edge that has one.
func dropEdgeMeta(d *bend.Document, r rng) bool {
	var with []*bend.Edge
	for _, e := range d.Edges {
		if e.Meta != nil {
			with = append(with, e)
		}
	}
	if len(with) == 0 {
		return false
	}
	with[r.IntN(len(with))].Meta = nil
	return true
}
