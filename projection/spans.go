package projection

import (
	"fmt"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// The plain marks written as Markdown emphasis, and their delimiters.
var wrappers = []struct{ mark, delim string }{
	{"bold", "**"},
	{"italic", "_"},
	{"code", "`"},
}

func delimOf(mark string) string {
	for _, w := range wrappers {
		if w.mark == mark {
			return w.delim
		}
	}
	return ""
}

// renderSpans writes a block's spans one after the other, with nothing
// between them: [text]{#id}, or [text](target){#id} for a link.
func renderSpans(spans []*bend.Value, ptr string) (string, error) {
	var sb strings.Builder
	for i, s := range spans {
		text, err := renderSpan(s, ptr+"/"+strconv.Itoa(i))
		if err != nil {
			return "", err
		}
		sb.WriteString(text)
	}
	return sb.String(), nil
}

// simpleMarks reports whether marks can be written as Markdown: distinct
// bold, italic and code marks (code innermost, since a code span's text is
// literal), outermost first, then at most one link with a plain target and
// an optional string predicate, and nothing else; text must not be empty
// when there is emphasis. It returns the delimiters and the link.
func simpleMarks(marks *bend.Value, text *bend.Value) (delims []string, link *bend.Value, ok bool) {
	if marks.Kind != bend.Array || len(marks.Elems) == 0 {
		return nil, nil, false
	}
	seen := map[string]bool{}
	for i, m := range marks.Elems {
		if m.Kind == bend.Object && i == len(marks.Elems)-1 && plainLink(m) {
			link = m
			break
		}
		d := ""
		if m.Kind == bend.String {
			d = delimOf(m.Str)
		}
		if d == "" || seen[m.Str] || (len(delims) > 0 && delims[len(delims)-1] == "`") {
			return nil, nil, false
		}
		seen[m.Str] = true
		delims = append(delims, d)
	}
	if len(delims) > 0 && (text == nil || text.Kind != bend.String || text.Str == "") {
		return nil, nil, false
	}
	return delims, link, true
}

// plainLink reports whether a link mark can be written as (target) and a
// predicate attribute: kind "link", a plain target, a string predicate or
// none, no other member.
func plainLink(m *bend.Value) bool {
	for _, x := range m.Members {
		switch x.Key {
		case "kind":
			if x.Value.Kind != bend.String || x.Value.Str != "link" {
				return false
			}
		case "target":
			if x.Value.Kind != bend.String || !isTarget(x.Value.Str) {
				return false
			}
		case "predicate":
			if x.Value.Kind != bend.String {
				return false
			}
		default:
			return false
		}
	}
	return m.Get("kind") != nil && m.Get("target") != nil
}

// renderSpan writes one span. Marks that simpleMarks accepts are emphasis
// and a link; any others are the attribute marks=JSON, as is every member
// but id, text and marks, and a text that is not a string (a tombstone's
// null: text=null).
func renderSpan(s *bend.Value, ptr string) (string, error) {
	if s.Kind != bend.Object {
		return "", &RenderError{ptr, "a span must be an object"}
	}
	id, text, marks := s.Get("id"), s.Get("text"), s.Get("marks")
	if id == nil || id.Kind != bend.String || !bend.IsIdent(id.Str) {
		return "", &RenderError{ptr + "/id", "a span needs an id of letters, digits, '-' and '_'"}
	}
	if text == nil {
		return "", &RenderError{ptr + "/text", "a span needs a text (a string, or null for a tombstone)"}
	}
	var delims []string
	var link *bend.Value
	simple := false
	if marks != nil {
		delims, link, simple = simpleMarks(marks, text)
		if link != nil && s.Get("predicate") != nil {
			// The link's predicate attribute would collide with the span's
			// own member of that name.
			delims, link, simple = nil, nil, false
		}
	}
	a := []string{"#" + id.Str}
	if link != nil && link.Get("predicate") != nil {
		v, _ := attr(bend.Member{Key: "predicate", Value: link.Get("predicate")}, ptr)
		a = append(a, v)
	}
	for _, m := range s.Members {
		if m.Key == "id" || (m.Key == "text" && text.Kind == bend.String) || (m.Key == "marks" && simple) {
			continue
		}
		v, err := attr(m, ptr)
		if err != nil {
			return "", err
		}
		a = append(a, v)
	}
	content := ""
	if text.Kind == bend.String {
		content = escape(text.Str)
	}
	for i := len(delims) - 1; i >= 0; i-- {
		content = delims[i] + content + delims[i]
	}
	out := "[" + content + "]"
	if link != nil {
		out += "(" + link.Get("target").Str + ")"
	}
	return out + "{" + strings.Join(a, " ") + "}", nil
}

// escape writes span text: a backslash before \ [ ] * _ and `, a newline
// as a backslash at the end of the line (Pandoc's hard line break), so
// that no span text makes a blank line, and as \uXXXX the characters the
// harness's terminal filter would escape (control characters, DEL, the
// bidirectional overrides): so the projection prints as it is. A ':' that
// would start a line is written \: for the same filter's "::" rule.
func escape(s string) string {
	var sb strings.Builder
	lineStart := false
	for _, r := range s {
		switch {
		case r == '\\' || r == '[' || r == ']' || r == '*' || r == '_' || r == '`' || r == ':' && lineStart:
			sb.WriteByte('\\')
			sb.WriteRune(r)
		case r == '\n':
			sb.WriteString("\\\n")
		case filtered(r):
			fmt.Fprintf(&sb, "\\u%04x", r)
		default:
			sb.WriteRune(r)
		}
		if r != ' ' && r != '\t' {
			lineStart = r == '\n'
		}
	}
	return sb.String()
}

// filtered reports whether the harness's terminal filter
// (internal/safetext) would escape r: C0 controls but the line break and
// the tab, DEL, C1 controls and the bidirectional overrides and isolates.
func filtered(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// isName is a member name written as an attribute key or a bare
// front-matter key.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// isWord is a kind or a language written bare: a name, with ':' allowed
// (namespaced kinds).
func isWord(s string) bool {
	return s != "" && isName(strings.ReplaceAll(s, ":", "_")) && s[0] != '.' && s[0] != '#'
}

// isBare is a string attribute value written without quotes: a word
// (with '/' and '#' allowed too) that does not read as a JSON literal.
func isBare(s string) bool {
	if s == "" || s == "true" || s == "false" || s == "null" || strings.ContainsAny(s[:1], "-0123456789.") {
		return false
	}
	return isWord(strings.NewReplacer("/", "_", "#", "_").Replace(s))
}

// isTarget is a link or embed target written inside parentheses as it
// is: no white space, no parentheses, brackets or braces, no control
// characters, not empty.
func isTarget(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\r\n()[]{}<>\\\"") && isPrintable(s)
}
