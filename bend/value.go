package bend

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits that bound the work of reading a hostile file. They are part of the
// documented contract (docs/interpretations.md): a file beyond them is
// rejected with a clear error instead of exhausting the stack or memory.
const (
	// MaxDepth is the deepest JSON nesting (objects and arrays) accepted.
	// A list nested 8 deep uses about 33 levels; 256 leaves ample room.
	MaxDepth = 256
	// MaxSize is the largest file accepted, in bytes.
	MaxSize = 16 << 20
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// A Value is a JSON value that keeps what encoding/json would lose: the order
// of object members and the exact text of numbers. Unknown fields and meta
// contents are kept as Values so that they round-trip byte-for-value.
type Value struct {
	Kind    Kind
	Str     string // String: the decoded text; Number: the literal as written
	Bool    bool
	Elems   []*Value
	Members []Member
}

// A Member is one name/value pair of a JSON object.
type Member struct {
	Key   string
	Value *Value
}

// Get returns the value of the member named key, or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// Clone returns a deep copy of v.
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	c := *v
	if v.Elems != nil {
		c.Elems = make([]*Value, len(v.Elems))
		for i, e := range v.Elems {
			c.Elems[i] = e.Clone()
		}
	}
	if v.Members != nil {
		c.Members = cloneMembers(v.Members)
	}
	return &c
}

func cloneMembers(ms []Member) []Member {
	if ms == nil {
		return nil
	}
	c := make([]Member, len(ms))
	for i, m := range ms {
		c[i] = Member{m.Key, m.Value.Clone()}
	}
	return c
}

// StringValue returns a JSON string value.
func StringValue(s string) *Value { return &Value{Kind: String, Str: s} }

// ParseValue reads one JSON value (RFC 8259), enforcing the limits above,
// valid UTF-8 and unique member names. Errors name the JSON pointer where
// they occur.
//
// It is a small recursive-descent reader rather than encoding/json because
// it must keep member order and number literals, reject duplicate names and
// report JSON pointers in one pass. A first version on encoding/json's
// token API took 126 ms for a 1 MB document where this reader then took
// 34 ms (now about 7 ms, BenchmarkParse). FuzzParseValue checks it against
// encoding/json.
func ParseValue(data []byte) (*Value, error) {
	p := &parser{data: data}
	return p.parse()
}

// ParseValueLimit is ParseValue with maxSize in place of MaxSize, for
// JSON that is not a document: a transcript, which holds an answer and
// the body it came in, may be larger than any document.
func ParseValueLimit(data []byte, maxSize int) (*Value, error) {
	p := &parser{data: data, maxSize: maxSize}
	return p.parse()
}

// parse reads p.data as one JSON value.
func (p *parser) parse() (*Value, error) {
	data, limit := p.data, MaxSize
	if p.maxSize > 0 {
		limit = p.maxSize
	}
	if len(data) > limit {
		return nil, &Error{Msg: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(data), limit), Section: "3"}
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, &Error{Msg: fmt.Sprintf("invalid UTF-8 at byte offset %d", off), Section: "3"}
	}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.data) {
		return nil, &Error{Msg: fmt.Sprintf("unexpected data after the JSON value at byte offset %d", p.pos), Section: "3"}
	}
	return v, nil
}

type parser struct {
	data    []byte
	pos     int
	maxSize int     // 0: MaxSize
	ptr     pointer // where the value being read is, for errors
	// members and elems are stacks of the members and elements read so
	// far of the objects and arrays being read, so that each gets a slice
	// of exactly its length instead of one grown by append. Entries above
	// the top are stale; release clears them before pooling.
	members []Member
	elems   []*Value
	// arena, when set, holds the values read (Parse); otherwise each is
	// allocated on its own (ParseValue).
	arena *arena
}

// newValue returns a new Value holding v.
func (p *parser) newValue(v Value) *Value {
	if p.arena != nil {
		return p.arena.value(v)
	}
	// Not &v: that would move v to the heap on the arena path too.
	n := new(Value)
	*n = v
	return n
}

func (p *parser) fail(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p.pos >= len(p.data) {
		msg = "not valid JSON: unexpected end of input"
	} else {
		msg = fmt.Sprintf("not valid JSON: %s at byte offset %d", msg, p.pos)
	}
	return &Error{Pointer: p.ptr.String(), Msg: msg, Section: "3"}
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*Value, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail("")
	}
	switch c := p.data[p.pos]; {
	case c == '{' || c == '[':
		if depth >= MaxDepth {
			return nil, &Error{Pointer: p.ptr.String(), Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Section: "3"}
		}
		p.pos++
		if c == '[' {
			return p.array(depth + 1)
		}
		return p.object(depth + 1)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.newValue(Value{Kind: String, Str: s}), nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c == 't':
		return p.literal("true", Value{Kind: Bool, Bool: true})
	case c == 'f':
		return p.literal("false", Value{Kind: Bool})
	case c == 'n':
		return p.literal("null", Value{Kind: Null})
	default:
		return nil, p.fail("unexpected character %q", c)
	}
}

func (p *parser) literal(word string, v Value) (*Value, error) {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return nil, p.fail("invalid literal")
	}
	p.pos += len(word)
	return p.newValue(v), nil
}

// number reads a number with the RFC 8259 grammar and keeps its literal.
func (p *parser) number() (*Value, error) {
	start := p.pos
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	switch {
	case p.pos < len(d) && d[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return nil, p.fail("invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	return p.newValue(Value{Kind: Number, Str: string(d[start:p.pos])}), nil
}

// str reads a string; p.pos is at the opening quote.
func (p *parser) str() (string, error) {
	p.pos++
	d := p.data
	start := p.pos
	for p.pos < len(d) {
		c := d[p.pos]
		if c == '"' {
			s := intern(d[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' {
			return p.escaped(start)
		}
		if c < 0x20 {
			return "", p.fail("control character in string")
		}
		p.pos++
	}
	return "", p.fail("")
}

// intern returns b as a string, without allocating when it is one of the
// names and values that every document repeats.
func intern(b []byte) string {
	if len(b) <= maxInterned {
		if s, ok := interned[string(b)]; ok {
			return s
		}
	}
	return string(b)
}

// interned maps the member names of the model (§3), the core block kinds,
// marks and predicates to themselves; maxInterned is the longest length.
var interned, maxInterned = func() (map[string]string, int) {
	m, n := map[string]string{}, 0
	for _, s := range append([]string{
		"bendscript", "id", "vocabulary", "title", "meta", "blocks", "edges",
		"kind", "level", "ordered", "language", "target", "text", "spans", "items",
		"marks", "subject", "predicate", "object", "core", "0.1",
		KindParagraph, KindHeading, KindList, KindListItem, KindCode, KindQuote, KindEmbed, KindDivider,
		"bold", "italic", "link",
	}, CorePredicates...) {
		m[s] = s
		n = max(n, len(s))
	}
	return m, n
}()

// escaped finishes a string that contains escapes, from start; runs
// without escapes are copied whole.
func (p *parser) escaped(start int) (string, error) {
	d := p.data
	var b strings.Builder
	b.Write(d[start:p.pos])
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character in string")
		case c != '\\':
			j := p.pos + 1
			for j < len(d) && d[j] != '"' && d[j] != '\\' && d[j] >= 0x20 {
				j++
			}
			b.Write(d[p.pos:j])
			p.pos = j
			continue
		}
		p.pos++
		if p.pos >= len(d) {
			break
		}
		e := d[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				// A valid pair decodes to one rune; a lone surrogate
				// becomes U+FFFD, as encoding/json does.
				save := p.pos
				if p.pos+1 < len(d) && d[p.pos] == '\\' && d[p.pos+1] == 'u' {
					p.pos += 2
					if r2, ok := p.hex4(); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							b.WriteRune(dec)
							continue
						}
					}
				}
				p.pos = save
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default:
			p.pos--
			return "", p.fail("invalid escape")
		}
	}
	return "", p.fail("")
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(v)
	}
	p.pos += 4
	return r, true
}

func (p *parser) array(depth int) (*Value, error) {
	v := p.newValue(Value{Kind: Array, Elems: []*Value{}})
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	base := len(p.elems)
	for {
		p.space()
		p.ptr.pushIndex(len(p.elems) - base)
		e, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		p.ptr.pop()
		p.elems = append(p.elems, e)
		done, err := p.separator(']')
		if err != nil {
			return nil, err
		}
		if done {
			v.Elems = p.takeElems(len(p.elems) - base)
			copy(v.Elems, p.elems[base:])
			p.elems = p.elems[:base]
			return v, nil
		}
	}
}

func (p *parser) object(depth int) (*Value, error) {
	v := p.newValue(Value{Kind: Object, Members: []Member{}})
	var seen map[string]bool
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	base := len(p.members)
	for {
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail("expected a member name")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.ptr.pushKey(key)
		if dup(p.members[base:], key, &seen) {
			return nil, &Error{Pointer: p.ptr.String(), Msg: fmt.Sprintf("duplicate member name %q", key), Section: "3"}
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail("expected ':'")
		}
		p.pos++
		p.space()
		e, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		p.ptr.pop()
		p.members = append(p.members, Member{key, e})
		done, err := p.separator('}')
		if err != nil {
			return nil, err
		}
		if done {
			v.Members = p.takeMembers(len(p.members) - base)
			copy(v.Members, p.members[base:])
			p.members = p.members[:base]
			return v, nil
		}
	}
}

func (p *parser) takeMembers(n int) []Member {
	if p.arena != nil {
		return p.arena.members.take(n)
	}
	return make([]Member, n)
}

func (p *parser) takeElems(n int) []*Value {
	if p.arena != nil {
		return p.arena.elems.take(n)
	}
	return make([]*Value, n)
}

// separator reads what follows an element of an array or object: ',' (more
// to come) or the closing bracket (done).
func (p *parser) separator(closing byte) (done bool, err error) {
	p.space()
	if p.pos >= len(p.data) {
		return false, p.fail("")
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		return false, nil
	case closing:
		p.pos++
		return true, nil
	}
	return false, p.fail("expected ',' or '%c'", closing)
}

// dup reports whether key is already among members. Small objects are
// scanned; from 16 members on, a set keeps the check linear overall.
func dup(members []Member, key string, seen *map[string]bool) bool {
	if len(members) < 16 {
		for _, m := range members {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(members))
		for _, m := range members {
			(*seen)[m.Key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// EscapePointer escapes one JSON pointer reference token (RFC 6901).
func EscapePointer(s string) string {
	if !bytesContainsAny(s) {
		return s
	}
	var b []byte
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}

func bytesContainsAny(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' || s[i] == '/' {
			return true
		}
	}
	return false
}

// writer serializes Values, compact or indented by two spaces. Strings are
// escaped minimally (quote, backslash, control characters), which is also
// what RFC 8785 does, so the output stays readable for non-ASCII text.
type writer struct {
	buf    []byte
	indent bool
	// canonNumbers writes numbers in their RFC 8785 form (DisplayIndent).
	canonNumbers bool
}

func (w *writer) newline(depth int) {
	if !w.indent {
		return
	}
	w.buf = append(w.buf, '\n')
	for i := 0; i < depth; i++ {
		w.buf = append(w.buf, ' ', ' ')
	}
}

func (w *writer) value(v *Value, depth int) {
	switch v.Kind {
	case Null:
		w.buf = append(w.buf, "null"...)
	case Bool:
		w.buf = strconv.AppendBool(w.buf, v.Bool)
	case Number:
		if w.canonNumbers {
			if b, err := appendNumber(w.buf, v.Str); err == nil {
				w.buf = b
				return
			}
		}
		w.buf = append(w.buf, v.Str...)
	case String:
		w.buf = appendString(w.buf, v.Str)
	case Array:
		if len(v.Elems) == 0 {
			w.buf = append(w.buf, "[]"...)
			return
		}
		w.buf = append(w.buf, '[')
		for i, e := range v.Elems {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			w.value(e, depth+1)
		}
		w.newline(depth)
		w.buf = append(w.buf, ']')
	case Object:
		if len(v.Members) == 0 {
			w.buf = append(w.buf, "{}"...)
			return
		}
		w.buf = append(w.buf, '{')
		for i, m := range v.Members {
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.newline(depth + 1)
			w.buf = appendString(w.buf, m.Key)
			w.buf = append(w.buf, ':')
			if w.indent {
				w.buf = append(w.buf, ' ')
			}
			w.value(m.Value, depth+1)
		}
		w.newline(depth)
		w.buf = append(w.buf, '}')
	}
}

const hexDigits = "0123456789abcdef"

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = appendEscaped(b, s)
	return append(b, '"')
}

// appendEscaped appends s escaped for a JSON string, without the quotes:
// quote, backslash and the control characters, the short forms where JSON
// has one and \u00xx otherwise. This is exactly the escaping of RFC 8785
// §3.2.2.2.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		start = i + 1
	}
	return append(b, s[start:]...)
}

// MarshalValue returns v as compact JSON.
func MarshalValue(v *Value) []byte {
	w := writer{}
	w.value(v, 0)
	return w.buf
}

// DisplayIndent returns v as JSON indented by two spaces, each number in
// its RFC 8785 form (1e+21, 1e-7, 0 for -0; a number RFC 8785 has no
// form for as written): two spellings of one number, which the metric
// compares as equal (it reads documents through CanonicalValue), read the
// same, so that a diff of two documents shows no change where the metric
// sees none.
func DisplayIndent(v *Value) []byte {
	w := writer{indent: true, canonNumbers: true}
	w.value(v, 0)
	return w.buf
}

// MarshalValueIndent returns v as JSON indented by two spaces.
func MarshalValueIndent(v *Value) []byte {
	w := writer{indent: true}
	w.value(v, 0)
	return w.buf
}
