package bend

import "strings"

// Ref is a parsed addressable reference (§5.4).
//
// A bend: reference is bend:<doc-id>[#<block-id>[.<span-id>]]. An empty
// doc-id (bend:, bend:#blk-1, bend:#blk-1.spn-2) is a relative reference to
// the containing document (docs/interpretations.md, §5.1/§5.4).
type Ref struct {
	Bend  bool   // a bend: reference; otherwise an external URI
	Doc   string // bend: document id, "" when relative
	Block string // "" when the reference addresses a whole document
	Span  string // "" unless the reference addresses a span
}

// ParseRef parses s as an addressable reference. ok is false when s is not a
// well-formed bend: reference or absolute URI.
func ParseRef(s string) (r Ref, ok bool) {
	rest, isBend := strings.CutPrefix(s, "bend:")
	if !isBend {
		return Ref{}, isURI(s)
	}
	r.Bend = true
	doc, frag, hasFrag := strings.Cut(rest, "#")
	if doc != "" && !IsIdent(doc) {
		return r, false
	}
	r.Doc = doc
	if !hasFrag {
		return r, true
	}
	blk, spn, hasSpan := strings.Cut(frag, ".")
	if !IsIdent(blk) || (hasSpan && !IsIdent(spn)) {
		return r, false
	}
	r.Block, r.Span = blk, spn
	return r, true
}

// CutRef splits a bend: reference with a fragment,
// bend:<doc>#<block>[.<span>], into its parts without checking them, so
// that placeholders ($new1) and ids being renamed pass through; ok is false
// for anything else. ParseRef is the checking reader.
func CutRef(s string) (doc, block, span string, ok bool) {
	rest, isBend := strings.CutPrefix(s, "bend:")
	if !isBend {
		return "", "", "", false
	}
	doc, frag, hasFrag := strings.Cut(rest, "#")
	if !hasFrag {
		return "", "", "", false
	}
	block, span, _ = strings.Cut(frag, ".")
	return doc, block, span, true
}

// String formats r; relative references keep an empty document part.
func (r Ref) String() string {
	var b strings.Builder
	b.WriteString("bend:")
	b.WriteString(r.Doc)
	if r.Block != "" {
		b.WriteString("#")
		b.WriteString(r.Block)
		if r.Span != "" {
			b.WriteString(".")
			b.WriteString(r.Span)
		}
	}
	return b.String()
}

// IsSelf reports whether r is a bend: reference into the document whose
// declared id is docID (relative, or naming docID).
func (r Ref) IsSelf(docID string) bool {
	return r.Bend && (r.Doc == "" || r.Doc == docID)
}

// Relative rewrites s to the relative form when it is a bend: reference whose
// document part equals docID; any other string is returned unchanged. This is
// step 2 of the identity rule (docs/interpretations.md).
func Relative(s, docID string) string {
	if rest, ok := relativeRest(s, docID); ok {
		return "bend:" + rest
	}
	return s
}

// relativeRest returns what follows "bend:" in the relative form of s, and
// whether Relative rewrites s at all.
func relativeRest(s, docID string) (string, bool) {
	if docID == "" {
		return "", false
	}
	rest, ok := strings.CutPrefix(s, "bend:")
	if !ok {
		return "", false
	}
	after, ok := strings.CutPrefix(rest, docID)
	if !ok || (after != "" && after[0] != '#') {
		return "", false
	}
	return after, true
}

// SpanRef returns the relative reference to span spanID of block blockID.
func SpanRef(blockID, spanID string) string {
	return "bend:#" + blockID + "." + spanID
}

// IsIdent reports whether s is a usable id: ASCII letters, digits, '-' and
// '_', so that it can stand in a bend: URI without escaping (§5.2, §5.4).
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// isURI reports whether s is an absolute URI: a scheme (RFC 3986:
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )), a colon, and no white space.
// Unknown schemes are accepted and preserved (§5.4).
func isURI(s string) bool {
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || scheme == "" || rest == "" {
		return false
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !(alpha || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return !strings.ContainsAny(rest, " \t\r\n")
}

// RelativeTo rewrites s to the relative form when it is a bend: reference
// naming any of the given document ids (see Relative).
func RelativeTo(s string, ids ...string) string {
	for _, id := range ids {
		if r := Relative(s, id); r != s {
			return r
		}
	}
	return s
}
