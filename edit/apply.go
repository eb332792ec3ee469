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
	switch op.Name {
	case SetVocabulary:
		d.Vocabulary = op.Vocabulary
		return nil
	case SetTitle:
		t := op.Title
		d.Title = &t
		return nil
	case AddEdge:
		i, err := position(op.Position, len(d.Edges), "edges")
		if err != nil {
			return err
		}
		d.Edges = slices.Insert(d.Edges, i, cloneEdge(op.Edge))
		return nil
	case RemoveEdge:
		n := len(d.Edges)
		d.Edges = slices.DeleteFunc(d.Edges, func(e *bend.Edge) bool { return sameEdge(e, op.Edge, d.ID) })
		if len(d.Edges) == n {
			return fmt.Errorf("no edge %s %s %s", op.Edge.Subject, op.Edge.Predicate, op.Edge.Object)
		}
		return nil
	case InsertBlock:
		list, i := firstChildren(d, op.Parent), -1
		if op.After != "" {
			list, i = findSibling(&d.Blocks, op.After)
		}
		switch {
		case list == nil && op.After == "":
			return fmt.Errorf("no parent block %q", op.Parent)
		case list == nil:
			return fmt.Errorf("no block %q to insert after", op.After)
		}
		if d.FindBlock(op.NewBlock.ID) != nil {
			return fmt.Errorf("block %q already exists", op.NewBlock.ID)
		}
		*list = slices.Insert(*list, i+1, cloneBlock(op.NewBlock))
		return nil
	case RemoveBlock:
		list, i := findSibling(&d.Blocks, op.Block)
		if list == nil {
			return fmt.Errorf("no block %q", op.Block)
		}
		*list = slices.Delete(*list, i, i+1)
		return nil
	}
	b := d.FindBlock(op.Block)
	if b == nil {
		return fmt.Errorf("no block %q", op.Block)
	}
	switch op.Name {
	case SetCodeText:
		if b.Text == nil {
			return fmt.Errorf("block %q has no text", op.Block)
		}
		t := op.Text
		b.Text = &t
		return nil
	case InsertSpan:
		i := -1
		if op.After != "" {
			if i = spanIndex(b, op.After); i < 0 {
				return fmt.Errorf("block %q has no span %q", op.Block, op.After)
			}
		}
		if spanIndex(b, op.NewSpan.ID) >= 0 {
			return fmt.Errorf("block %q already has a span %q", op.Block, op.NewSpan.ID)
		}
		b.Spans = slices.Insert(b.Spans, i+1, cloneSpan(op.NewSpan))
		return nil
	}
	i := spanIndex(b, op.Span)
	if i < 0 {
		return fmt.Errorf("block %q has no span %q", op.Block, op.Span)
	}
	s := b.Spans[i]
	switch op.Name {
	case SetText:
		t := op.Text
		s.Text = &t
	case AddMark:
		if hasMark(s, op.Mark, d.ID) {
			return fmt.Errorf("span %s.%s already has that mark", op.Block, op.Span)
		}
		j, err := position(op.Position, len(s.Marks), "marks")
		if err != nil {
			return err
		}
		if s.Marks == nil {
			s.Marks = []*bend.Mark{}
		}
		s.Marks = slices.Insert(s.Marks, j, cloneMark(op.Mark))
	case RemoveMark:
		n := len(s.Marks)
		s.Marks = slices.DeleteFunc(s.Marks, func(m *bend.Mark) bool { return sameMark(m, op.Mark, d.ID, d.ID) })
		if len(s.Marks) == n {
			return fmt.Errorf("span %s.%s does not have that mark", op.Block, op.Span)
		}
		if op.DropEmpty {
			if len(s.Marks) > 0 {
				return fmt.Errorf("drop_empty, but span %s.%s keeps %d marks", op.Block, op.Span, len(s.Marks))
			}
			s.Marks = nil
		}
	case SetLinkPredicate:
		l := findLink(s, op.Target, d.ID, d.ID)
		if l == nil {
			return fmt.Errorf("span %s.%s has no link to %s", op.Block, op.Span, op.Target)
		}
		if op.Predicate == nil {
			l.Predicate = nil
		} else {
			p := *op.Predicate
			l.Predicate = &p
		}
	case RemoveSpan:
		b.Spans = slices.Delete(b.Spans, i, i+1)
	case SupersedeSpan:
		if spanIndex(b, op.NewSpan.ID) >= 0 {
			return fmt.Errorf("block %q already has a span %q", op.Block, op.NewSpan.ID)
		}
		s.Text, s.Marks = nil, nil
		b.Spans = slices.Insert(b.Spans, i+1, cloneSpan(op.NewSpan))
		d.Edges = append(d.Edges, &bend.Edge{
			Subject:   bend.SpanRef(op.Block, op.NewSpan.ID),
			Predicate: "supersedes",
			Object:    bend.SpanRef(op.Block, op.Span),
		})
	default:
		return fmt.Errorf("unknown op")
	}
	return nil
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
