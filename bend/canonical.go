package bend

import (
	"cmp"
	"fmt"
	"hash"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// CanonicalValue returns the RFC 8785 (JCS) serialization of v: members
// sorted by the UTF-16 code units of their names, numbers as ECMAScript
// writes them, strings escaped minimally, no white space. It fails where
// RFC 8785 does: a number literal that is not a JSON number or overflows a
// double, a string that is not valid UTF-8, a duplicate member name.
func CanonicalValue(v *Value) ([]byte, error) {
	c := canon{}
	c.value(v, roleNone)
	if c.err != nil {
		return nil, c.err
	}
	return c.buf, nil
}

// HashValue writes the RFC 8785 serialization of v (CanonicalValue) into
// h as it is produced, in pieces of about 32 KiB, so that hashing a large
// value does not hold its whole canonical form. It fails where
// CanonicalValue does; h has then received a partial form.
func HashValue(v *Value, h hash.Hash) error {
	// The buffer starts small and grows to about flushAt only for a large
	// value: most values hashed are a few kilobytes.
	c := canon{sink: h, buf: make([]byte, 0, 4<<10)}
	c.value(v, roleNone)
	if c.err != nil {
		return c.err
	}
	h.Write(c.buf)
	return nil
}

// canon writes RFC 8785 bytes in one pass, from a Value or straight from
// the typed model. The first error is kept and returned at the end; writing
// goes on meanwhile, into bytes nobody will read.
type canon struct {
	buf []byte
	err error
	// order is a stack of member orders: each object being written pushes
	// the sorted indices of its members and pops them when done, so that
	// sorting allocates nothing once the stack has grown.
	order []int
	// self is the document's declared id: references that name it are
	// written in the relative form (identity rule, step 2).
	self string
	// sink, when set, receives buf whenever it passes flushAt bytes, so
	// that hashing a document does not hold its whole canonical form.
	sink hash.Hash
}

const flushAt = 32 << 10

func (c *canon) fail(format string, args ...any) {
	if c.err == nil {
		c.err = &Error{Msg: fmt.Sprintf(format, args...), Section: "5.1"}
	}
}

func (c *canon) flush() {
	if c.sink != nil && len(c.buf) >= flushAt {
		c.sink.Write(c.buf)
		c.buf = c.buf[:0]
	}
}

func (c *canon) str(s string) {
	if !utf8.ValidString(s) {
		c.fail("string is not valid UTF-8")
	}
	c.buf = appendString(c.buf, s)
}

// ref writes s as a string, relative when it names the document itself
// (Relative), without building the relative form.
func (c *canon) ref(s string) {
	rest, ok := relativeRest(s, c.self)
	if !ok {
		c.str(s)
		return
	}
	if !utf8.ValidString(rest) {
		c.fail("string is not valid UTF-8")
	}
	c.buf = append(c.buf, `"bend:`...)
	c.buf = appendEscaped(c.buf, rest)
	c.buf = append(c.buf, '"')
}

func (c *canon) number(lit string) {
	var err error
	c.buf, err = appendNumber(c.buf, lit)
	if err != nil && c.err == nil {
		c.err = err
	}
}

func (c *canon) boolean(b bool) {
	c.buf = strconv.AppendBool(c.buf, b)
}

// A role says which strings of a Value IdentityForm rewrites to the
// relative form: MapValueTargets follows block values into their spans,
// marks, items and nested blocks. Values the typed model keeps verbatim
// (Extra, Raw marks) are written with the role their place gives them, so
// that the one-pass writer and IdentityForm agree on every document.
type role uint8

const (
	roleNone     role = iota
	roleTarget        // a string to write relative
	roleBlocks        // an array of block values
	roleBlock         // a block value
	roleSpans         // an array of span values
	roleSpan          // a span value
	roleMarks         // an array of mark values
	roleMark          // a mark value
	roleLinkMark      // a mark value whose kind is "link"
)

// memberRole is the role of member m of an object that has role owner.
func memberRole(owner role, m Member) role {
	k := m.Value.Kind
	switch {
	case owner == roleBlock && m.Key == "target" && k == String,
		owner == roleLinkMark && m.Key == "target" && k == String:
		return roleTarget
	case owner == roleBlock && m.Key == "spans" && k == Array:
		return roleSpans
	case owner == roleBlock && (m.Key == "items" || m.Key == "blocks") && k == Array:
		return roleBlocks
	case owner == roleSpan && m.Key == "marks" && k == Array:
		return roleMarks
	}
	return roleNone
}

// elemRole is the role of the elements of an array that has role r.
func elemRole(r role) role {
	switch r {
	case roleBlocks:
		return roleBlock
	case roleSpans:
		return roleSpan
	case roleMarks:
		return roleMark
	}
	return roleNone
}

func isLinkKind(v *Value) bool {
	return v != nil && v.Kind == String && v.Str == "link"
}

func (c *canon) value(v *Value, r role) {
	switch v.Kind {
	case Null:
		c.buf = append(c.buf, "null"...)
	case Bool:
		c.boolean(v.Bool)
	case Number:
		c.number(v.Str)
	case String:
		if r == roleTarget {
			c.ref(v.Str)
		} else {
			c.str(v.Str)
		}
	case Array:
		er := elemRole(r)
		c.buf = append(c.buf, '[')
		for i, e := range v.Elems {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			c.value(e, er)
			c.flush()
		}
		c.buf = append(c.buf, ']')
	case Object:
		if r == roleMark {
			r = roleNone
			if isLinkKind(v.Get("kind")) {
				r = roleLinkMark
			}
		}
		object(c, v, nil, 0, v.Members, r, nil)
	default:
		c.fail("value of unknown kind %d", v.Kind)
	}
}

// object writes an object whose members are the typed model's known
// members, known[i] for each bit i set in present, written by put, merged
// in canonical order with extra, whose members take their roles from owner.
// known is sorted and all ASCII. As in the Value methods (adder), a known
// member that extra also holds is written from extra only.
func object[T any](c *canon, x T, known []string, present uint32, extra []Member, owner role, put func(*canon, T, int)) {
	for _, m := range extra {
		if i := slices.Index(known, m.Key); i >= 0 {
			present &^= 1 << i
		}
	}
	base := len(c.order)
	for i := range extra {
		c.order = append(c.order, i)
	}
	sortMembers(c.order[base:], extra)
	end := len(c.order)
	c.buf = append(c.buf, '{')
	for e, first := base, true; present != 0 || e < end; first = false {
		if !first {
			c.buf = append(c.buf, ',')
		}
		i := bits.TrailingZeros32(present)
		if present != 0 && (e == end || compareKeys(known[i], extra[c.order[e]].Key) < 0) {
			c.buf = append(c.buf, '"')
			c.buf = append(c.buf, known[i]...)
			c.buf = append(c.buf, '"', ':')
			put(c, x, i)
			present &^= 1 << i
		} else {
			m := extra[c.order[e]]
			if e > base && extra[c.order[e-1]].Key == m.Key {
				c.fail("duplicate member name %q", m.Key)
			}
			c.str(m.Key)
			c.buf = append(c.buf, ':')
			c.value(m.Value, memberRole(owner, m))
			e++
		}
		c.flush()
	}
	c.buf = append(c.buf, '}')
	c.order = c.order[:base]
}

// sortMembers sorts idx, indices into ms, by member name in RFC 8785 order.
// Most objects are small, where insertion sort beats the general sort and
// needs no closure.
func sortMembers(idx []int, ms []Member) {
	if len(idx) > 12 {
		slices.SortFunc(idx, func(a, b int) int { return compareKeys(ms[a].Key, ms[b].Key) })
		return
	}
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && compareKeys(ms[idx[j-1]].Key, ms[idx[j]].Key) > 0; j-- {
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
}

// compareKeys orders member names as RFC 8785 §3.2.3 does: by their UTF-16
// code units. That is the order of the UTF-8 bytes except between a
// character from U+E000 to U+FFFF and one beyond U+FFFF, whose surrogate
// pair (U+D800 to U+DFFF) sorts first in UTF-16 although its UTF-8 form
// (F0 and up) sorts last.
func compareKeys(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		return cmp.Compare(len(a), len(b))
	}
	if a[i] < utf8.RuneSelf || b[i] < utf8.RuneSelf {
		return cmp.Compare(a[i], b[i])
	}
	// Both differ inside a multi-byte character, which starts at the same
	// offset in both since the bytes before are equal.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if c := cmp.Compare(utf16First(ra), utf16First(rb)); c != 0 {
		return c
	}
	// Same first code unit: both beyond U+FFFF with the same high
	// surrogate, where the low surrogates follow the code points.
	return cmp.Compare(ra, rb)
}

// utf16First returns the first UTF-16 code unit of r.
func utf16First(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + (r-0x10000)>>10
}

// appendNumber appends the RFC 8785 form of the JSON number literal lit:
// the shortest decimal that reads back to the same double, written as
// ECMAScript's Number.prototype.toString does (§3.2.2.3).
func appendNumber(b []byte, lit string) ([]byte, error) {
	if !isJSONNumber(lit) {
		return b, &Error{Msg: fmt.Sprintf("%q is not a JSON number", lit), Section: "5.1"}
	}
	if isShortInt(lit) {
		// Up to 15 digits an integer is exact as a double and prints as
		// written; -0 prints as 0.
		if lit == "-0" {
			return append(b, '0'), nil
		}
		return append(b, lit...), nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return b, &Error{Msg: fmt.Sprintf("number %.32s is out of the range of a double", lit), Section: "5.1"}
	}
	return appendES6(b, f), nil
}

// appendES6 appends f as ECMAScript's Number.prototype.toString writes a
// finite double: fixed notation from 1e-6 up to 1e21, exponent notation
// ("1e+21", "5e-324") outside, always the shortest digits that read back.
func appendES6(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0') // -0 too
	}
	if abs := math.Abs(f); abs >= 1e-6 && abs < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'e', -1, 64)
	// Go writes at least two exponent digits ("1e-07"); ECMAScript writes
	// no leading zero.
	for i := len(b) - 1; i > start; i-- {
		if b[i] == 'e' {
			if b[i+2] == '0' {
				b = append(b[:i+2], b[i+3:]...)
			}
			break
		}
	}
	return b
}

// isShortInt reports whether lit, a JSON number, is an integer of at most
// 15 digits, written without fraction or exponent.
func isShortInt(lit string) bool {
	digits := lit
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > 15 {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// isJSONNumber reports whether s follows the number grammar of RFC 8259 §6:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
