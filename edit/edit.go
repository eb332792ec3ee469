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

func parseOp(v *bend.Value) (*Op, error) {
	if v.Kind != bend.Object {
		return nil, fmt.Errorf("must be an object")
	}
	name := v.Get("op")
	if name == nil || name.Kind != bend.String {
		return nil, fmt.Errorf(`missing "op"`)
	}
	k, ok := kinds[name.Str]
	if !ok {
		return nil, fmt.Errorf("unknown op %q", name.Str)
	}
	if err := k.members(v, name.Str); err != nil {
		return nil, err
	}
	op := &Op{Name: name.Str}
	r := &reader{v: v, name: name.Str}
	r.ids(op, k.valueKey)
	if r.err != nil {
		return nil, r.err
	}
	if err := r.options(op); err != nil {
		return nil, err
	}
	if k.parse != nil {
		if err := k.parse(v, op, r.str); err != nil {
			return nil, err
		}
	}
	return op, r.err
}

// members checks that v, an operation named name, has every member k
// requires and no member k does not allow.
func (k *opKind) members(v *bend.Value, name string) error {
	allowed := map[string]bool{"op": true}
	for _, key := range k.required {
		if v.Get(key) == nil {
			return fmt.Errorf("%s needs %q", name, key)
		}
		allowed[key] = true
	}
	for _, key := range k.optional {
		allowed[key] = true
	}
	for _, m := range v.Members {
		if !allowed[m.Key] {
			return fmt.Errorf("%s does not take %q", name, m.Key)
		}
	}
	return nil
}

// reader reads the members of one operation object, keeping the first
// error of its string reads so that the rest still run.
type reader struct {
	v    *bend.Value
	name string
	err  error
}

// str reads the string member key into dst, when present.
func (r *reader) str(key string, dst *string) {
	f := r.v.Get(key)
	switch {
	case f == nil:
	case f.Kind != bend.String:
		if r.err == nil {
			r.err = fmt.Errorf("%s: %q must be a string", r.name, key)
		}
	default:
		*dst = f.Str
	}
}

// ids reads the string members every operation shares, skipping valueKey
// (a member that holds a value there, see opKind).
func (r *reader) ids(op *Op, valueKey string) {
	if valueKey != "block" {
		r.str("block", &op.Block)
	}
	if valueKey != "span" {
		r.str("span", &op.Span)
	}
	r.str("text", &op.Text)
	r.str("target", &op.Target)
	r.str("after", &op.After)
	r.str("vocabulary", &op.Vocabulary)
	r.str("title", &op.Title)
	r.str("parent", &op.Parent)
}

// options reads parent's condition, position, drop_empty and predicate.
func (r *reader) options(op *Op) error {
	if r.v.Get("parent") != nil && op.After != "" {
		return fmt.Errorf(`%s: "parent" is only for "after": ""`, op.Name)
	}
	if p := r.v.Get("position"); p != nil {
		n, err := strconv.Atoi(p.Str)
		if p.Kind != bend.Number || err != nil || n < 0 {
			return fmt.Errorf("%s: \"position\" must be a non-negative integer", op.Name)
		}
		op.Position = &n
	}
	if de := r.v.Get("drop_empty"); de != nil {
		if de.Kind != bend.Bool || !de.Bool {
			return fmt.Errorf("%s: \"drop_empty\" must be true when given", op.Name)
		}
		op.DropEmpty = true
	}
	if p := r.v.Get("predicate"); p != nil {
		if p.Kind != bend.String {
			return fmt.Errorf("%s: \"predicate\" must be a string", op.Name)
		}
		s := p.Str
		op.Predicate = &s
	}
	return nil
}

// Value returns the operation as JSON, in the form Parse reads.
func (op *Op) Value() *bend.Value {
	m := &members{o: &bend.Value{Kind: bend.Object}}
	m.str("op", op.Name)
	kindOf(op.Name).value(op, m)
	return m.o
}

// members builds the members of an operation's JSON object in order.
type members struct{ o *bend.Value }

func (m *members) add(k string, v *bend.Value) {
	m.o.Members = append(m.o.Members, bend.Member{Key: k, Value: v})
}

func (m *members) str(k, s string) { m.add(k, bend.StringValue(s)) }

// position adds "position" when p is given.
func (m *members) position(p *int) {
	if p != nil {
		m.add("position", &bend.Value{Kind: bend.Number, Str: strconv.Itoa(*p)})
	}
}

// MarshalJSON implements json.Marshaler so that ops embed in reports.
func (op *Op) MarshalJSON() ([]byte, error) { return bend.MarshalValue(op.Value()), nil }

var _ json.Marshaler = (*Op)(nil)
