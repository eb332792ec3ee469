package bend

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is the protocol version this package reads (§3).
const Version = "0.1"

// Validate returns every problem in d, in document order: shape problems
// found while parsing, then the rules of §2–§6. Unknown block kinds, unknown
// predicates, unknown vocabularies and unknown URI schemes are not problems.
func Validate(d *Document) Errors {
	v := &validator{doc: d, errs: append(Errors(nil), d.problems...)}
	v.header()
	v.ids()
	d.Walk(func(b *Block, depth int, ptr string) bool {
		v.block(b, ptr)
		return true
	})
	for i, e := range d.Edges {
		v.edge(e, "/edges/"+strconv.Itoa(i))
	}
	return v.errs
}

type validator struct {
	doc  *Document
	errs Errors
	// spans maps a block id to the set of its span ids, for reference checks.
	spans map[string]map[string]bool
}

func (v *validator) add(ptr, section, format string, args ...any) {
	v.errs = append(v.errs, &Error{Pointer: ptr, Msg: fmt.Sprintf(format, args...), Section: section})
}

func (v *validator) header() {
	d := v.doc
	if d.Bendscript != Version {
		v.add("/bendscript", "3", "must be %q, got %q", Version, d.Bendscript)
	}
	if d.ID == "" {
		v.add("/id", "3", "missing required document id")
	}
	if d.Vocabulary == "" {
		v.add("/vocabulary", "2.6", "missing required vocabulary")
	}
	if !d.hasBlocks {
		v.add("/blocks", "3", `missing required member "blocks"`)
	}
	if !d.hasEdges {
		v.add("/edges", "3", `missing required member "edges"`)
	}
}

// ids checks that block ids are unique in the document and span ids unique
// within their block, and records them for reference resolution.
func (v *validator) ids() {
	v.spans = make(map[string]map[string]bool)
	first := make(map[string]string)
	v.doc.Walk(func(b *Block, _ int, ptr string) bool {
		switch {
		case b.ID == "":
			v.add(ptr+"/id", "2.2", "missing required block id")
		case !IsIdent(b.ID):
			v.add(ptr+"/id", "5.2", "block id %q must use only letters, digits, '-' and '_'", b.ID)
		}
		if b.ID != "" {
			if prev, dup := first[b.ID]; dup {
				v.add(ptr+"/id", "5.2", "block id %q is not unique (first at %s)", b.ID, prev)
			} else {
				first[b.ID] = ptr
			}
		}
		set := v.spans[b.ID]
		if set == nil {
			set = make(map[string]bool)
			v.spans[b.ID] = set
		}
		for i, s := range b.Spans {
			sp := ptr + "/spans/" + strconv.Itoa(i) + "/id"
			switch {
			case s.ID == "":
				v.add(sp, "2.3", "missing required span id")
			case !IsIdent(s.ID):
				v.add(sp, "5.3", "span id %q must use only letters, digits, '-' and '_'", s.ID)
			case set[s.ID]:
				v.add(sp, "5.3", "span id %q is not unique within block %q", s.ID, b.ID)
			}
			set[s.ID] = true
		}
		return true
	})
}

func (v *validator) block(b *Block, ptr string) {
	if b.Kind == "" {
		v.add(ptr+"/kind", "2.2", "missing required block kind")
	}
	switch b.Kind {
	case KindParagraph, KindHeading:
		if b.Spans == nil {
			v.add(ptr, "2.2", "a %s needs \"spans\"", b.Kind)
		}
		if b.Kind == KindHeading && (b.Level == nil || *b.Level < 1 || *b.Level > 6) {
			v.add(ptr+"/level", "2.2", "a heading needs a level from 1 to 6")
		}
	case KindList:
		if b.Ordered == nil {
			v.add(ptr, "2.2", `a list needs "ordered" (a boolean)`)
		}
		if b.Items == nil {
			v.add(ptr, "2.2", `a list needs "items"`)
		}
		for i, it := range b.Items {
			if it.Kind != KindListItem {
				v.add(ptr+"/items/"+strconv.Itoa(i)+"/kind", "2.2", "list items must be of kind list-item, got %q", it.Kind)
			}
		}
	case KindListItem, KindQuote:
		if b.Blocks == nil {
			v.add(ptr, "2.2", "a %s needs \"blocks\"", b.Kind)
		}
	case KindCode:
		if b.Text == nil {
			v.add(ptr, "2.2", `a code block needs "text" (a string)`)
		}
		if b.Language == nil {
			v.add(ptr, "2.2", `a code block needs "language"`)
		}
		if b.Spans != nil {
			v.add(ptr+"/spans", "2.2", "a code block has no spans")
		}
	case KindEmbed:
		if b.Target == nil {
			v.add(ptr, "2.2", `an embed needs "target"`)
		}
	}
	if b.Target != nil {
		v.ref(*b.Target, ptr+"/target")
	}
	for i, s := range b.Spans {
		sp := ptr + "/spans/" + strconv.Itoa(i)
		for j, m := range s.Marks {
			v.mark(m, sp+"/marks/"+strconv.Itoa(j))
		}
	}
}

func (v *validator) mark(m *Mark, ptr string) {
	switch {
	case m.Raw != nil:
		v.add(ptr, "2.5", "a mark is one of \"bold\", \"italic\", \"code\" or a {\"kind\": \"link\"} object")
	case m.Link != nil:
		v.ref(m.Link.Target, ptr+"/target")
		if m.Link.Predicate != nil {
			v.predicate(*m.Link.Predicate, ptr+"/predicate")
		}
	default:
		switch m.Name {
		case "bold", "italic", "code":
		case "link":
			v.add(ptr, "2.5.1", "a link mark is an object with a target")
		default:
			v.add(ptr, "2.5", "unknown mark %q: marks are bold, italic, code and link only", m.Name)
		}
	}
}

func (v *validator) edge(e *Edge, ptr string) {
	if e.Subject != "" {
		v.ref(e.Subject, ptr+"/subject")
	}
	if e.Object != "" {
		v.ref(e.Object, ptr+"/object")
	}
	if e.Predicate != "" {
		v.predicate(e.Predicate, ptr+"/predicate")
	}
}

// predicate checks the form of a predicate: a bare name (core) or
// <vocab>:<name>. Unknown names of a valid form are preserved, not errors.
func (v *validator) predicate(p, ptr string) {
	vocab, name, namespaced := strings.Cut(p, ":")
	if !namespaced {
		name, vocab = vocab, ""
	}
	if !isName(name) || (namespaced && !isVocab(vocab)) {
		v.add(ptr, "6.1", "predicate %q is neither a core name nor <vocabulary>:<name>", p)
	}
}

// ref checks a reference's syntax and, for references into this document,
// that the block or span exists (§6.4 calls such a reference broken).
func (v *validator) ref(s, ptr string) {
	r, ok := ParseRef(s)
	if !ok {
		if strings.HasPrefix(s, "bend:") {
			v.add(ptr, "5.4", "%q is not a valid bend: reference (bend:<doc-id>[#<block-id>[.<span-id>]])", s)
		} else {
			v.add(ptr, "5.4", "%q is not an addressable reference (a bend: URI or an absolute URI)", s)
		}
		return
	}
	if !r.IsSelf(v.doc.ID) || r.Block == "" {
		return
	}
	spans, ok := v.spans[r.Block]
	if !ok {
		v.add(ptr, "6.4", "broken reference %q: no block %q in this document", s, r.Block)
		return
	}
	if r.Span != "" && !spans[r.Span] {
		v.add(ptr, "6.4", "broken reference %q: block %q has no span %q", s, r.Block, r.Span)
	}
}

// isName reports whether s is a predicate name: lower-case letters, digits
// and '-', starting with a letter.
func isName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isVocab reports whether s is a vocabulary name: dot-separated names
// (bendscript.argument.v1, com.example.my-vocab).
func isVocab(s string) bool {
	for _, part := range strings.Split(s, ".") {
		if !isName(part) {
			return false
		}
	}
	return true
}
