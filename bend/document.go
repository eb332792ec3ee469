package bend

import (
	"strconv"
	"strings"
)

// Document is a parsed .bend record (§3). Known fields are typed; every other
// member of every object is kept, in input order, in Extra, so that parse →
// serialize loses nothing (§2.2, §2.4, §5.4).
type Document struct {
	Bendscript string
	ID         string
	Vocabulary string
	Title      *string
	Meta       *Value // nil when absent; kept verbatim, excluded from the id (§5.1)
	Blocks     []*Block
	Edges      []*Edge
	Extra      []Member

	// problems found while reading the record into the typed model (wrong
	// JSON types, missing required members); Validate reports them.
	problems Errors
	// present records which required top-level members were present.
	hasBlocks, hasEdges bool
}

// Block is a structural unit (§2.2). Fields that only some kinds use are nil
// when absent; a nil slice means the member was absent, an empty non-nil
// slice means it was present and empty.
type Block struct {
	ID       string
	Kind     string
	Level    *int     // heading
	Ordered  *bool    // list
	Language *string  // code
	Target   *string  // embed
	Spans    []*Span  // paragraph, heading, and vocabulary kinds that carry text
	Items    []*Block // list
	Blocks   []*Block // list-item, quote
	Text     *string  // code
	Extra    []Member
}

// Span is an addressable run of text (§2.3). Text is nil for a tombstone
// (§5.3).
type Span struct {
	ID    string
	Text  *string
	Marks []*Mark // nil when absent
	Extra []Member
}

// Mark is inline formatting (§2.5): either a plain mark named by a string
// (bold, italic, code) or a link object. Raw keeps a mark that is neither, so
// that an invalid document still round-trips.
type Mark struct {
	Name string // "bold", "italic", "code" (or an unknown string, reported)
	Link *Link
	Raw  *Value
}

// Link is the data of a link mark (§2.5.1). A nil Predicate is an untyped
// link, and stays untyped.
type Link struct {
	Target    string
	Predicate *string
	Extra     []Member
}

// Edge is a typed graph link (§2.4, §6.1).
type Edge struct {
	Subject   string
	Predicate string
	Object    string
	Meta      *Value // nil when absent
	Extra     []Member
}

// The core block kinds (§2.2).
const (
	KindParagraph = "paragraph"
	KindHeading   = "heading"
	KindList      = "list"
	KindListItem  = "list-item"
	KindCode      = "code"
	KindQuote     = "quote"
	KindEmbed     = "embed"
	KindDivider   = "divider"
)

// CorePredicates are the nine predicates of the core vocabulary (§2.4, §6.2).
var CorePredicates = []string{
	"cites", "supports", "contradicts", "derives-from", "supersedes",
	"transcludes", "responds-to", "defines", "exemplifies",
}

// IsCorePredicate reports whether p is one of the nine core predicates.
func IsCorePredicate(p string) bool {
	for _, c := range CorePredicates {
		if c == p {
			return true
		}
	}
	return false
}

// Children returns the nested blocks of b in document order: list items
// first, then nested blocks.
func (b *Block) Children() []*Block {
	if len(b.Items) == 0 {
		return b.Blocks
	}
	if len(b.Blocks) == 0 {
		return b.Items
	}
	out := make([]*Block, 0, len(b.Items)+len(b.Blocks))
	out = append(out, b.Items...)
	return append(out, b.Blocks...)
}

// HasText reports whether b holds text of its own: a "spans" array or a
// code block's "text".
func (b *Block) HasText() bool { return b.Spans != nil || b.Text != nil }

// PlainText returns the text b holds itself: its spans' texts joined (a
// tombstone adds nothing), then its code text. Nested blocks are not
// included. The metric's text projection, the judge's grounding and the
// natural tasks' quotes all read block text through it.
func (b *Block) PlainText() string {
	var sb strings.Builder
	for _, s := range b.Spans {
		if s.Text != nil {
			sb.WriteString(*s.Text)
		}
	}
	if b.Text != nil {
		sb.WriteString(*b.Text)
	}
	return sb.String()
}

// Walk calls fn for every block of the document in pre-order (a block before
// its children), with its nesting depth (0 for top-level blocks) and its JSON
// pointer. Walk stops early when fn returns false.
func (d *Document) Walk(fn func(b *Block, depth int, ptr string) bool) {
	walkBlocks(d.Blocks, 0, "/blocks", fn)
}

func walkBlocks(bs []*Block, depth int, ptr string, fn func(*Block, int, string) bool) bool {
	for i, b := range bs {
		p := ptr + "/" + strconv.Itoa(i)
		if !fn(b, depth, p) {
			return false
		}
		if !walkBlocks(b.Items, depth+1, p+"/items", fn) {
			return false
		}
		if !walkBlocks(b.Blocks, depth+1, p+"/blocks", fn) {
			return false
		}
	}
	return true
}

// FindBlock returns the block with the given id anywhere in the tree, or nil.
// It builds no pointers (Walk does): an answer of many operations calls it
// once or twice per operation (issue 32).
func (d *Document) FindBlock(id string) *Block { return findBlock(d.Blocks, id) }

func findBlock(bs []*Block, id string) *Block {
	for _, b := range bs {
		if b.ID == id {
			return b
		}
		if f := findBlock(b.Items, id); f != nil {
			return f
		}
		if f := findBlock(b.Blocks, id); f != nil {
			return f
		}
	}
	return nil
}

// FindSpan returns the span with the given id in block b, or nil.
func (b *Block) FindSpan(id string) *Span {
	if b == nil {
		return nil
	}
	for _, s := range b.Spans {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// Resolves reports whether ref names a block or span of d. ref is a short
// reference as answers cite them ("blk-x", "blk-x.spn-y") or a bend:
// reference into d (relative, or naming d's declared id).
// MapRefs replaces, in place, every reference d holds (embed targets, link
// mark targets, edge subjects and objects) with fn of it.
func (d *Document) MapRefs(fn func(string) string) {
	for _, b := range d.Blocks {
		b.MapRefs(fn)
	}
	for _, e := range d.Edges {
		e.Subject, e.Object = fn(e.Subject), fn(e.Object)
	}
}

// MapRefs replaces, in place, every reference b and its descendants hold
// (embed targets, link mark targets) with fn of it.
func (b *Block) MapRefs(fn func(string) string) {
	if b.Target != nil {
		t := fn(*b.Target)
		b.Target = &t
	}
	for _, s := range b.Spans {
		for _, m := range s.Marks {
			if m.Link != nil {
				m.Link.Target = fn(m.Link.Target)
			}
		}
	}
	for _, c := range b.Children() {
		c.MapRefs(fn)
	}
}

// CitesEdge reports whether ev names an edge of d as its subject,
// predicate and object separated by white space ("bend:#blk-b204 supports
// bend:#blk-b203"): class A evidence that lives in an edge. A subject or
// object that names d itself may be written in the absolute or the relative
// form, or as a bare block or span id ("blk-b204").
func (d *Document) CitesEdge(ev string) bool {
	f := strings.Fields(ev)
	if len(f) != 3 {
		return false
	}
	norm := func(s string) string {
		if !strings.Contains(s, ":") && d.FindBlock(strings.SplitN(s, ".", 2)[0]) != nil {
			return "bend:#" + s
		}
		return Relative(s, d.ID)
	}
	for _, e := range d.Edges {
		if norm(f[0]) == Relative(e.Subject, d.ID) && f[1] == e.Predicate && norm(f[2]) == Relative(e.Object, d.ID) {
			return true
		}
	}
	return false
}

func (d *Document) Resolves(ref string) bool {
	if r, ok := ParseRef(ref); ok && r.Bend {
		if !r.IsSelf(d.ID) || r.Block == "" {
			return false
		}
		ref = r.Block
		if r.Span != "" {
			ref += "." + r.Span
		}
	}
	blk, spn, hasSpan := strings.Cut(ref, ".")
	b := d.FindBlock(blk)
	if b == nil {
		return false
	}
	return !hasSpan || b.FindSpan(spn) != nil
}
