package edit

import (
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/bend"
)

// Result says whether one operation of a gold edit holds in an output.
type Result struct {
	Op     string `json:"op"`
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"` // why not, when !OK
}

// Check reports, for each operation, whether output carries it out. sourceID
// is the declared id of the source document: a model is told to leave the id
// as it is, so self-references in the output may name either that id or the
// output's own declared id, or be relative; all three count as the document
// itself.
func Check(output *bend.Document, sourceID string, ops []*Op) []Result {
	c := &checker{out: output, self: []string{output.ID, sourceID}, edges: bend.LinkEdges(output)}
	c.edges = append(c.edges, output.Edges...)
	res := make([]Result, len(ops))
	for i, op := range ops {
		var reason string
		if op.Name != RemoveBlock || !putBack(op.Block, ops[i+1:]) {
			reason = c.check(op)
		}
		res[i] = Result{Op: op.Name, OK: reason == "", Reason: reason}
	}
	return res
}

// putBack reports whether one of the later operations of an edit inserts
// a block with the given id again (as the block it inserts or inside it):
// a remove_block followed by such an insert_block is how the operation set
// moves a block or changes what no operation changes (a list's "ordered",
// a block's nesting), as the bend-ops format tells a model to write it, so
// the remove holds when the insert does, which its own check decides.
func putBack(id string, later []*Op) bool {
	var holds func(b *bend.Block) bool
	holds = func(b *bend.Block) bool {
		return b.ID == id || slices.ContainsFunc(b.Children(), holds)
	}
	return slices.ContainsFunc(later, func(op *Op) bool { return op.Name == InsertBlock && holds(op.NewBlock) })
}

// Compliance summarizes check results: whether all hold, and the fraction
// that do (1 for an empty edit).
func Compliance(res []Result) (applied bool, fraction float64) {
	if len(res) == 0 {
		return true, 1
	}
	ok := 0
	for _, r := range res {
		if r.OK {
			ok++
		}
	}
	return ok == len(res), float64(ok) / float64(len(res))
}

type checker struct {
	out   *bend.Document
	self  []string
	edges []*bend.Edge // explicit and link-mark edges of the output
}

func (c *checker) rel(s string) string { return bend.RelativeTo(s, c.self...) }

// check returns "" when op holds, or the reason it does not.
func (c *checker) check(op *Op) string {
	k := kindOf(op.Name)
	a, err := locate(c.out, op, k.checkScope)
	if err != nil {
		return err.Error()
	}
	return k.check(c, a, op)
}

// superseded says why a supersede_span does not hold in block b of the
// output.
func (c *checker) superseded(b *bend.Block, op *Op) string {
	if r := c.insertedSpan(b, op.Span, op.NewSpan); r != "" {
		if b.FindSpan(op.Span) != nil || b.FindSpan(op.NewSpan.ID) == nil {
			return r
		}
		// The old span may be removed entirely (§5.3); then the new
		// span only has to exist with its text.
		if ns := b.FindSpan(op.NewSpan.ID); !sameSpanContent(ns, op.NewSpan, c.self) {
			return fmt.Sprintf("span %q differs from the requested one", op.NewSpan.ID)
		}
	}
	if old := b.FindSpan(op.Span); old != nil && (old.Text != nil || len(old.Marks) > 0) {
		return fmt.Sprintf("span %q is neither a tombstone nor removed", op.Span)
	}
	if !c.hasEdge(supersedes(op), false) {
		return "no supersedes edge from the new span to the old one"
	}
	return ""
}

func (c *checker) sameMark(out, want *bend.Mark) bool {
	if out.Link != nil && want.Link != nil {
		return c.rel(out.Link.Target) == c.rel(want.Link.Target) && equalPtr(out.Link.Predicate, want.Link.Predicate)
	}
	return sameMark(out, want, "", "")
}

// hasEdge looks for an edge with the same subject, predicate and object
// (and, when withMeta and the wanted edge has meta, equal meta).
func (c *checker) hasEdge(want *bend.Edge, withMeta bool) bool {
	return slices.ContainsFunc(c.edges, func(e *bend.Edge) bool { return c.sameEdge(e, want, withMeta) })
}

// sameEdge compares subject, predicate and object (and, when withMeta and
// want has meta, meta).
func (c *checker) sameEdge(e, want *bend.Edge, withMeta bool) bool {
	if e.Predicate != want.Predicate || c.rel(e.Subject) != c.rel(want.Subject) || c.rel(e.Object) != c.rel(want.Object) {
		return false
	}
	return !withMeta || want.Meta == nil || canonical(e.Meta) == canonical(want.Meta)
}

func (c *checker) insertedBlock(op *Op) string {
	var list []*bend.Block
	idx := -1
	var parent *bend.Block // nil: the top level
	inItems := false       // whether list is parent's items rather than its blocks
	var find func(p *bend.Block, bs []*bend.Block, items bool) bool
	find = func(p *bend.Block, bs []*bend.Block, items bool) bool {
		for i, b := range bs {
			if b.ID == op.NewBlock.ID {
				list, idx, parent, inItems = bs, i, p, items
				return true
			}
			if find(b, b.Items, true) || find(b, b.Blocks, false) {
				return true
			}
		}
		return false
	}
	if !find(nil, c.out.Blocks, false) {
		return fmt.Sprintf("no block %q", op.NewBlock.ID)
	}
	if op.After == "" {
		if r := firstChild(op, idx, parent, inItems); r != "" {
			return r
		}
	} else if idx == 0 || list[idx-1].ID != op.After {
		return fmt.Sprintf("block %q is not right after %q", op.NewBlock.ID, op.After)
	}
	if canonical(c.relBlock(list[idx]).Value()) != canonical(c.relBlock(op.NewBlock).Value()) {
		return fmt.Sprintf("block %q differs from the requested block", op.NewBlock.ID)
	}
	return ""
}

// firstChild says why a block found at index idx of parent's items or
// blocks (nil parent: the top level) is not where an insert_block with
// "after": "" puts it: first among the top-level blocks, the items of a list
// parent, or the blocks of any other parent.
func firstChild(op *Op, idx int, parent *bend.Block, inItems bool) string {
	where := "the top level"
	if op.Parent != "" {
		where = fmt.Sprintf("block %q", op.Parent)
	}
	switch {
	case parent == nil && op.Parent != "", parent != nil && parent.ID != op.Parent:
		return fmt.Sprintf("block %q is not inside %s", op.NewBlock.ID, where)
	case idx != 0, parent != nil && inItems != (parent.Kind == bend.KindList):
		return fmt.Sprintf("block %q is not the first child of %s", op.NewBlock.ID, where)
	}
	return ""
}

// relBlock returns a copy of b with self-references made relative.
func (c *checker) relBlock(b *bend.Block) *bend.Block {
	cp := cloneBlock(b)
	cp.MapRefs(c.rel)
	return cp
}

func (c *checker) insertedSpan(b *bend.Block, after string, want *bend.Span) string {
	i := spanIndex(b, want.ID)
	if i < 0 {
		return fmt.Sprintf("block %q has no span %q", b.ID, want.ID)
	}
	if after == "" && i != 0 || after != "" && (i == 0 || b.Spans[i-1].ID != after) {
		return fmt.Sprintf("span %q is not right after %q", want.ID, after)
	}
	if !sameSpanContent(b.Spans[i], want, c.self) {
		return fmt.Sprintf("span %q differs from the requested one", want.ID)
	}
	return ""
}

// sameSpanContent compares text and marks (as a set).
func sameSpanContent(got, want *bend.Span, self []string) bool {
	if !equalPtr(got.Text, want.Text) || len(got.Marks) != len(want.Marks) {
		return false
	}
	c := &checker{self: self}
	for _, w := range want.Marks {
		if !slices.ContainsFunc(got.Marks, func(m *bend.Mark) bool { return c.sameMark(m, w) }) {
			return false
		}
	}
	return true
}
