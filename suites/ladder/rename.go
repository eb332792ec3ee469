package ladder

import (
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// renamer gives one copy of a corpus document its ids: every block and span
// id gets the copy's prefix, and every reference into the source document
// follows.
type renamer struct {
	prefix string // the copy's name and a hyphen, e.g. "d02r1-"
	src    string // the source document's declared id
	// self is the document id that absolute self-references name after
	// renaming: the rung's id, or "" to make every self-reference relative
	// (gold edits, which FORMAT.md writes relative).
	self string
}

func (r renamer) id(s string) string { return r.prefix + s }

// ref rewrites a reference. A bend: reference into the source document
// (relative, or naming its declared id) with a fragment points at the same
// block or span of the copy, in the same form (relative stays relative). A
// reference to the whole source document names that document by its id: the
// rung contains the document's blocks but is not the document, so an edge
// such as "this document supersedes its previous version" stays a statement
// about the source document (§6.1 allows an external subject for an edge the
// document reports). Every other reference is left as it is.
func (r renamer) ref(s string) string {
	ref, ok := bend.ParseRef(s)
	if !ok || !ref.IsSelf(r.src) {
		return s
	}
	if ref.Block == "" {
		if r.src == "" {
			return s
		}
		return "bend:" + r.src
	}
	out := bend.Ref{Bend: true, Block: r.id(ref.Block)}
	if ref.Doc != "" {
		out.Doc = r.self
	}
	if ref.Span != "" {
		out.Span = r.id(ref.Span)
	}
	return out.String()
}

// blocks renames blocks in place, with their descendants.
func (r renamer) blocks(bs []*bend.Block) {
	for _, b := range bs {
		b.ID = r.id(b.ID)
		if b.Target != nil {
			t := r.ref(*b.Target)
			b.Target = &t
		}
		for _, s := range b.Spans {
			r.span(s)
		}
		r.blocks(b.Items)
		r.blocks(b.Blocks)
	}
}

func (r renamer) span(s *bend.Span) {
	s.ID = r.id(s.ID)
	for _, m := range s.Marks {
		r.mark(m)
	}
}

func (r renamer) mark(m *bend.Mark) {
	if m.Link != nil {
		m.Link.Target = r.ref(m.Link.Target)
	}
}

// edge renames an edge in place. Self-references among the string values of
// its meta are rewritten too, so that evidence lists and the like keep
// pointing at the copy; nothing in core requires them to resolve, but a
// reader would follow them. They become relative: edge meta is part of the
// hashed identity form, and the id form makes only subjects, objects and
// targets relative, so an absolute reference there could never name the
// rung's own content id.
func (r renamer) edge(e *bend.Edge) {
	e.Subject, e.Object = r.ref(e.Subject), r.ref(e.Object)
	if e.Meta != nil {
		renamer{prefix: r.prefix, src: r.src}.value(e.Meta)
	}
}

func (r renamer) value(v *bend.Value) {
	switch v.Kind {
	case bend.String:
		if strings.HasPrefix(v.Str, "bend:") {
			v.Str = r.ref(v.Str)
		}
	case bend.Array:
		for _, e := range v.Elems {
			r.value(e)
		}
	case bend.Object:
		for _, m := range v.Members {
			r.value(m.Value)
		}
	}
}
