package bend

import (
	"bytes"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"slices"

	"github.com/gowebpki/jcs"
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
	relativizeTargets(blocks.Elems, self)
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
		k, err := jcs.Transform(MarshalValue(v))
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

// relativizeTargets rewrites, in block values built by Block.Value, the
// embed targets and link-mark targets with fn. It follows the same members
// the typed model reads (target, spans/marks, items, blocks), skipping any
// that a block keeps verbatim in Extra because of a wrong JSON type.
func relativizeTargets(blocks []*Value, fn func(string) string) {
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
				relativizeTargets(c.Elems, fn)
			}
		}
	}
}

// Canonical returns the RFC 8785 serialization of d's identity form.
func Canonical(d *Document) ([]byte, error) {
	v, err := IdentityForm(d)
	if err != nil {
		return nil, err
	}
	c, err := jcs.Transform(MarshalValue(v))
	if err != nil {
		return nil, fmt.Errorf("canonicalizing document: %w", err)
	}
	return c, nil
}

// ID computes d's content id (§5.1): a CIDv1 of its canonical identity form,
// multicodec json (0x0200), multihash sha2-256, multibase base32 lower.
func ID(d *Document) (string, error) {
	c, err := Canonical(d)
	if err != nil {
		return "", err
	}
	return CID(c), nil
}

// CID returns the CIDv1 string (base32 lower, json codec, sha2-256) of data.
func CID(data []byte) string {
	sum := sha256.Sum256(data)
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
	d.Walk(func(b *Block, _ int, _ string) bool {
		if b.Target != nil {
			t := fix(*b.Target)
			b.Target = &t
		}
		for _, s := range b.Spans {
			for _, m := range s.Marks {
				if m.Link != nil {
					m.Link.Target = fix(m.Link.Target)
				}
			}
		}
		return true
	})
	for _, e := range d.Edges {
		e.Subject, e.Object = fix(e.Subject), fix(e.Object)
	}
	d.ID = id
}
