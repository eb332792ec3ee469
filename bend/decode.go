package bend

import (
	"fmt"
	"math"
	"strconv"
)

// Parse reads a .bend document. It returns an error only when the input is
// not a JSON object at all or breaks a reading limit (size, depth, UTF-8,
// duplicate member names). Problems of shape (missing or mistyped members)
// do not stop parsing: they are kept and reported by Validate, so that a
// model's imperfect output can still be scored.
func Parse(data []byte) (*Document, error) {
	p := pooledParser(data)
	defer p.release()
	v, err := p.parse()
	if err != nil {
		return nil, err
	}
	if v.Kind != Object {
		return nil, &Error{Msg: "a document must be a JSON object", Section: "3"}
	}
	r := &reader{clone: true}
	return r.document(v), nil
}

// FromValue reads a document from an already parsed JSON object. The
// document shares the values it keeps verbatim (Extra, meta) with v.
func FromValue(v *Value) *Document {
	r := &reader{}
	return r.document(v)
}

func (r *reader) document(v *Value) *Document {
	d := &Document{}
	for _, m := range v.Members {
		r.ptr.pushKey(m.Key)
		switch m.Key {
		case "bendscript":
			r.str(&d.Bendscript, m, &d.Extra)
		case "id":
			r.str(&d.ID, m, &d.Extra)
		case "vocabulary":
			r.str(&d.Vocabulary, m, &d.Extra)
		case "title":
			r.optStr(&d.Title, m, &d.Extra)
		case "meta":
			if m.Value.Kind != Object {
				r.typeErr("an object", "3")
			}
			d.Meta = r.keep(m.Value)
		case "blocks":
			d.hasBlocks = true
			d.Blocks = r.blocks(m, &d.Extra)
		case "edges":
			d.hasEdges = true
			d.Edges = r.edges(m, &d.Extra)
		default:
			d.Extra = append(d.Extra, r.kept(m))
		}
		r.ptr.pop()
	}
	d.problems = r.errs
	return d
}

type reader struct {
	errs Errors
	ptr  pointer // where the value being read is
	// clone says to copy the values the model keeps verbatim, because the
	// tree read from belongs to an arena that the next Parse reuses.
	clone bool
}

// keep returns v for the model to hold.
func (r *reader) keep(v *Value) *Value {
	if r.clone {
		return v.Clone()
	}
	return v
}

// kept returns m for the model to hold in an Extra list.
func (r *reader) kept(m Member) Member {
	return Member{m.Key, r.keep(m.Value)}
}

// typeErr records that the value being read has the wrong JSON type.
func (r *reader) typeErr(want, section string) {
	r.problem("must be "+want, section)
}

// problem records a problem with the value being read.
func (r *reader) problem(msg, section string) {
	r.errs = append(r.errs, &Error{Pointer: r.ptr.String(), Msg: msg, Section: section})
}

// str reads a string member; a mistyped one is reported and kept in extra so
// the document still round-trips.
func (r *reader) str(dst *string, m Member, extra *[]Member) {
	if m.Value.Kind != String {
		r.typeErr("a string", "3")
		*extra = append(*extra, r.kept(m))
		return
	}
	*dst = m.Value.Str
}

func (r *reader) optStr(dst **string, m Member, extra *[]Member) {
	if m.Value.Kind != String {
		r.typeErr("a string", "3")
		*extra = append(*extra, r.kept(m))
		return
	}
	s := m.Value.Str
	*dst = &s
}

func (r *reader) blocks(m Member, extra *[]Member) []*Block {
	if m.Value.Kind != Array {
		r.typeErr("an array of blocks", "2.2")
		*extra = append(*extra, r.kept(m))
		return nil
	}
	out := make([]*Block, 0, len(m.Value.Elems))
	for i, e := range m.Value.Elems {
		r.ptr.pushIndex(i)
		if e.Kind != Object {
			r.typeErr("a block object", "2.2")
		} else {
			out = append(out, r.block(e))
		}
		r.ptr.pop()
	}
	return out
}

func (r *reader) block(v *Value) *Block {
	b := &Block{}
	for _, m := range v.Members {
		r.ptr.pushKey(m.Key)
		switch m.Key {
		case "id":
			r.str(&b.ID, m, &b.Extra)
		case "kind":
			r.str(&b.Kind, m, &b.Extra)
		case "level":
			if n, ok := intValue(m.Value); ok {
				b.Level = &n
			} else {
				r.typeErr("an integer", "2.2")
				b.Extra = append(b.Extra, r.kept(m))
			}
		case "ordered":
			if m.Value.Kind == Bool {
				o := m.Value.Bool
				b.Ordered = &o
			} else {
				r.typeErr("a boolean", "2.2")
				b.Extra = append(b.Extra, r.kept(m))
			}
		case "language":
			r.optStr(&b.Language, m, &b.Extra)
		case "target":
			r.optStr(&b.Target, m, &b.Extra)
		case "text":
			r.optStr(&b.Text, m, &b.Extra)
		case "spans":
			b.Spans = r.spans(m, &b.Extra)
		case "items":
			b.Items = r.blocks(m, &b.Extra)
		case "blocks":
			b.Blocks = r.blocks(m, &b.Extra)
		default:
			b.Extra = append(b.Extra, r.kept(m))
		}
		r.ptr.pop()
	}
	return b
}

// intValue returns the value of an integral JSON number that fits an int.
func intValue(v *Value) (int, bool) {
	if v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

func (r *reader) spans(m Member, extra *[]Member) []*Span {
	if m.Value.Kind != Array {
		r.typeErr("an array of spans", "2.3")
		*extra = append(*extra, r.kept(m))
		return nil
	}
	out := make([]*Span, 0, len(m.Value.Elems))
	for i, e := range m.Value.Elems {
		r.ptr.pushIndex(i)
		if e.Kind != Object {
			r.typeErr("a span object", "2.3")
		} else {
			out = append(out, r.span(e))
		}
		r.ptr.pop()
	}
	return out
}

func (r *reader) span(v *Value) *Span {
	s := &Span{}
	hasText := false
	for _, m := range v.Members {
		r.ptr.pushKey(m.Key)
		switch m.Key {
		case "id":
			r.str(&s.ID, m, &s.Extra)
		case "text":
			hasText = true
			switch m.Value.Kind {
			case Null:
			case String:
				t := m.Value.Str
				s.Text = &t
			default:
				r.typeErr("a string, or null for a tombstone", "2.3")
				s.Extra = append(s.Extra, r.kept(m))
			}
		case "marks":
			if m.Value.Kind != Array {
				r.typeErr("an array of marks", "2.5")
				s.Extra = append(s.Extra, r.kept(m))
				break
			}
			s.Marks = make([]*Mark, 0, len(m.Value.Elems))
			for i, e := range m.Value.Elems {
				r.ptr.pushIndex(i)
				s.Marks = append(s.Marks, r.mark(e))
				r.ptr.pop()
			}
		default:
			s.Extra = append(s.Extra, r.kept(m))
		}
		r.ptr.pop()
	}
	if !hasText {
		r.problem(`missing required member "text"`, "2.3")
	}
	return s
}

func (r *reader) mark(v *Value) *Mark {
	switch v.Kind {
	case String:
		return &Mark{Name: v.Str}
	case Object:
		if k := v.Get("kind"); k == nil || k.Kind != String || k.Str != "link" {
			return &Mark{Raw: r.keep(v)}
		}
		l := &Link{}
		hasTarget := false
		for _, m := range v.Members {
			r.ptr.pushKey(m.Key)
			switch m.Key {
			case "kind":
			case "target":
				hasTarget = true
				r.str(&l.Target, m, &l.Extra)
			case "predicate":
				r.optStr(&l.Predicate, m, &l.Extra)
			default:
				l.Extra = append(l.Extra, r.kept(m))
			}
			r.ptr.pop()
		}
		if !hasTarget {
			r.problem(`link mark is missing "target"`, "2.5.1")
		}
		return &Mark{Link: l}
	}
	return &Mark{Raw: r.keep(v)}
}

func (r *reader) edges(m Member, extra *[]Member) []*Edge {
	if m.Value.Kind != Array {
		r.typeErr("an array of edges", "2.4")
		*extra = append(*extra, r.kept(m))
		return nil
	}
	out := make([]*Edge, 0, len(m.Value.Elems))
	for i, e := range m.Value.Elems {
		r.ptr.pushIndex(i)
		if e.Kind != Object {
			r.typeErr("an edge object", "2.4")
		} else {
			out = append(out, r.edge(e))
		}
		r.ptr.pop()
	}
	return out
}

func (r *reader) edge(v *Value) *Edge {
	e := &Edge{}
	var has [3]bool // subject, predicate, object
	for _, m := range v.Members {
		r.ptr.pushKey(m.Key)
		switch m.Key {
		case "subject":
			has[0] = true
			r.str(&e.Subject, m, &e.Extra)
		case "predicate":
			has[1] = true
			r.str(&e.Predicate, m, &e.Extra)
		case "object":
			has[2] = true
			r.str(&e.Object, m, &e.Extra)
		case "meta":
			if m.Value.Kind != Object {
				r.typeErr("an object", "6.1")
			}
			e.Meta = r.keep(m.Value)
		default:
			e.Extra = append(e.Extra, r.kept(m))
		}
		r.ptr.pop()
	}
	for i, k := range []string{"subject", "predicate", "object"} {
		if !has[i] {
			r.problem(fmt.Sprintf("missing required member %q", k), "6.1")
		}
	}
	return e
}

// BlockFromValue reads one block from a JSON value; problems are returned.
func BlockFromValue(v *Value) (*Block, Errors) {
	r := &reader{}
	if v.Kind != Object {
		return nil, Errors{{Msg: "must be a block object", Section: "2.2"}}
	}
	b := r.block(v)
	return b, r.errs
}

// SpanFromValue reads one span from a JSON value; problems are returned.
func SpanFromValue(v *Value) (*Span, Errors) {
	r := &reader{}
	if v.Kind != Object {
		return nil, Errors{{Msg: "must be a span object", Section: "2.3"}}
	}
	s := r.span(v)
	return s, r.errs
}

// MarkFromValue reads one mark from a JSON value; problems are returned.
func MarkFromValue(v *Value) (*Mark, Errors) {
	r := &reader{}
	m := r.mark(v)
	if m.Raw != nil {
		r.errs = append(r.errs, &Error{Msg: "a mark is \"bold\", \"italic\", \"code\" or a link object", Section: "2.5"})
	}
	return m, r.errs
}

// EdgeFromValue reads one edge from a JSON value; problems are returned.
func EdgeFromValue(v *Value) (*Edge, Errors) {
	r := &reader{}
	if v.Kind != Object {
		return nil, Errors{{Msg: "must be an edge object", Section: "2.4"}}
	}
	e := r.edge(v)
	return e, r.errs
}
