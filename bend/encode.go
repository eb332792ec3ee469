package bend

import "strconv"

// Marshal serializes d as JSON indented by two spaces, with a final newline.
// Members come in the order of §3 (bendscript, id, vocabulary, title, meta,
// blocks, edges; within blocks id, kind, then content), followed by unknown
// members in their input order.
func Marshal(d *Document) []byte {
	return append(MarshalValueIndent(d.Value()), '\n')
}

// MarshalCompact serializes d without insignificant whitespace.
func MarshalCompact(d *Document) []byte {
	return MarshalValue(d.Value())
}

// Value returns d as an ordered JSON value.
func (d *Document) Value() *Value {
	o := &Value{Kind: Object}
	add := adder(o, d.Extra)
	add("bendscript", StringValue(d.Bendscript))
	add("id", StringValue(d.ID))
	add("vocabulary", StringValue(d.Vocabulary))
	if d.Title != nil {
		add("title", StringValue(*d.Title))
	}
	if d.Meta != nil {
		add("meta", d.Meta)
	}
	add("blocks", BlocksValue(d.Blocks))
	add("edges", EdgesValue(d.Edges))
	o.Members = append(o.Members, d.Extra...)
	return o
}

// BlocksValue returns blocks as a JSON array (never null).
func BlocksValue(bs []*Block) *Value {
	a := &Value{Kind: Array, Elems: make([]*Value, len(bs))}
	for i, b := range bs {
		a.Elems[i] = b.Value()
	}
	return a
}

// EdgesValue returns edges as a JSON array (never null).
func EdgesValue(es []*Edge) *Value {
	a := &Value{Kind: Array, Elems: make([]*Value, len(es))}
	for i, e := range es {
		a.Elems[i] = e.Value()
	}
	return a
}

// Value returns b as an ordered JSON value.
func (b *Block) Value() *Value {
	o := &Value{Kind: Object}
	add := adder(o, b.Extra)
	add("id", StringValue(b.ID))
	add("kind", StringValue(b.Kind))
	if b.Level != nil {
		add("level", &Value{Kind: Number, Str: strconv.Itoa(*b.Level)})
	}
	if b.Ordered != nil {
		add("ordered", &Value{Kind: Bool, Bool: *b.Ordered})
	}
	if b.Language != nil {
		add("language", StringValue(*b.Language))
	}
	if b.Target != nil {
		add("target", StringValue(*b.Target))
	}
	if b.Spans != nil {
		a := &Value{Kind: Array, Elems: make([]*Value, len(b.Spans))}
		for i, s := range b.Spans {
			a.Elems[i] = s.Value()
		}
		add("spans", a)
	}
	if b.Items != nil {
		add("items", BlocksValue(b.Items))
	}
	if b.Blocks != nil {
		add("blocks", BlocksValue(b.Blocks))
	}
	if b.Text != nil {
		add("text", StringValue(*b.Text))
	}
	o.Members = append(o.Members, b.Extra...)
	return o
}

// Value returns s as an ordered JSON value; a tombstone's text is null.
func (s *Span) Value() *Value {
	o := &Value{Kind: Object}
	add := adder(o, s.Extra)
	add("id", StringValue(s.ID))
	text := &Value{Kind: Null}
	if s.Text != nil {
		text = StringValue(*s.Text)
	}
	add("text", text)
	if s.Marks != nil {
		a := &Value{Kind: Array, Elems: make([]*Value, len(s.Marks))}
		for i, m := range s.Marks {
			a.Elems[i] = m.Value()
		}
		add("marks", a)
	}
	o.Members = append(o.Members, s.Extra...)
	return o
}

// Value returns m as a JSON value: a string, or a link object.
func (m *Mark) Value() *Value {
	switch {
	case m.Raw != nil:
		return m.Raw
	case m.Link != nil:
		o := &Value{Kind: Object}
		add := adder(o, m.Link.Extra)
		add("kind", StringValue("link"))
		add("target", StringValue(m.Link.Target))
		if m.Link.Predicate != nil {
			add("predicate", StringValue(*m.Link.Predicate))
		}
		o.Members = append(o.Members, m.Link.Extra...)
		return o
	}
	return StringValue(m.Name)
}

// Value returns e as an ordered JSON value.
func (e *Edge) Value() *Value {
	o := &Value{Kind: Object}
	add := adder(o, e.Extra)
	add("subject", StringValue(e.Subject))
	add("predicate", StringValue(e.Predicate))
	add("object", StringValue(e.Object))
	if e.Meta != nil {
		add("meta", e.Meta)
	}
	o.Members = append(o.Members, e.Extra...)
	return o
}

// Clone returns a deep copy of d.
func (d *Document) Clone() *Document {
	c := FromValue(d.Value().Clone())
	c.problems = append(Errors(nil), d.problems...)
	c.hasBlocks, c.hasEdges = d.hasBlocks, d.hasEdges
	return c
}

// adder returns a function that appends a known member to o, unless extra
// already holds a member of that name: a known member with the wrong JSON
// type is kept verbatim in extra and must not be written twice.
func adder(o *Value, extra []Member) func(string, *Value) {
	return func(k string, v *Value) {
		for _, m := range extra {
			if m.Key == k {
				return
			}
		}
		o.Members = append(o.Members, Member{k, v})
	}
}
