// Package edit defines gold edits: short lists of operations, addressed by
// bend ids rather than array indexes, that say exactly what a class B or C
// task asks for (instructions/FORMAT.md). Apply turns a source document into
// the expected document; Check tells which operations a model's output
// carried out (edit compliance, reported beside drift and never folded into
// it).
package edit

import (
	"encoding/json"
	"fmt"
	"strconv"

	"bendscript.com/round-trip-harness/bend"
)

// The operation names.
const (
	SetText          = "set_text"
	SetCodeText      = "set_code_text"
	AddMark          = "add_mark"
	RemoveMark       = "remove_mark"
	SetLinkPredicate = "set_link_predicate"
	InsertBlock      = "insert_block"
	RemoveBlock      = "remove_block"
	InsertSpan       = "insert_span"
	RemoveSpan       = "remove_span"
	SupersedeSpan    = "supersede_span"
	AddEdge          = "add_edge"
	RemoveEdge       = "remove_edge"
	SetVocabulary    = "set_vocabulary"
	SetTitle         = "set_title"
)

// Op is one operation of a gold edit. Which fields are used depends on Name
// (instructions/FORMAT.md has the table).
type Op struct {
	Name       string
	Block      string      // the block addressed (set_text, marks, spans, remove_block, supersede_span)
	Span       string      // the span addressed
	Text       string      // set_text, set_code_text
	Mark       *bend.Mark  // add_mark, remove_mark
	Target     string      // set_link_predicate
	Predicate  *string     // set_link_predicate (nil: untyped)
	After      string      // insert_block (block id, "" for first), insert_span (span id, "" for first)
	Parent     string      // insert_block with After "": the enclosing block ("" for the top level)
	Position   *int        // add_mark, add_edge: index after insertion (nil: append)
	DropEmpty  bool        // remove_mark: also remove the marks member the removal empties
	NewBlock   *bend.Block // insert_block
	NewSpan    *bend.Span  // insert_span, supersede_span
	Edge       *bend.Edge  // add_edge; remove_edge uses Subject, Predicate and Object of it
	Vocabulary string      // set_vocabulary
	Title      string      // set_title
}

// Parse reads a gold edit: a JSON array of operation objects.
func Parse(data []byte) ([]*Op, error) {
	v, err := bend.ParseValue(data)
	if err != nil {
		return nil, err
	}
	return FromValue(v)
}

// FromValue reads a gold edit from a parsed JSON array.
func FromValue(v *bend.Value) ([]*Op, error) {
	if v.Kind != bend.Array {
		return nil, fmt.Errorf("a gold edit is an array of operations")
	}
	ops := make([]*Op, len(v.Elems))
	for i, e := range v.Elems {
		op, err := parseOp(e)
		if err != nil {
			return nil, &OpError{Index: i, Err: err}
		}
		ops[i] = op
	}
	return ops, nil
}

// fields lists, per operation, the members it requires and those it allows.
var fields = map[string]struct{ required, optional []string }{
	SetText:          {[]string{"block", "span", "text"}, nil},
	SetCodeText:      {[]string{"block", "text"}, nil},
	AddMark:          {[]string{"block", "span", "mark"}, []string{"position"}},
	RemoveMark:       {[]string{"block", "span", "mark"}, []string{"drop_empty"}},
	SetLinkPredicate: {[]string{"block", "span", "target"}, []string{"predicate"}},
	InsertBlock:      {[]string{"after", "block"}, []string{"parent"}},
	RemoveBlock:      {[]string{"block"}, nil},
	InsertSpan:       {[]string{"block", "after", "span"}, nil},
	RemoveSpan:       {[]string{"block", "span"}, nil},
	SupersedeSpan:    {[]string{"block", "span", "new_span"}, nil},
	AddEdge:          {[]string{"edge"}, []string{"position"}},
	RemoveEdge:       {[]string{"subject", "predicate", "object"}, nil},
	SetVocabulary:    {[]string{"vocabulary"}, nil},
	SetTitle:         {[]string{"title"}, nil},
}

func parseOp(v *bend.Value) (*Op, error) {
	if v.Kind != bend.Object {
		return nil, fmt.Errorf("must be an object")
	}
	name := v.Get("op")
	if name == nil || name.Kind != bend.String {
		return nil, fmt.Errorf(`missing "op"`)
	}
	spec, ok := fields[name.Str]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", name.Str)
	}
	allowed := map[string]bool{"op": true}
	for _, k := range spec.required {
		if v.Get(k) == nil {
			return nil, fmt.Errorf("%s needs %q", name.Str, k)
		}
		allowed[k] = true
	}
	for _, k := range spec.optional {
		allowed[k] = true
	}
	for _, m := range v.Members {
		if !allowed[m.Key] {
			return nil, fmt.Errorf("%s does not take %q", name.Str, m.Key)
		}
	}
	op := &Op{Name: name.Str}
	str := func(key string, dst *string) error {
		f := v.Get(key)
		if f == nil {
			return nil
		}
		if f.Kind != bend.String {
			return fmt.Errorf("%s: %q must be a string", name.Str, key)
		}
		*dst = f.Str
		return nil
	}
	var err error
	check := func(e error) {
		if err == nil {
			err = e
		}
	}
	if op.Name != InsertBlock {
		check(str("block", &op.Block))
	}
	if op.Name != InsertSpan {
		check(str("span", &op.Span))
	}
	check(str("text", &op.Text))
	check(str("target", &op.Target))
	check(str("after", &op.After))
	check(str("vocabulary", &op.Vocabulary))
	check(str("title", &op.Title))
	check(str("parent", &op.Parent))
	if err != nil {
		return nil, err
	}
	if v.Get("parent") != nil && op.After != "" {
		return nil, fmt.Errorf(`%s: "parent" is only for "after": ""`, op.Name)
	}
	if p := v.Get("position"); p != nil {
		n, perr := strconv.Atoi(p.Str)
		if p.Kind != bend.Number || perr != nil || n < 0 {
			return nil, fmt.Errorf("%s: \"position\" must be a non-negative integer", op.Name)
		}
		op.Position = &n
	}
	if de := v.Get("drop_empty"); de != nil {
		if de.Kind != bend.Bool || !de.Bool {
			return nil, fmt.Errorf("%s: \"drop_empty\" must be true when given", op.Name)
		}
		op.DropEmpty = true
	}
	if p := v.Get("predicate"); p != nil {
		if p.Kind != bend.String {
			return nil, fmt.Errorf("%s: \"predicate\" must be a string", op.Name)
		}
		s := p.Str
		op.Predicate = &s
	}
	switch op.Name {
	case AddMark, RemoveMark:
		m, errs := bend.MarkFromValue(v.Get("mark"))
		if len(errs) > 0 {
			return nil, fmt.Errorf("%s: mark: %v", op.Name, errs)
		}
		op.Mark = m
	case InsertBlock:
		b, errs := bend.BlockFromValue(v.Get("block"))
		if len(errs) > 0 {
			return nil, fmt.Errorf("insert_block: block: %v", errs)
		}
		op.NewBlock = b
	case InsertSpan:
		check(str("block", &op.Block))
		s, errs := bend.SpanFromValue(v.Get("span"))
		if len(errs) > 0 {
			return nil, fmt.Errorf("insert_span: span: %v", errs)
		}
		op.NewSpan = s
	case SupersedeSpan:
		s, errs := bend.SpanFromValue(v.Get("new_span"))
		if len(errs) > 0 {
			return nil, fmt.Errorf("supersede_span: new_span: %v", errs)
		}
		op.NewSpan = s
	case AddEdge:
		e, errs := bend.EdgeFromValue(v.Get("edge"))
		if len(errs) > 0 {
			return nil, fmt.Errorf("add_edge: edge: %v", errs)
		}
		op.Edge = e
	case RemoveEdge:
		e := &bend.Edge{}
		check(str("subject", &e.Subject))
		check(str("object", &e.Object))
		if op.Predicate != nil {
			e.Predicate = *op.Predicate
		}
		op.Edge, op.Predicate = e, nil
	}
	return op, err
}

// Value returns the operation as JSON, in the form Parse reads.
func (op *Op) Value() *bend.Value {
	o := &bend.Value{Kind: bend.Object}
	add := func(k string, v *bend.Value) { o.Members = append(o.Members, bend.Member{Key: k, Value: v}) }
	str := func(k, s string) { add(k, bend.StringValue(s)) }
	position := func() {
		if op.Position != nil {
			add("position", &bend.Value{Kind: bend.Number, Str: strconv.Itoa(*op.Position)})
		}
	}
	str("op", op.Name)
	switch op.Name {
	case SetText:
		str("block", op.Block)
		str("span", op.Span)
		str("text", op.Text)
	case SetCodeText:
		str("block", op.Block)
		str("text", op.Text)
	case AddMark, RemoveMark:
		str("block", op.Block)
		str("span", op.Span)
		add("mark", op.Mark.Value())
		position()
		if op.DropEmpty {
			add("drop_empty", &bend.Value{Kind: bend.Bool, Bool: true})
		}
	case SetLinkPredicate:
		str("block", op.Block)
		str("span", op.Span)
		str("target", op.Target)
		if op.Predicate != nil {
			str("predicate", *op.Predicate)
		}
	case InsertBlock:
		str("after", op.After)
		if op.After == "" {
			str("parent", op.Parent)
		}
		add("block", op.NewBlock.Value())
	case RemoveBlock:
		str("block", op.Block)
	case InsertSpan:
		str("block", op.Block)
		str("after", op.After)
		add("span", op.NewSpan.Value())
	case RemoveSpan:
		str("block", op.Block)
		str("span", op.Span)
	case SupersedeSpan:
		str("block", op.Block)
		str("span", op.Span)
		add("new_span", op.NewSpan.Value())
	case AddEdge:
		add("edge", op.Edge.Value())
		position()
	case RemoveEdge:
		str("subject", op.Edge.Subject)
		str("predicate", op.Edge.Predicate)
		str("object", op.Edge.Object)
	case SetVocabulary:
		str("vocabulary", op.Vocabulary)
	case SetTitle:
		str("title", op.Title)
	}
	return o
}

// MarshalJSON implements json.Marshaler so that ops embed in reports.
func (op *Op) MarshalJSON() ([]byte, error) { return bend.MarshalValue(op.Value()), nil }

var _ json.Marshaler = (*Op)(nil)
