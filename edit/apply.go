package edit

import (
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/bend"
	"github.com/gowebpki/jcs"
)

// Apply returns a copy of source with the operations applied in order: the
// expected document of a task. It fails when an operation does not apply
// cleanly (an id that does not exist, a mark that is already there), which
// means the gold edit is broken, not the model.
func Apply(source *bend.Document, ops []*Op) (*bend.Document, error) {
	d := source.Clone()
	for i, op := range ops {
		if err := apply(d, op); err != nil {
			return nil, &OpError{Index: i, Name: op.Name, Err: err}
		}
	}
	return d, nil
}

// OpError is the error of Parse, FromValue and Apply: which operation
// failed and why, so that a caller that grades an answer written in this
// language (package formats) can name the operation without parsing a
// message.
type OpError struct {
	Index int    // 0-based index of the operation in the edit
	Name  string // its op name; "" when it failed to parse
	Err   error  // why
}

// Error prints "operation 3 (set_text): why", or "operation 3: why" for a
// parse failure.
func (e *OpError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("operation %d: %v", e.Index, e.Err)
	}
	return fmt.Sprintf("operation %d (%s): %v", e.Index, e.Name, e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

func apply(d *bend.Document, op *Op) error {
	k := kindOf(op.Name)
	a, err := locate(d, op, k.scope)
	if err != nil {
		return err
	}
	return k.apply(a, op)
}

// position returns where an add_mark or add_edge inserts into a list of n:
// at p when given (0 ≤ p ≤ n), else at the end.
func position(p *int, n int, what string) (int, error) {
	switch {
	case p == nil:
		return n, nil
	case *p > n:
		return 0, fmt.Errorf("position %d is beyond the end of %s (%d long)", *p, what, n)
	}
	return *p, nil
}

// firstChildren returns the slice an insert_block with "after": "" inserts
// into: the top-level blocks when parent is "", else the items of a list
// parent and the blocks of any other parent; nil when there is no such
// parent.
func firstChildren(d *bend.Document, parent string) *[]*bend.Block {
	if parent == "" {
		return &d.Blocks
	}
	p := d.FindBlock(parent)
	switch {
	case p == nil:
		return nil
	case p.Kind == bend.KindList:
		return &p.Items
	}
	return &p.Blocks
}

// findSibling returns the slice that holds the block with the given id, and
// its index there.
func findSibling(list *[]*bend.Block, id string) (*[]*bend.Block, int) {
	for i, b := range *list {
		if b.ID == id {
			return list, i
		}
		if l, j := findSibling(&b.Items, id); l != nil {
			return l, j
		}
		if l, j := findSibling(&b.Blocks, id); l != nil {
			return l, j
		}
	}
	return nil, -1
}

func spanIndex(b *bend.Block, id string) int {
	return slices.IndexFunc(b.Spans, func(s *bend.Span) bool { return s.ID == id })
}

// sameMark compares marks as values: plain marks by name, links by target
// (self-references made relative, against each side's own document id) and
// predicate.
func sameMark(a, b *bend.Mark, aDoc, bDoc string) bool {
	switch {
	case a.Link != nil && b.Link != nil:
		return bend.Relative(a.Link.Target, aDoc) == bend.Relative(b.Link.Target, bDoc) &&
			equalPtr(a.Link.Predicate, b.Link.Predicate)
	case a.Link == nil && b.Link == nil && a.Raw == nil && b.Raw == nil:
		return a.Name == b.Name
	}
	return false
}

func hasMark(s *bend.Span, m *bend.Mark, doc string) bool {
	return slices.ContainsFunc(s.Marks, func(x *bend.Mark) bool { return sameMark(x, m, doc, doc) })
}

func findLink(s *bend.Span, target, spanDoc, targetDoc string) *bend.Link {
	want := bend.Relative(target, targetDoc)
	for _, m := range s.Marks {
		if m.Link != nil && bend.Relative(m.Link.Target, spanDoc) == want {
			return m.Link
		}
	}
	return nil
}

func equalPtr(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// sameEdge compares two edges by subject, predicate and object, with
// self-references made relative to doc.
func sameEdge(a, b *bend.Edge, doc string) bool {
	return a.Predicate == b.Predicate &&
		bend.Relative(a.Subject, doc) == bend.Relative(b.Subject, doc) &&
		bend.Relative(a.Object, doc) == bend.Relative(b.Object, doc)
}

// canonical returns the RFC 8785 form of v, for comparing values.
func canonical(v *bend.Value) string {
	if v == nil {
		return ""
	}
	c, err := jcs.Transform(bend.MarshalValue(v))
	if err != nil {
		return string(bend.MarshalValue(v))
	}
	return string(c)
}

func cloneBlock(b *bend.Block) *bend.Block {
	c, _ := bend.BlockFromValue(b.Value().Clone())
	return c
}

func cloneSpan(s *bend.Span) *bend.Span {
	c, _ := bend.SpanFromValue(s.Value().Clone())
	return c
}

func cloneMark(m *bend.Mark) *bend.Mark {
	c, _ := bend.MarkFromValue(m.Value().Clone())
	return c
}

func cloneEdge(e *bend.Edge) *bend.Edge {
	c, _ := bend.EdgeFromValue(e.Value().Clone())
	return c
}
