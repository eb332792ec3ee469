package edit

import (
	"bytes"
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/bend"
)

// Inverse returns the gold edit that undoes ops: for every source that ops
// apply to,
//
//	Marshal(Apply(Apply(source, ops), Inverse(source, ops))) == Marshal(source)
//
// byte for byte, so the declared id and the computed id (§5.1) are the
// source's too. Each operation is inverted against the document as it stood
// just before that operation, and the inverses come in reverse order
// (op₁…opₙ → inv(opₙ)…inv(op₁)). The rule per operation, where "before" is
// the state the operation found:
//
//	operation                  inverse
//	set_text                   set_text to the span's text before
//	set_code_text              set_code_text to the block's text before
//	add_mark m                 remove_mark m; drop_empty when the span had no marks member before
//	remove_mark m              add_mark of the mark as it was written, at its old index
//	                           (position, omitted when it was the last mark)
//	set_link_predicate         set_link_predicate to the link's predicate before (omitted: untyped)
//	insert_block b             remove_block b
//	remove_block b             insert_block b as it was, after its previous sibling; a first
//	                           child uses "after": "" with "parent" (its enclosing block, or ""
//	                           for the top level)
//	insert_span s              remove_span s
//	remove_span s              insert_span s as it was, after its previous span ("" for first)
//	supersede_span old → new   remove_edge new supersedes old, remove_span new, then
//	                           set_text old to its text before (skipped for a tombstone) and
//	                           add_mark for each of its marks before, in order
//	add_edge e                 remove_edge e (subject, predicate, object as the op wrote them)
//	remove_edge s p o          add_edge of every edge the removal took, as it was written, in
//	                           their old order, each at its old index (position, omitted when
//	                           it lands last)
//	set_vocabulary             set_vocabulary to the vocabulary before
//	set_title                  set_title to the title before
//
// Some changes have no exact inverse in the operation set; Inverse returns
// an error saying which instead of an edit that only comes close:
//   - set_text on a tombstone, and set_title on a document without a title
//     (no operation sets text back to null or removes a title);
//   - add_edge, or supersede_span, when the document already has an edge with
//     the same subject, predicate and object (remove_edge would take both);
//   - remove_mark of a mark the span carries twice (add_mark restores one);
//   - supersede_span of a span whose marks member is present but empty, or
//     that carries a mark twice (add_mark cannot rebuild either);
//   - a mark that is neither a name nor a link (it cannot be matched by
//     value);
//   - a remove_block whose block is the first of a list's blocks or of a
//     non-list block's items (the "after": "" convention addresses a list's
//     items and every other block's blocks).
//
// Whatever the rule, Inverse applies both edits and returns an error when
// the result is not byte-equal to source, so a returned inverse is exact.
// Exact is not always checkable: Check reads every operation against the
// final document, so when forward operations overlap (two on one span, one
// inside a block another inserted) the inverse restores the source but
// fails its own Check, as such a forward edit would.
func Inverse(source *bend.Document, ops []*Op) ([]*Op, error) {
	d := source.Clone()
	groups := make([][]*Op, len(ops))
	for i, op := range ops {
		inv, err := inverse(d, op)
		if err == nil {
			err = apply(d, op)
		}
		if err != nil {
			return nil, fmt.Errorf("operation %d (%s): %w", i, op.Name, err)
		}
		groups[i] = inv
	}
	var out []*Op
	for i := len(groups) - 1; i >= 0; i-- {
		out = append(out, groups[i]...)
	}
	back, err := Apply(d, out)
	if err != nil {
		return nil, fmt.Errorf("the inverse does not apply: %w", err)
	}
	if !bytes.Equal(bend.Marshal(back), bend.Marshal(source)) {
		return nil, fmt.Errorf("the inverse does not restore the source exactly")
	}
	return out, nil
}

// inverse returns the operations that undo op on d, the document as op finds
// it. An op that does not apply to d is left for apply to report.
func inverse(d *bend.Document, op *Op) ([]*Op, error) {
	k := kindOf(op.Name)
	a, err := locate(d, op, k.scope)
	if err != nil {
		return nil, nil
	}
	return k.inverse(a, op)
}

var errRawMark = fmt.Errorf("a mark that is neither a name nor a link cannot be matched by value")

func errTwin(e *bend.Edge) error {
	return fmt.Errorf("the document already has an edge %s %s %s, and remove_edge would remove both", e.Subject, e.Predicate, e.Object)
}

func removeEdge(e *bend.Edge) *Op {
	return &Op{Name: RemoveEdge, Edge: &bend.Edge{Subject: e.Subject, Predicate: e.Predicate, Object: e.Object}}
}

// restoreEdges returns add_edge operations that put back every edge of d
// that a remove_edge of want takes, each at its old index. They are added in
// their old order, so each index is final when it is added.
func restoreEdges(d *bend.Document, want *bend.Edge) []*Op {
	var out []*Op
	kept := len(d.Edges)
	for _, e := range d.Edges {
		if sameEdge(e, want, d.ID) {
			kept--
		}
	}
	for i, e := range d.Edges {
		if !sameEdge(e, want, d.ID) {
			continue
		}
		op := &Op{Name: AddEdge, Edge: cloneEdge(e)}
		if i < kept+len(out) {
			p := i
			op.Position = &p
		}
		out = append(out, op)
	}
	return out
}

// restoreBlock returns the insert_block that puts back the block with the
// given id where it is in d.
func restoreBlock(d *bend.Document, id string) ([]*Op, error) {
	list, i := findSibling(&d.Blocks, id)
	if list == nil {
		return nil, nil
	}
	op := &Op{Name: InsertBlock, NewBlock: cloneBlock((*list)[i])}
	if i > 0 {
		op.After = (*list)[i-1].ID
		return []*Op{op}, nil
	}
	parent := parentOf(d.Blocks, nil, id)
	if parent != nil {
		op.Parent = parent.ID
	}
	if firstChildren(d, op.Parent) != list {
		return nil, fmt.Errorf("block %q is the first of the %s of %s block %q, which \"after\": \"\" does not address", id, member(parent, list), parent.Kind, parent.ID)
	}
	return []*Op{op}, nil
}

// parentOf returns the block whose items or blocks hold the block with the
// given id (nil for a top-level block or none).
func parentOf(bs []*bend.Block, parent *bend.Block, id string) *bend.Block {
	for _, b := range bs {
		if b.ID == id {
			return parent
		}
		if p := parentOf(b.Children(), b, id); p != nil {
			return p
		}
	}
	return nil
}

func member(parent *bend.Block, list *[]*bend.Block) string {
	if list == &parent.Items {
		return "items"
	}
	return "blocks"
}

// restoreMark returns the add_mark that puts back the mark a remove_mark
// takes from span s, as written and at its old index.
func restoreMark(d *bend.Document, op *Op, s *bend.Span) ([]*Op, error) {
	if op.Mark.Raw != nil {
		return nil, errRawMark
	}
	at := -1
	for j, m := range s.Marks {
		if !sameMark(m, op.Mark, d.ID, d.ID) {
			continue
		}
		if at >= 0 {
			return nil, fmt.Errorf("span %s.%s carries the mark twice, and add_mark restores only one", op.Block, op.Span)
		}
		at = j
	}
	if at < 0 {
		return nil, nil
	}
	inv := &Op{Name: AddMark, Block: op.Block, Span: op.Span, Mark: cloneMark(s.Marks[at])}
	if at < len(s.Marks)-1 {
		inv.Position = &at
	}
	return []*Op{inv}, nil
}

// unsupersede returns the operations that undo a supersede_span of span s.
func unsupersede(d *bend.Document, op *Op, s *bend.Span) ([]*Op, error) {
	edge := supersedes(op)
	if slices.ContainsFunc(d.Edges, func(e *bend.Edge) bool { return sameEdge(e, edge, d.ID) }) {
		return nil, errTwin(edge)
	}
	if s.Marks != nil && len(s.Marks) == 0 {
		return nil, fmt.Errorf("span %s.%s has an empty marks member, which the tombstone loses and add_mark cannot rebuild", op.Block, op.Span)
	}
	out := []*Op{removeEdge(edge), {Name: RemoveSpan, Block: op.Block, Span: op.NewSpan.ID}}
	if s.Text != nil {
		out = append(out, &Op{Name: SetText, Block: op.Block, Span: op.Span, Text: *s.Text})
	}
	for j, m := range s.Marks {
		if m.Raw != nil {
			return nil, errRawMark
		}
		if slices.ContainsFunc(s.Marks[:j], func(x *bend.Mark) bool { return sameMark(x, m, d.ID, d.ID) }) {
			return nil, fmt.Errorf("span %s.%s carries a mark twice, and add_mark restores only one", op.Block, op.Span)
		}
		out = append(out, &Op{Name: AddMark, Block: op.Block, Span: op.Span, Mark: cloneMark(m)})
	}
	return out, nil
}

func clonePtr(p *string) *string {
	if p == nil {
		return nil
	}
	s := *p
	return &s
}
