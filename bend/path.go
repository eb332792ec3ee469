package bend

import "strconv"

// A pointer is the JSON pointer (RFC 6901) of the value being read, kept
// as a stack of reference tokens so that reading builds the pointer string
// only for the rare value an error names. A linked list of parents would
// read as well, but escape analysis moves such a list, built through
// recursive calls, to the heap: one allocation per value read.
type pointer []token

// A token is a member name, or an array index when index >= 0.
type token struct {
	key   string
	index int
}

func (p *pointer) pushKey(key string) { *p = append(*p, token{key, -1}) }
func (p *pointer) pushIndex(i int)    { *p = append(*p, token{"", i}) }
func (p *pointer) pop()               { *p = (*p)[:len(*p)-1] }

// String returns the pointer, "" for the whole document.
func (p pointer) String() string {
	var b []byte
	for _, t := range p {
		b = append(b, '/')
		if t.index >= 0 {
			b = strconv.AppendInt(b, int64(t.index), 10)
		} else {
			b = append(b, EscapePointer(t.key)...)
		}
	}
	return string(b)
}
