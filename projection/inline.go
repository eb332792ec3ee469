package projection

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/bend"
)

// cursor walks a block's lines from a column, for spans that go on over
// lines.
type cursor struct {
	lines []line
	i     int
	col   int
}

func (c *cursor) n() int { return c.lines[c.i].n }

func (c *cursor) peek() byte {
	if t := c.lines[c.i].text; c.col < len(t) {
		return t[c.col]
	}
	return 0
}

func (c *cursor) rest() string { return c.lines[c.i].text[c.col:] }

// span reads [content](target){attrs} or [content]{attrs} at the cursor.
func (c *cursor) span() (*bend.Value, error) {
	start := c.n()
	text, esc, err := c.content()
	if err != nil {
		return nil, err
	}
	rest := c.rest()
	target := ""
	if strings.HasPrefix(rest, "(") {
		t, _, ok := strings.Cut(rest[1:], ")")
		if !ok || !isTarget(t) {
			return nil, &Error{c.n(), "a link's target is written (target), without spaces or brackets"}
		}
		target, rest = t, rest[len(t)+2:]
	}
	a, after, err := parseAttrs(line{c.n(), ""}, rest)
	if err != nil {
		return nil, err
	}
	if a.id == "" || len(a.classes) > 0 {
		return nil, &Error{start, "a span is [text]{#spn-…}: its attributes start with its id and have no class"}
	}
	c.col = len(c.lines[c.i].text) - len(after)
	return spanValue(c.n(), a, text, esc, target)
}

// content reads a span's bracketed text from '[' to the matching ']',
// unescaping it; esc says which runes were escaped (no delimiter then).
func (c *cursor) content() ([]rune, []bool, error) {
	var text []rune
	var esc []bool
	c.col++
	for {
		t := c.lines[c.i].text
		if c.col >= len(t) {
			return nil, nil, &Error{c.n(), `a span's text goes on to the next line only after a backslash (\ at the end of the line), and ends with ]`}
		}
		r, w := utf8.DecodeRuneInString(t[c.col:])
		c.col += w
		switch {
		case r == ']':
			return text, esc, nil
		case r == '[':
			return nil, nil, &Error{c.n(), `a [ inside a span's text is written \[`}
		case r == '\\' && c.col == len(t):
			if c.i+1 >= len(c.lines) {
				return nil, nil, &Error{c.n(), "the span's text is not closed by ]"}
			}
			c.i, c.col = c.i+1, 0
			text, esc = append(text, '\n'), append(esc, true)
		case r == '\\':
			r, w = utf8.DecodeRuneInString(t[c.col:])
			if u, ok := hexRune(t[c.col:]); ok {
				r, w = u, 5
			}
			c.col += w
			text, esc = append(text, r), append(esc, true)
		default:
			text, esc = append(text, r), append(esc, false)
		}
	}
}

// hexRune reads "uXXXX", four hex digits, as the rune they write.
func hexRune(s string) (rune, bool) {
	if len(s) < 5 || s[0] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(s[1:5], 16, 32)
	return rune(n), err == nil
}

// The delimiters Parse reads as emphasis, outermost first: "**" bold,
// "_" or "*" italic, "`" code (innermost: nothing inside it is emphasis).
var delimiters = []struct{ mark, delim string }{
	{"bold", "**"}, {"italic", "_"}, {"italic", "*"}, {"code", "`"},
}

// peel takes the emphasis delimiters off a span's text, outermost first:
// each mark once, an unescaped delimiter at both ends of a text that stays
// non-empty.
func peel(text []rune, esc []bool) (string, []string) {
	lo, hi := 0, len(text)
	var marks []string
	at := func(i int, d string) bool {
		for k, r := range d {
			if i+k >= len(text) || text[i+k] != r || esc[i+k] {
				return false
			}
		}
		return true
	}
	for done := false; !done; {
		done = true
		for _, d := range delimiters {
			n := len(d.delim)
			if hi-lo <= 2*n || containsMark(marks, d.mark) || !at(lo, d.delim) || !at(hi-n, d.delim) {
				continue
			}
			marks = append(marks, d.mark)
			lo, hi = lo+n, hi-n
			done = d.mark == "code"
			break
		}
	}
	return string(text[lo:hi]), marks
}

func containsMark(marks []string, m string) bool {
	for _, x := range marks {
		if x == m || x == "code" {
			return true
		}
	}
	return false
}

// spanValue makes a span object: id, text, marks (emphasis, then the
// link), then its other attributes. A text= or marks= attribute replaces
// what the content would give, and then the content must give nothing.
func spanValue(n int, a attrs, text []rune, esc []bool, target string) (*bend.Value, error) {
	plain, marks := peel(text, esc)
	s := &bend.Value{Kind: bend.Object, Members: []bend.Member{{Key: "id", Value: bend.StringValue(a.id)}}}
	var predicate *bend.Value
	var rest []bend.Member
	for _, m := range a.members {
		switch {
		case m.Key == "id":
			return nil, &Error{n, "a span's id is written #id, not id="}
		case m.Key == "predicate" && target != "":
			predicate = m.Value
		default:
			rest = append(rest, m)
		}
	}
	explicit := func(k string) bool {
		for _, m := range rest {
			if m.Key == k {
				return true
			}
		}
		return false
	}
	if explicit("text") && len(text) > 0 {
		return nil, &Error{n, "a span with a text= attribute has no text in its brackets: []"}
	}
	if explicit("marks") && (len(marks) > 0 || target != "") {
		return nil, &Error{n, "a span with a marks= attribute has no emphasis and no (target)"}
	}
	if !explicit("text") {
		s.Members = append(s.Members, bend.Member{Key: "text", Value: bend.StringValue(plain)})
	}
	if len(marks) > 0 || target != "" {
		s.Members = append(s.Members, bend.Member{Key: "marks", Value: marksValue(marks, target, predicate)})
	}
	s.Members = append(s.Members, rest...)
	return s, nil
}

func marksValue(marks []string, target string, predicate *bend.Value) *bend.Value {
	v := &bend.Value{Kind: bend.Array}
	for _, m := range marks {
		v.Elems = append(v.Elems, bend.StringValue(m))
	}
	if target != "" {
		link := &bend.Value{Kind: bend.Object, Members: []bend.Member{{Key: "kind", Value: bend.StringValue("link")}, {Key: "target", Value: bend.StringValue(target)}}}
		if predicate != nil {
			link.Members = append(link.Members, bend.Member{Key: "predicate", Value: predicate})
		}
		v.Elems = append(v.Elems, link)
	}
	return v
}

// attrs are a {…} attribute list: #id, .classes and key=value members.
type attrs struct {
	id      string
	classes []string
	members []bend.Member
}

// parseAttrs reads "{#id .class key=value …}" at the start of s and
// returns it and what follows the closing brace. Values are JSON, or a
// bare word read as a string.
func parseAttrs(l line, s string) (attrs, string, error) {
	var a attrs
	if !strings.HasPrefix(s, "{") {
		return a, "", &Error{l.n, fmt.Sprintf("expected attributes {…}, found %q", cutText(s))}
	}
	s = s[1:]
	// seen finds a key given twice in one pass: checking each key against
	// every earlier one made k attributes cost k² (issue 45).
	seen := map[string]bool{}
	for first := true; ; first = false {
		s = strings.TrimLeft(s, " ")
		switch {
		case s == "":
			return a, "", &Error{l.n, "the attributes are not closed by } on their line"}
		case s[0] == '}':
			return a, s[1:], nil
		case s[0] == '#' && first:
			a.id, s = cutWord(s[1:])
			if !bend.IsIdent(a.id) {
				return a, "", &Error{l.n, "an id is letters, digits, '-' and '_'"}
			}
		case s[0] == '.':
			var c string
			c, s = cutWord(s[1:])
			if !isWord(c) {
				return a, "", &Error{l.n, "a class is one word"}
			}
			a.classes = append(a.classes, c)
		default:
			m, rest, err := keyValue(l, s)
			if err != nil {
				return a, "", err
			}
			if seen[m.Key] {
				return a, "", &Error{l.n, fmt.Sprintf("attribute %q given twice", m.Key)}
			}
			seen[m.Key] = true
			a.members, s = append(a.members, m), rest
		}
	}
}

// cutWord splits s at the first space or '}'.
func cutWord(s string) (string, string) {
	i := strings.IndexAny(s, " }")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// keyValue reads key=value.
func keyValue(l line, s string) (bend.Member, string, error) {
	k, rest, ok := strings.Cut(s, "=")
	if !ok || !isName(k) {
		return bend.Member{}, "", &Error{l.n, fmt.Sprintf("an attribute is #id, .class or key=value, not %q", cutText(s))}
	}
	if rest != "" && strings.ContainsRune(`"{[`, rune(rest[0])) {
		end := jsonEnd(rest, 0)
		if end < 0 {
			return bend.Member{}, "", &Error{l.n, fmt.Sprintf("attribute %s: the JSON value is not closed on its line", k)}
		}
		v, err := bend.ParseValue([]byte(rest[:end]))
		if err != nil {
			return bend.Member{}, "", &Error{l.n, fmt.Sprintf("attribute %s: %v", k, err)}
		}
		return bend.Member{Key: k, Value: v}, rest[end:], nil
	}
	word, after := cutWord(rest)
	if word == "" {
		return bend.Member{}, "", &Error{l.n, fmt.Sprintf("attribute %s has no value", k)}
	}
	if isBare(word) {
		return bend.Member{Key: k, Value: bend.StringValue(word)}, after, nil
	}
	v, err := bend.ParseValue([]byte(word))
	if err != nil {
		return bend.Member{}, "", &Error{l.n, fmt.Sprintf("attribute %s: %q is neither a word nor JSON", k, cutText(word))}
	}
	return bend.Member{Key: k, Value: v}, after, nil
}

// jsonEnd returns the index just after the JSON string, object or array
// that starts at s[i], or -1 when it does not end in s. It only finds the
// end; bend.ParseValue checks the value.
func jsonEnd(s string, i int) int {
	depth, inString := 0, false
	for k := i; k < len(s); k++ {
		c := s[k]
		switch {
		case inString && c == '\\':
			k++
		case inString && c == '"':
			inString = false
			if depth == 0 {
				return k + 1
			}
		case inString:
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return -1
}
