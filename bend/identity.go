package bend

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"slices"
	"strconv"
)

// LinkEdges returns the edges that the typed link marks of d expand to
// (§2.5.1): subject the span (as a relative reference), predicate the mark's
// predicate, object its target. Untyped links yield no edge.
func LinkEdges(d *Document) []*Edge {
	var out []*Edge
	d.Walk(func(b *Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			for _, m := range s.Marks {
				if m.Link == nil || m.Link.Predicate == nil {
					continue
				}
				out = append(out, &Edge{
					Subject:   SpanRef(b.ID, s.ID),
					Predicate: *m.Link.Predicate,
					Object:    m.Link.Target,
				})
			}
		}
		return true
	})
	return out
}

// Normalize returns a copy of d in normalized form (§2.5.1): the edges of its
// typed link marks appended to Edges. Link marks are left as they are.
func Normalize(d *Document) *Document {
	n := d.Clone()
	n.Edges = append(n.Edges, LinkEdges(n)...)
	return n
}

// IdentityForm returns the {"blocks", "edges"} record that the id hashes,
// following the rule in docs/interpretations.md (§5.1):
//  1. the normalized form (link-mark edges added to edges);
//  2. every bend: reference naming the document's own declared id, in edge
//     subjects and objects, link-mark targets and embed targets, rewritten to
//     the relative form (bend:<id>#x → bend:#x, bend:<id> → bend:);
//  3. edges sorted by the bytes of their RFC 8785 serialization, exact
//     duplicates dropped.
func IdentityForm(d *Document) (*Value, error) {
	self := func(s string) string { return Relative(s, d.ID) }
	blocks := BlocksValue(d.Blocks)
	// The values built above are fresh, apart from Extra and meta members
	// they share with d; only fresh target strings are rewritten.
	MapValueTargets(blocks.Elems, self)
	all := append(append([]*Edge(nil), d.Edges...), LinkEdges(d)...)
	type keyed struct {
		key []byte
		v   *Value
	}
	edges := make([]keyed, 0, len(all))
	for _, e := range all {
		c := *e
		c.Subject, c.Object = self(e.Subject), self(e.Object)
		v := c.Value()
		k, err := CanonicalValue(v)
		if err != nil {
			return nil, fmt.Errorf("canonicalizing edge: %w", err)
		}
		edges = append(edges, keyed{k, v})
	}
	slices.SortFunc(edges, func(a, b keyed) int { return bytes.Compare(a.key, b.key) })
	edges = slices.CompactFunc(edges, func(a, b keyed) bool { return bytes.Equal(a.key, b.key) })
	ev := &Value{Kind: Array, Elems: make([]*Value, len(edges))}
	for i, e := range edges {
		ev.Elems[i] = e.v
	}
	return &Value{Kind: Object, Members: []Member{
		{"blocks", blocks},
		{"edges", ev},
	}}, nil
}

// MapValueTargets rewrites, in block values built by Block.Value, the
// embed targets and link-mark targets with fn. It follows the same members
// the typed model reads (target, spans/marks, items, blocks), skipping any
// that a block keeps verbatim in Extra because of a wrong JSON type.
func MapValueTargets(blocks []*Value, fn func(string) string) {
	for _, b := range blocks {
		if b.Kind != Object {
			continue
		}
		if t := b.Get("target"); t != nil && t.Kind == String {
			t.Str = fn(t.Str)
		}
		if spans := b.Get("spans"); spans != nil && spans.Kind == Array {
			for _, s := range spans.Elems {
				marks := s.Get("marks")
				if marks == nil || marks.Kind != Array {
					continue
				}
				for _, m := range marks.Elems {
					if k := m.Get("kind"); k == nil || k.Kind != String || k.Str != "link" {
						continue
					}
					if t := m.Get("target"); t != nil && t.Kind == String {
						t.Str = fn(t.Str)
					}
				}
			}
		}
		for _, key := range []string{"items", "blocks"} {
			if c := b.Get(key); c != nil && c.Kind == Array {
				MapValueTargets(c.Elems, fn)
			}
		}
	}
}

// Canonical returns the RFC 8785 serialization of d's identity form: the
// bytes of CanonicalValue(IdentityForm(d)), written in one pass from the
// typed model without building the identity form.
func Canonical(d *Document) ([]byte, error) {
	c := canon{self: d.ID}
	c.identity(d)
	if c.err != nil {
		return nil, fmt.Errorf("canonicalizing document: %w", c.err)
	}
	return c.buf, nil
}

// ID computes d's content id (§5.1): a CIDv1 of its canonical identity form,
// multicodec json (0x0200), multihash sha2-256, multibase base32 lower.
// The canonical bytes are hashed as they are written, never held whole.
func ID(d *Document) (string, error) {
	h := sha256.New()
	c := canon{self: d.ID, sink: h, buf: make([]byte, 0, flushAt+flushAt/4)}
	c.identity(d)
	if c.err != nil {
		return "", fmt.Errorf("canonicalizing document: %w", c.err)
	}
	h.Write(c.buf)
	var sum [sha256.Size]byte
	return cidOfSum(h.Sum(sum[:0])), nil
}

// identity writes the canonical form of IdentityForm(d).
func (c *canon) identity(d *Document) {
	c.buf = append(c.buf, `{"blocks":`...)
	c.blocks(d.Blocks)
	c.buf = append(c.buf, `,"edges":`...)
	c.edges(d)
	c.buf = append(c.buf, '}')
}

// edges writes the identity form's edges (steps 1 and 3): the explicit
// edges and those of typed link marks, each canonicalized into a scratch
// buffer, then sorted by those bytes with exact duplicates dropped.
func (c *canon) edges(d *Document) {
	ec := canon{self: c.self, order: c.order}
	spans := make([][2]int, 0, len(d.Edges))
	add := func(subject, predicate, object string, meta *Value, extra []Member) {
		start := len(ec.buf)
		ec.edge(subject, predicate, object, meta, extra)
		spans = append(spans, [2]int{start, len(ec.buf)})
	}
	for _, e := range d.Edges {
		add(e.Subject, e.Predicate, e.Object, e.Meta, e.Extra)
	}
	var walk func([]*Block)
	walk = func(bs []*Block) {
		for _, b := range bs {
			for _, s := range b.Spans {
				for _, m := range s.Marks {
					if m.Link != nil && m.Link.Predicate != nil {
						add(SpanRef(b.ID, s.ID), *m.Link.Predicate, m.Link.Target, nil, nil)
					}
				}
			}
			walk(b.Items)
			walk(b.Blocks)
		}
	}
	walk(d.Blocks)
	if ec.err != nil && c.err == nil {
		c.err = ec.err
	}
	key := func(s [2]int) []byte { return ec.buf[s[0]:s[1]] }
	slices.SortFunc(spans, func(a, b [2]int) int { return bytes.Compare(key(a), key(b)) })
	spans = slices.CompactFunc(spans, func(a, b [2]int) bool { return bytes.Equal(key(a), key(b)) })
	c.buf = append(c.buf, '[')
	for i, s := range spans {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.buf = append(c.buf, key(s)...)
		c.flush()
	}
	c.buf = append(c.buf, ']')
}

// The known members of each typed object, in canonical order; put functions
// switch on the index.
var (
	blockKeys = []string{"blocks", "id", "items", "kind", "language", "level", "ordered", "spans", "target", "text"}
	spanKeys  = []string{"id", "marks", "text"}
	linkKeys  = []string{"kind", "predicate", "target"}
	edgeKeys  = []string{"meta", "object", "predicate", "subject"}
)

// present returns the bits for the known members that are set.
func present(set ...bool) uint32 {
	var p uint32
	for i, ok := range set {
		if ok {
			p |= 1 << i
		}
	}
	return p
}

func (c *canon) blocks(bs []*Block) {
	c.buf = append(c.buf, '[')
	for i, b := range bs {
		if i > 0 {
			c.buf = append(c.buf, ',')
		}
		c.block(b)
		c.flush()
	}
	c.buf = append(c.buf, ']')
}

// block writes what b.Value() holds, with its targets relative.
func (c *canon) block(b *Block) {
	p := present(b.Blocks != nil, true, b.Items != nil, true, b.Language != nil,
		b.Level != nil, b.Ordered != nil, b.Spans != nil, b.Target != nil, b.Text != nil)
	object(c, b, blockKeys, p, b.Extra, roleBlock, putBlock)
}

func putBlock(c *canon, b *Block, i int) {
	switch blockKeys[i] {
	case "blocks":
		c.blocks(b.Blocks)
	case "id":
		c.str(b.ID)
	case "items":
		c.blocks(b.Items)
	case "kind":
		c.str(b.Kind)
	case "language":
		c.str(*b.Language)
	case "level":
		c.number(strconv.Itoa(*b.Level))
	case "ordered":
		c.boolean(*b.Ordered)
	case "spans":
		c.buf = append(c.buf, '[')
		for j, s := range b.Spans {
			if j > 0 {
				c.buf = append(c.buf, ',')
			}
			object(c, s, spanKeys, present(true, s.Marks != nil, true), s.Extra, roleSpan, putSpan)
		}
		c.buf = append(c.buf, ']')
	case "target":
		c.ref(*b.Target)
	case "text":
		c.str(*b.Text)
	}
}

func putSpan(c *canon, s *Span, i int) {
	switch spanKeys[i] {
	case "id":
		c.str(s.ID)
	case "marks":
		c.buf = append(c.buf, '[')
		for j, m := range s.Marks {
			if j > 0 {
				c.buf = append(c.buf, ',')
			}
			c.mark(m)
		}
		c.buf = append(c.buf, ']')
	case "text":
		if s.Text == nil {
			c.buf = append(c.buf, "null"...)
		} else {
			c.str(*s.Text)
		}
	}
}

// mark writes what m.Value() holds. A link's target is relative only while
// its kind is "link", which an Extra member "kind" may override.
func (c *canon) mark(m *Mark) {
	switch {
	case m.Raw != nil:
		c.value(m.Raw, roleMark)
	case m.Link != nil:
		l := m.Link
		owner := roleLinkMark
		for _, x := range l.Extra {
			if x.Key == "kind" && !isLinkKind(x.Value) {
				owner = roleNone
			}
		}
		put := putLink
		if owner == roleNone {
			put = putLinkAbsolute
		}
		object(c, l, linkKeys, present(true, l.Predicate != nil, true), l.Extra, owner, put)
	default:
		c.str(m.Name)
	}
}

func putLink(c *canon, l *Link, i int) {
	switch linkKeys[i] {
	case "kind":
		c.buf = append(c.buf, `"link"`...)
	case "predicate":
		c.str(*l.Predicate)
	case "target":
		c.ref(l.Target)
	}
}

func putLinkAbsolute(c *canon, l *Link, i int) {
	if linkKeys[i] == "target" {
		c.str(l.Target)
		return
	}
	putLink(c, l, i)
}

// edgeFields is an edge as the identity form writes it.
type edgeFields struct {
	subject, predicate, object string
	meta                       *Value
}

// edge writes an edge with subject and object relative (Edge.Value).
func (c *canon) edge(subject, predicate, obj string, meta *Value, extra []Member) {
	// By value: a pointer would escape through put.
	f := edgeFields{subject, predicate, obj, meta}
	object(c, f, edgeKeys, present(meta != nil, true, true, true), extra, roleNone, putEdge)
}

func putEdge(c *canon, f edgeFields, i int) {
	switch edgeKeys[i] {
	case "meta":
		c.value(f.meta, roleNone)
	case "object":
		c.ref(f.object)
	case "predicate":
		c.str(f.predicate)
	case "subject":
		c.ref(f.subject)
	}
}

// CID returns the CIDv1 string (base32 lower, json codec, sha2-256) of data.
func CID(data []byte) string {
	sum := sha256.Sum256(data)
	return cidOfSum(sum[:])
}

func cidOfSum(sum []byte) string {
	// version 1, codec 0x0200 as an unsigned varint (0x80 0x04),
	// multihash sha2-256 (0x12) of length 32 (0x20).
	raw := append([]byte{0x01, 0x80, 0x04, 0x12, 0x20}, sum[:]...)
	return "b" + cidBase32.EncodeToString(raw)
}

var cidBase32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// SetID sets d's declared id and rewrites every self-reference that named the
// old id (edge subjects and objects, link and embed targets) to name the new
// one. Relative references stay relative. The computed id does not change,
// since the identity form makes self-references relative.
func SetID(d *Document, id string) {
	old := d.ID
	fix := func(s string) string {
		if r := Relative(s, old); r != s {
			return "bend:" + id + r[len("bend:"):]
		}
		return s
	}
	d.MapRefs(fix)
	d.ID = id
}
