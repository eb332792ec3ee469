package bend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
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

// ParseValue reads one JSON value, enforcing the limits above, valid UTF-8
// and unique member names. Errors name the JSON pointer where they occur.
func ParseValue(data []byte) (*Value, error) {
	if len(data) > MaxSize {
		return nil, &Error{Msg: fmt.Sprintf("file is %d bytes, over the %d-byte limit", len(data), MaxSize), Section: "8.1.1"}
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
		return nil, &Error{Msg: fmt.Sprintf("invalid UTF-8 at byte offset %d", off), Section: "5.1"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &parser{dec: dec}
	v, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Msg: "unexpected data after the JSON value", Section: "3"}
	}
	return v, nil
}

type parser struct {
	dec *json.Decoder
}

func syntaxError(err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &Error{Msg: "not valid JSON: " + err.Error(), Section: "3"}
}

func (p *parser) value(ptr string, depth int) (*Value, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, syntaxError(err)
	}
	switch t := tok.(type) {
	case nil:
		return &Value{Kind: Null}, nil
	case bool:
		return &Value{Kind: Bool, Bool: t}, nil
	case json.Number:
		return &Value{Kind: Number, Str: string(t)}, nil
	case string:
		return &Value{Kind: String, Str: t}, nil
	case json.Delim:
		if depth >= MaxDepth {
			return nil, &Error{Pointer: ptr, Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Section: "8.1.1"}
		}
		if t == '[' {
			return p.array(ptr, depth+1)
		}
		return p.object(ptr, depth+1)
	}
	return nil, syntaxError(fmt.Errorf("unexpected token %v", tok))
}

func (p *parser) array(ptr string, depth int) (*Value, error) {
	v := &Value{Kind: Array, Elems: []*Value{}}
	for p.dec.More() {
		e, err := p.value(ptr+"/"+strconv.Itoa(len(v.Elems)), depth)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, e)
	}
	if _, err := p.dec.Token(); err != nil {
		return nil, syntaxError(err)
	}
	return v, nil
}

func (p *parser) object(ptr string, depth int) (*Value, error) {
	v := &Value{Kind: Object, Members: []Member{}}
	var seen map[string]bool
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, syntaxError(err)
		}
		key := tok.(string) // the decoder guarantees a string key here
		child := ptr + "/" + EscapePointer(key)
		if seen == nil {
			seen = make(map[string]bool)
		}
		if seen[key] {
			return nil, &Error{Pointer: child, Msg: fmt.Sprintf("duplicate member name %q", key), Section: "3"}
		}
		seen[key] = true
		e, err := p.value(child, depth)
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{key, e})
	}
	if _, err := p.dec.Token(); err != nil {
		return nil, syntaxError(err)
	}
	return v, nil
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
	b = append(b, s[start:]...)
	return append(b, '"')
}

// MarshalValue returns v as compact JSON.
func MarshalValue(v *Value) []byte {
	w := writer{}
	w.value(v, 0)
	return w.buf
}

// MarshalValueIndent returns v as JSON indented by two spaces.
func MarshalValueIndent(v *Value) []byte {
	w := writer{indent: true}
	w.value(v, 0)
	return w.buf
}
