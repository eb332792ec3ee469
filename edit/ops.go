package edit

import (
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/bend"
)

// opKind is one operation of the language with all its behaviour, so that
// adding an operation is one entry of kinds and no function names an
// operation.
type opKind struct {
	required, optional []string // the members it requires and those it allows
	// valueKey is the member that holds a block or span value rather than
	// an id ("block" of insert_block, "span" of insert_span), which the
	// shared string reads of parseOp skip.
	valueKey string
	// scope is what apply and inverse resolve before they run; checkScope
	// is what check resolves, narrower for operations whose span may be
	// gone from a correct output (remove_span, supersede_span).
	scope, checkScope scope
	parse             func(v *bend.Value, op *Op, str func(key string, dst *string)) error // nil: nothing beyond the shared members
	value             func(op *Op, m *members)                                             // the members after "op", in order
	apply             func(a at, op *Op) error
	check             func(c *checker, a at, op *Op) string // "" when op holds
	inverse           func(a at, op *Op) ([]*Op, error)
	// slots adds the id slots of op in the order Op.Value writes them.
	slots func(op *Op, s *slotter)
	// whole says op edits the document as a whole (its vocabulary, its
	// title), no part of it (Op.Whole).
	whole bool
	// lands is the block op addresses in a document whose declared id is
	// doc (Op.Landing); nil: op.Block.
	lands func(op *Op, doc string) string
	// writes adds the texts op writes into a document (Op.Texts); nil:
	// none.
	writes func(op *Op, add func(string))
}

// scope is what an operation addresses.
type scope int

const (
	onDoc   scope = iota // the document
	onBlock              // the block op.Block
	onSpan               // the span op.Span of the block op.Block
)

// at is where an operation applies: the document and, by scope, the block
// and the span at index i of its spans.
type at struct {
	d *bend.Document
	b *bend.Block
	i int
	s *bend.Span
}

// locate resolves what op addresses in d, or says which id is missing.
func locate(d *bend.Document, op *Op, sc scope) (at, error) {
	a := at{d: d, i: -1}
	if sc == onDoc {
		return a, nil
	}
	if a.b = d.FindBlock(op.Block); a.b == nil {
		return a, fmt.Errorf("no block %q", op.Block)
	}
	if sc == onBlock {
		return a, nil
	}
	if a.i = spanIndex(a.b, op.Span); a.i < 0 {
		return a, fmt.Errorf("block %q has no span %q", op.Block, op.Span)
	}
	a.s = a.b.Spans[a.i]
	return a, nil
}

// kindOf returns the kind of an operation name. An unknown name (only an Op
// built by hand has one) addresses a span, fails to apply, and has neither
// a check nor an inverse.
func kindOf(name string) *opKind {
	if k, ok := kinds[name]; ok {
		return k
	}
	return unknownOp
}

var unknownOp = &opKind{
	scope:      onSpan,
	checkScope: onSpan,
	value:      func(*Op, *members) {},
	apply:      func(at, *Op) error { return fmt.Errorf("unknown op") },
	check:      func(*checker, at, *Op) string { return "" },
	inverse:    func(at, *Op) ([]*Op, error) { return nil, nil },
	slots:      addressSlots,
}

// ops is the operation set of instructions/FORMAT.md.
var kinds = map[string]*opKind{
	SetText: {
		required: []string{"block", "span", "text"},
		scope:    onSpan, checkScope: onSpan,
		value: func(op *Op, m *members) { m.str("block", op.Block); m.str("span", op.Span); m.str("text", op.Text) },
		apply: func(a at, op *Op) error {
			t := op.Text
			a.s.Text = &t
			return nil
		},
		check: func(c *checker, a at, op *Op) string {
			if a.s.Text == nil || *a.s.Text != op.Text {
				return "span text differs from the requested text"
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) {
			if a.s.Text == nil {
				return nil, fmt.Errorf("span %s.%s is a tombstone, and no operation sets its text back to null", op.Block, op.Span)
			}
			return []*Op{{Name: SetText, Block: op.Block, Span: op.Span, Text: *a.s.Text}}, nil
		},
		slots:  addressSlots,
		writes: func(op *Op, add func(string)) { add(op.Text) },
	},
	SetCodeText: {
		required: []string{"block", "text"},
		scope:    onBlock, checkScope: onBlock,
		value: func(op *Op, m *members) { m.str("block", op.Block); m.str("text", op.Text) },
		apply: func(a at, op *Op) error {
			if a.b.Text == nil {
				return fmt.Errorf("block %q has no text", op.Block)
			}
			t := op.Text
			a.b.Text = &t
			return nil
		},
		check: func(c *checker, a at, op *Op) string {
			if a.b.Text == nil || *a.b.Text != op.Text {
				return "code text differs"
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) {
			if a.b.Text == nil {
				return nil, nil
			}
			return []*Op{{Name: SetCodeText, Block: op.Block, Text: *a.b.Text}}, nil
		},
		slots:  addressSlots,
		writes: func(op *Op, add func(string)) { add(op.Text) },
	},
	AddMark: {
		required: []string{"block", "span", "mark"}, optional: []string{"position"},
		scope: onSpan, checkScope: onSpan,
		parse: parseMark,
		value: markValue,
		apply: func(a at, op *Op) error {
			s := a.s
			if hasMark(s, op.Mark, a.d.ID) {
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
			return nil
		},
		check: func(c *checker, a at, op *Op) string {
			s := a.s
			if !slices.ContainsFunc(s.Marks, func(m *bend.Mark) bool { return c.sameMark(m, op.Mark) }) {
				return "the span does not carry the mark"
			}
			if p := op.Position; p != nil && (*p >= len(s.Marks) || !c.sameMark(s.Marks[*p], op.Mark)) {
				return fmt.Sprintf("the mark is not at position %d of the span's marks", *p)
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) {
			if op.Mark.Raw != nil {
				return nil, errRawMark
			}
			return []*Op{{Name: RemoveMark, Block: op.Block, Span: op.Span, Mark: cloneMark(op.Mark), DropEmpty: a.s.Marks == nil}}, nil
		},
		slots: markSlots,
	},
	RemoveMark: {
		required: []string{"block", "span", "mark"}, optional: []string{"drop_empty"},
		scope: onSpan, checkScope: onSpan,
		parse: parseMark,
		value: markValue,
		apply: func(a at, op *Op) error {
			s := a.s
			n := len(s.Marks)
			s.Marks = slices.DeleteFunc(s.Marks, func(m *bend.Mark) bool { return sameMark(m, op.Mark, a.d.ID, a.d.ID) })
			if len(s.Marks) == n {
				return fmt.Errorf("span %s.%s does not have that mark", op.Block, op.Span)
			}
			if op.DropEmpty {
				if len(s.Marks) > 0 {
					return fmt.Errorf("drop_empty, but span %s.%s keeps %d marks", op.Block, op.Span, len(s.Marks))
				}
				s.Marks = nil
			}
			return nil
		},
		check: func(c *checker, a at, op *Op) string {
			if slices.ContainsFunc(a.s.Marks, func(m *bend.Mark) bool { return c.sameMark(m, op.Mark) }) {
				return "the span still carries the mark"
			}
			if op.DropEmpty && a.s.Marks != nil {
				return `the span still has a "marks" member`
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) { return restoreMark(a.d, op, a.s) },
		slots:   markSlots,
	},
	SetLinkPredicate: {
		required: []string{"block", "span", "target"}, optional: []string{"predicate"},
		scope: onSpan, checkScope: onSpan,
		value: func(op *Op, m *members) {
			m.str("block", op.Block)
			m.str("span", op.Span)
			m.str("target", op.Target)
			if op.Predicate != nil {
				m.str("predicate", *op.Predicate)
			}
		},
		apply: func(a at, op *Op) error {
			l := findLink(a.s, op.Target, a.d.ID, a.d.ID)
			if l == nil {
				return fmt.Errorf("span %s.%s has no link to %s", op.Block, op.Span, op.Target)
			}
			l.Predicate = clonePtr(op.Predicate)
			return nil
		},
		check: func(c *checker, a at, op *Op) string {
			want := &bend.Mark{Link: &bend.Link{Target: op.Target, Predicate: op.Predicate}}
			if !slices.ContainsFunc(a.s.Marks, func(m *bend.Mark) bool { return c.sameMark(m, want) }) {
				return "no link mark to the target with the requested predicate"
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) {
			l := findLink(a.s, op.Target, a.d.ID, a.d.ID)
			if l == nil {
				return nil, nil
			}
			return []*Op{{Name: SetLinkPredicate, Block: op.Block, Span: op.Span, Target: op.Target, Predicate: clonePtr(l.Predicate)}}, nil
		},
		slots: func(op *Op, s *slotter) {
			s.address(op)
			s.ref(&op.Target)
		},
	},
	InsertBlock: {
		required: []string{"after", "block"}, optional: []string{"parent"},
		valueKey: "block",
		scope:    onDoc, checkScope: onDoc,
		parse: func(v *bend.Value, op *Op, _ func(string, *string)) error {
			b, errs := bend.BlockFromValue(v.Get("block"))
			if len(errs) > 0 {
				return fmt.Errorf("insert_block: block: %v", errs)
			}
			op.NewBlock = b
			return nil
		},
		value: func(op *Op, m *members) {
			m.str("after", op.After)
			if op.After == "" {
				m.str("parent", op.Parent)
			}
			m.add("block", op.NewBlock.Value())
		},
		apply: func(a at, op *Op) error {
			list, i := firstChildren(a.d, op.Parent), -1
			if op.After != "" {
				list, i = findSibling(&a.d.Blocks, op.After)
			}
			switch {
			case list == nil && op.After == "":
				return fmt.Errorf("no parent block %q", op.Parent)
			case list == nil:
				return fmt.Errorf("no block %q to insert after", op.After)
			}
			if a.d.FindBlock(op.NewBlock.ID) != nil {
				return fmt.Errorf("block %q already exists", op.NewBlock.ID)
			}
			*list = slices.Insert(*list, i+1, cloneBlock(op.NewBlock))
			return nil
		},
		check: func(c *checker, _ at, op *Op) string { return c.insertedBlock(op) },
		inverse: func(_ at, op *Op) ([]*Op, error) {
			return []*Op{{Name: RemoveBlock, Block: op.NewBlock.ID}}, nil
		},
		slots: func(op *Op, s *slotter) {
			s.field(&op.After, blockID, false)
			s.field(&op.Parent, blockID, false)
			s.block(op.NewBlock)
		},
		lands:  func(op *Op, _ string) string { return op.After },
		writes: func(op *Op, add func(string)) { blockTexts(op.NewBlock, add) },
	},
	RemoveBlock: {
		required: []string{"block"},
		scope:    onDoc, checkScope: onDoc,
		value: func(op *Op, m *members) { m.str("block", op.Block) },
		apply: func(a at, op *Op) error {
			list, i := findSibling(&a.d.Blocks, op.Block)
			if list == nil {
				return fmt.Errorf("no block %q", op.Block)
			}
			*list = slices.Delete(*list, i, i+1)
			return nil
		},
		check: func(c *checker, _ at, op *Op) string {
			if c.out.FindBlock(op.Block) != nil {
				return fmt.Sprintf("block %q is still there", op.Block)
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) { return restoreBlock(a.d, op.Block) },
		slots:   addressSlots,
	},
	InsertSpan: {
		required: []string{"block", "after", "span"},
		valueKey: "span",
		scope:    onBlock, checkScope: onBlock,
		parse: func(v *bend.Value, op *Op, str func(string, *string)) error {
			str("block", &op.Block)
			s, errs := bend.SpanFromValue(v.Get("span"))
			if len(errs) > 0 {
				return fmt.Errorf("insert_span: span: %v", errs)
			}
			op.NewSpan = s
			return nil
		},
		value: func(op *Op, m *members) {
			m.str("block", op.Block)
			m.str("after", op.After)
			m.add("span", op.NewSpan.Value())
		},
		apply: func(a at, op *Op) error {
			b, i := a.b, -1
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
		},
		check: func(c *checker, a at, op *Op) string { return c.insertedSpan(a.b, op.After, op.NewSpan) },
		inverse: func(_ at, op *Op) ([]*Op, error) {
			return []*Op{{Name: RemoveSpan, Block: op.Block, Span: op.NewSpan.ID}}, nil
		},
		slots: func(op *Op, s *slotter) {
			s.address(op)
			s.field(&op.After, spanID, false)
			s.span(op.NewSpan, true)
		},
		writes: func(op *Op, add func(string)) { spanText(op.NewSpan, add) },
	},
	RemoveSpan: {
		required: []string{"block", "span"},
		scope:    onSpan, checkScope: onBlock,
		value: func(op *Op, m *members) { m.str("block", op.Block); m.str("span", op.Span) },
		apply: func(a at, op *Op) error {
			a.b.Spans = slices.Delete(a.b.Spans, a.i, a.i+1)
			return nil
		},
		check: func(c *checker, a at, op *Op) string {
			if a.b.FindSpan(op.Span) != nil {
				return fmt.Sprintf("span %q is still there", op.Span)
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) {
			after := ""
			if a.i > 0 {
				after = a.b.Spans[a.i-1].ID
			}
			return []*Op{{Name: InsertSpan, Block: op.Block, After: after, NewSpan: cloneSpan(a.s)}}, nil
		},
		slots: addressSlots,
	},
	SupersedeSpan: {
		required: []string{"block", "span", "new_span"},
		scope:    onSpan, checkScope: onBlock,
		parse: func(v *bend.Value, op *Op, _ func(string, *string)) error {
			s, errs := bend.SpanFromValue(v.Get("new_span"))
			if len(errs) > 0 {
				return fmt.Errorf("supersede_span: new_span: %v", errs)
			}
			op.NewSpan = s
			return nil
		},
		value: func(op *Op, m *members) {
			m.str("block", op.Block)
			m.str("span", op.Span)
			m.add("new_span", op.NewSpan.Value())
		},
		apply: func(a at, op *Op) error {
			b := a.b
			if spanIndex(b, op.NewSpan.ID) >= 0 {
				return fmt.Errorf("block %q already has a span %q", op.Block, op.NewSpan.ID)
			}
			a.s.Text, a.s.Marks = nil, nil
			b.Spans = slices.Insert(b.Spans, a.i+1, cloneSpan(op.NewSpan))
			a.d.Edges = append(a.d.Edges, supersedes(op))
			return nil
		},
		check:   func(c *checker, a at, op *Op) string { return c.superseded(a.b, op) },
		inverse: func(a at, op *Op) ([]*Op, error) { return unsupersede(a.d, op, a.s) },
		slots: func(op *Op, s *slotter) {
			s.address(op)
			s.span(op.NewSpan, true)
		},
		writes: func(op *Op, add func(string)) { spanText(op.NewSpan, add) },
	},
	AddEdge: {
		required: []string{"edge"}, optional: []string{"position"},
		scope: onDoc, checkScope: onDoc,
		parse: func(v *bend.Value, op *Op, _ func(string, *string)) error {
			e, errs := bend.EdgeFromValue(v.Get("edge"))
			if len(errs) > 0 {
				return fmt.Errorf("add_edge: edge: %v", errs)
			}
			op.Edge = e
			return nil
		},
		value: func(op *Op, m *members) {
			m.add("edge", op.Edge.Value())
			m.position(op.Position)
		},
		apply: func(a at, op *Op) error {
			i, err := position(op.Position, len(a.d.Edges), "edges")
			if err != nil {
				return err
			}
			a.d.Edges = slices.Insert(a.d.Edges, i, cloneEdge(op.Edge))
			return nil
		},
		check: func(c *checker, _ at, op *Op) string {
			if !c.hasEdge(op.Edge, true) {
				return fmt.Sprintf("no edge %s %s %s", op.Edge.Subject, op.Edge.Predicate, op.Edge.Object)
			}
			if p := op.Position; p != nil && (*p >= len(c.out.Edges) || !c.sameEdge(c.out.Edges[*p], op.Edge, true)) {
				return fmt.Sprintf("edge %s %s %s is not at position %d of edges", op.Edge.Subject, op.Edge.Predicate, op.Edge.Object, *p)
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) {
			if slices.ContainsFunc(a.d.Edges, func(e *bend.Edge) bool { return sameEdge(e, op.Edge, a.d.ID) }) {
				return nil, errTwin(op.Edge)
			}
			return []*Op{removeEdge(op.Edge)}, nil
		},
		slots: edgeSlots,
		lands: edgeLanding,
	},
	RemoveEdge: {
		required: []string{"subject", "predicate", "object"},
		scope:    onDoc, checkScope: onDoc,
		parse: func(_ *bend.Value, op *Op, str func(string, *string)) error {
			e := &bend.Edge{}
			str("subject", &e.Subject)
			str("object", &e.Object)
			if op.Predicate != nil {
				e.Predicate = *op.Predicate
			}
			op.Edge, op.Predicate = e, nil
			return nil
		},
		value: func(op *Op, m *members) {
			m.str("subject", op.Edge.Subject)
			m.str("predicate", op.Edge.Predicate)
			m.str("object", op.Edge.Object)
		},
		apply: func(a at, op *Op) error {
			n := len(a.d.Edges)
			a.d.Edges = slices.DeleteFunc(a.d.Edges, func(e *bend.Edge) bool { return sameEdge(e, op.Edge, a.d.ID) })
			if len(a.d.Edges) == n {
				return fmt.Errorf("no edge %s %s %s", op.Edge.Subject, op.Edge.Predicate, op.Edge.Object)
			}
			return nil
		},
		check: func(c *checker, _ at, op *Op) string {
			if c.hasEdge(op.Edge, false) {
				return fmt.Sprintf("edge %s %s %s is still there", op.Edge.Subject, op.Edge.Predicate, op.Edge.Object)
			}
			return ""
		},
		inverse: func(a at, op *Op) ([]*Op, error) { return restoreEdges(a.d, op.Edge), nil },
		slots:   edgeSlots,
		lands:   edgeLanding,
	},
	SetVocabulary: {
		required: []string{"vocabulary"},
		scope:    onDoc, checkScope: onDoc,
		value: func(op *Op, m *members) { m.str("vocabulary", op.Vocabulary) },
		apply: func(a at, op *Op) error {
			a.d.Vocabulary = op.Vocabulary
			return nil
		},
		check: func(c *checker, _ at, op *Op) string {
			if c.out.Vocabulary != op.Vocabulary {
				return fmt.Sprintf("vocabulary is %q, want %q", c.out.Vocabulary, op.Vocabulary)
			}
			return ""
		},
		inverse: func(a at, _ *Op) ([]*Op, error) {
			return []*Op{{Name: SetVocabulary, Vocabulary: a.d.Vocabulary}}, nil
		},
		slots: addressSlots,
		whole: true,
	},
	SetTitle: {
		required: []string{"title"},
		scope:    onDoc, checkScope: onDoc,
		value: func(op *Op, m *members) { m.str("title", op.Title) },
		apply: func(a at, op *Op) error {
			t := op.Title
			a.d.Title = &t
			return nil
		},
		check: func(c *checker, _ at, op *Op) string {
			if c.out.Title == nil || *c.out.Title != op.Title {
				return "title differs"
			}
			return ""
		},
		inverse: func(a at, _ *Op) ([]*Op, error) {
			if a.d.Title == nil {
				return nil, fmt.Errorf("the document has no title, and no operation removes one")
			}
			return []*Op{{Name: SetTitle, Title: *a.d.Title}}, nil
		},
		slots:  addressSlots,
		whole:  true,
		writes: func(op *Op, add func(string)) { add(op.Title) },
	},
}

// parseMark reads the mark of add_mark and remove_mark.
func parseMark(v *bend.Value, op *Op, _ func(string, *string)) error {
	m, errs := bend.MarkFromValue(v.Get("mark"))
	if len(errs) > 0 {
		return fmt.Errorf("%s: mark: %v", op.Name, errs)
	}
	op.Mark = m
	return nil
}

// markValue writes the members of add_mark and remove_mark.
func markValue(op *Op, m *members) {
	m.str("block", op.Block)
	m.str("span", op.Span)
	m.add("mark", op.Mark.Value())
	m.position(op.Position)
	if op.DropEmpty {
		m.add("drop_empty", &bend.Value{Kind: bend.Bool, Bool: true})
	}
}

// supersedes returns the edge a supersede_span adds: new span supersedes old.
func supersedes(op *Op) *bend.Edge {
	return &bend.Edge{Subject: bend.SpanRef(op.Block, op.NewSpan.ID), Predicate: "supersedes", Object: bend.SpanRef(op.Block, op.Span)}
}

// markSlots are the slots of add_mark and remove_mark.
func markSlots(op *Op, s *slotter) {
	s.address(op)
	s.mark(op.Mark)
}

// edgeSlots are the slots of add_edge and remove_edge.
func edgeSlots(op *Op, s *slotter) {
	s.ref(&op.Edge.Subject)
	s.ref(&op.Edge.Object)
}

// Whole reports whether op edits the document as a whole (its vocabulary
// or its title) rather than a part of it: such an edit has no place in a
// document composed of others (the size ladder).
func (op *Op) Whole() bool { return kindOf(op.Name).whole }

// Landing returns the block of a document (whose declared id is doc) that
// op addresses: the block it edits, the block it inserts after, or the
// block an edge's subject (else its object) names in the document; ""
// when it addresses none.
func (op *Op) Landing(doc string) string {
	if k := kindOf(op.Name); k.lands != nil {
		return k.lands(op, doc)
	}
	return op.Block
}

// Texts returns every text op writes into a document, in order: a set
// text, a title, the text of a new span, and the texts of a new block's
// spans, code and children.
func (op *Op) Texts() []string {
	var out []string
	if k := kindOf(op.Name); k.writes != nil {
		k.writes(op, func(t string) { out = append(out, t) })
	}
	return out
}

// edgeLanding is the block an edge operation addresses (Op.Landing): its
// subject's block in the document doc, else its object's.
func edgeLanding(op *Op, doc string) string {
	for _, ref := range []string{op.Edge.Subject, op.Edge.Object} {
		if r, ok := bend.ParseRef(ref); ok && r.IsSelf(doc) && r.Block != "" {
			return r.Block
		}
	}
	return ""
}

// spanText adds a span's text, when it has one (Op.Texts).
func spanText(sp *bend.Span, add func(string)) {
	if sp.Text != nil {
		add(*sp.Text)
	}
}

// blockTexts adds the texts of a block: its spans', its code text, then
// its children's (Op.Texts).
func blockTexts(b *bend.Block, add func(string)) {
	for _, sp := range b.Spans {
		spanText(sp, add)
	}
	if b.Text != nil {
		add(*b.Text)
	}
	for _, c := range b.Children() {
		blockTexts(c, add)
	}
}
