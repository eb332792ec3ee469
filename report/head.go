package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// This file reads a report without its per-answer records (issue 55):
// compare, trend and seal read a report's numbers, never its answers, and
// a report's answers are most of its bytes (about 0.45 kB an answer: a
// delegate report of a few thousand answers is megabytes, a report of
// 300,000 answers 130 MB, which compare decoded whole at up to 1 GB).
// ReadHead scans the report's top-level object as it streams by, keeps
// every member but "answers", and passes past the answers holding none
// of them.

// ReadHead reads a report as ReadJSON does, without its answers: the
// returned report's Answers is nil, and the answers are read past, never
// held (memory is the report less its answers, whatever their number).
// The answers are checked only for their structure (strings and brackets
// that close); what is in them is not decoded. A file whose top-level
// value is not an object, or that ends early, gets ReadJSON's error.
func ReadHead(rd io.Reader, name string) (*Report, error) {
	return readHead(rd, name, nil)
}

// ReadHeadRows is ReadHead that decodes the rows of only the sections
// keep accepts (given each section without its rows): the rows of the
// others are checked as JSON, not decoded, and the section is returned
// without them. A trend reads a delegate report's delegation, not its
// rows, which are half of its head (issue 55).
func ReadHeadRows(rd io.Reader, name string, keep func(*Section) bool) (*Report, error) {
	return readHead(rd, name, keep)
}

func readHead(rd io.Reader, name string, keep func(*Section) bool) (*Report, error) {
	// A file is read again from its start when it is no report as the
	// scanner reads one; any other reader's bytes are kept until the
	// answers for that.
	seeker, canSeek := rd.(io.Seeker)
	// The reader and the head's buffer are reused from report to report
	// (issue 55: a trend allocated each report's size again); nothing
	// decoded points into the buffer.
	bufs := headBufs.Get().(*headBuf)
	defer headBufs.Put(bufs)
	bufs.r.Reset(rd)
	defer bufs.r.Reset(nil)
	br := bufs.r
	s := &headScanner{r: br, keep: !canSeek, seekable: canSeek, out: bufs.out[:0]}
	defer func() {
		if cap(s.out) <= 64<<20 {
			bufs.out = s.out[:0]
		}
	}()
	apart := ""
	if keep != nil {
		apart = "sections"
	}
	head, keys, err := s.headOf("answers", apart)
	if err != nil {
		var se *scanError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		// Not a JSON object as the scanner reads one: ReadJSON words
		// what is wrong with it (the file is bounded by its caller).
		if canSeek {
			if _, err := seeker.Seek(0, io.SeekStart); err != nil {
				return nil, err
			}
			return ReadJSON(rd, name)
		}
		return ReadJSON(io.MultiReader(bytes.NewReader(se.read), br), name)
	}
	sections := keys[apart]
	// A report of this schema is decoded once; anything else goes
	// through ReadJSON, which converts an old schema and words what is
	// wrong with a file that is no report.
	var schema int
	if keys["verdict"] == nil || keys["results"] == nil || json.Unmarshal(keys["schema"], &schema) != nil || schema != SchemaVersion {
		if sections != nil {
			head = append(append(append(head[:len(head)-1], `,"sections":`...), sections...), '}')
		}
		return ReadJSON(bytes.NewReader(head), name)
	}
	var r Report
	if !unmarshalHead(head, &r, &bufs.rest) {
		// Decoded again by encoding/json alone, for its error.
		r = Report{}
		if err := json.Unmarshal(head, &r); err != nil {
			return nil, fmt.Errorf("%s: not a report: %w", name, err)
		}
	}
	if sections != nil {
		if secs, ok := sectionsOf(sections, keep); ok {
			r.Sections = secs
			return &r, nil
		}
		// Not the array of section objects sectionsOf splits: decoded
		// whole, which words what is wrong with it.
		var lazy []struct {
			Section
			Rows json.RawMessage `json:"rows"`
		}
		if err := json.Unmarshal(sections, &lazy); err != nil {
			return nil, fmt.Errorf("%s: /sections: not a report: %w", name, err)
		}
		for i := range lazy {
			sec := lazy[i].Section
			if len(lazy[i].Rows) > 0 && keep(&sec) {
				if err := json.Unmarshal(lazy[i].Rows, &sec.Rows); err != nil {
					return nil, fmt.Errorf("%s: /sections/%d/rows: not a report: %w", name, i, err)
				}
			}
			r.Sections = append(r.Sections, sec)
		}
	}
	return &r, nil
}

// sectionsOf decodes the sections' array b (as the scanner keeps it)
// with the rows of only those keep accepts: each section's "rows" member
// is cut out by a byte scan, never given to encoding/json, unless kept
// (issue 55: a delegate report's rows, decoded to be skipped, were a
// third of a trend's time). ok is false for anything but an array of
// objects whose keys have no escapes, or a section that does not decode,
// which the caller decodes whole for its error.
func sectionsOf(b []byte, keep func(*Section) bool) ([]Section, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	secs := []Section{}
	var obj []byte // a section without its rows
	for i = skipSpace(b, i+1); i < len(b) && b[i] != ']'; {
		sec, end, ok := sectionOf(b, i, &obj, keep)
		if !ok {
			return nil, false
		}
		secs = append(secs, sec)
		if i = skipSpace(b, end); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == ']' {
				return nil, false
			}
		}
	}
	if i >= len(b) {
		return nil, false
	}
	if len(secs) == 0 {
		secs = nil
	}
	return secs, skipSpace(b, i+1) == len(b)
}

// sectionOf decodes the section at b[i] (sectionsOf), obj its buffer; end
// is where it ends.
func sectionOf(b []byte, i int, obj *[]byte, keep func(*Section) bool) (sec Section, end int, ok bool) {
	var rows []byte
	*obj = append((*obj)[:0], '{')
	end, ok = members(b, i, func(key []byte, from int) (int, bool) {
		to, ok := skipValue(b, from)
		if !ok || bytes.IndexByte(key, '\\') >= 0 {
			return 0, false
		}
		if bytes.EqualFold(key, []byte(`"rows"`)) {
			rows = b[from:to]
			return to, true
		}
		if len(*obj) > 1 {
			*obj = append(*obj, ',')
		}
		*obj = append(append(append(*obj, key...), ':'), b[from:to]...)
		return to, true
	})
	if !ok {
		return sec, 0, false
	}
	*obj = append(*obj, '}')
	if json.Unmarshal(*obj, &sec) != nil {
		return sec, 0, false
	}
	if len(rows) > 0 && keep(&sec) && json.Unmarshal(rows, &sec.Rows) != nil {
		return sec, 0, false
	}
	return sec, end, true
}

// skipSpace is the index of b's first byte from i that is not white
// space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && space[b[i]] {
		i++
	}
	return i
}

// skipValue is the index past the JSON value that starts at b[i]; ok is
// false when it does not end in b. What is in it is not checked but for
// its strings and brackets.
func skipValue(b []byte, i int) (int, bool) {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			for i++; ; i++ {
				for i < len(b) && !strStop[b[i]] {
					i++
				}
				if i >= len(b) {
					return 0, false
				}
				if b[i] == '"' {
					break
				}
				i++ // past the escaped byte
			}
			i++
		case '{', '[':
			depth++
			i++
		case '}', ']':
			if depth == 0 {
				return 0, false
			}
			depth--
			i++
		default:
			if depth == 0 {
				j := i
				for j < len(b) && !endsScalar[b[j]] {
					j++
				}
				return j, j > i
			}
			i++
		}
		if depth == 0 {
			return i, true
		}
	}
	return 0, false
}

// headBuf is a reader and a head's buffer, reused (headBufs).
type headBuf struct {
	r *bufio.Reader
	// out is the head, rest the head without its per-document results.
	out, rest []byte
}

var headBufs = sync.Pool{New: func() any { return &headBuf{r: bufio.NewReaderSize(nil, 64<<10)} }}

// ReadHeads reads JSON reports without their answers (ReadHead), in the
// order named, each a regular file of at most MaxFileSize bytes.
func ReadHeads(names []string) ([]*Report, error) { return readEach(names, ReadHead) }

// scanError is a file the scanner could not read as one JSON object:
// read is what it had read of it.
type scanError struct {
	read []byte
	why  string
}

func (e *scanError) Error() string { return e.why }

// headScanner reads a top-level JSON object member by member.
type headScanner struct {
	r *bufio.Reader
	// out is the object without its skipped member; raw is every byte
	// read, kept only until the first member is skipped (for scanError).
	out, raw []byte
	keep     bool // whether raw still holds every byte read
	// seekable is set while the reader can be read again from its start
	// for ReadJSON's error, until the skipped member was passed.
	seekable bool
}

// headOf returns the JSON object the scanner reads, without its member
// named skip (at the top level) or the one named apart: `{` and the other
// members, as they were written; and each member's key with its value's
// bytes (nil for the member skipped; apart's kept beside the object).
func (s *headScanner) headOf(skip, apart string) ([]byte, map[string][]byte, error) {
	c, err := s.next()
	if err != nil || c != '{' {
		return nil, nil, s.fail("not a JSON object")
	}
	var aside []byte
	type span struct{ from, to int }
	spans := map[string]span{}
	s.out = append(s.out, '{')
	seen, kept := false, false // a member was read, a member was kept
	for {
		c, err := s.next()
		if err != nil {
			return nil, nil, s.fail("the object does not end")
		}
		if c == '}' {
			break
		}
		if seen {
			if c != ',' {
				return nil, nil, s.fail("a member does not end")
			}
			if c, err = s.next(); err != nil {
				return nil, nil, s.fail("the object does not end")
			}
		}
		if c != '"' {
			return nil, nil, s.fail("a key is not a string")
		}
		mark := len(s.out)
		if kept {
			s.out = append(s.out, ',')
		}
		keyAt := len(s.out)
		s.out = append(s.out, '"')
		if err := s.str(true); err != nil {
			return nil, nil, err
		}
		var k string
		json.Unmarshal(s.out[keyAt:], &k)
		dropped := k == skip
		if c, err = s.next(); err != nil || c != ':' {
			return nil, nil, s.fail("a key has no value")
		}
		if dropped {
			s.out, s.keep, s.raw, s.seekable = s.out[:mark], false, nil, false
		} else {
			s.out = append(s.out, ':')
		}
		from := len(s.out)
		if err := s.value(!dropped); err != nil {
			return nil, nil, err
		}
		if k == apart {
			aside = bytes.Clone(s.out[from:])
			s.out = s.out[:mark]
			seen = true
			continue
		}
		spans[k] = span{from, len(s.out)}
		seen, kept = true, kept || !dropped
	}
	s.out = append(s.out, '}')
	if _, err := s.next(); err != io.EOF {
		return nil, nil, s.fail("something follows the object")
	}
	keys := map[string][]byte{}
	if aside != nil {
		keys[apart] = aside
	}
	for k, sp := range spans {
		keys[k] = s.out[sp.from:sp.to]
		if k == skip {
			keys[k] = nil
		}
	}
	return s.out, keys, nil
}

// fail is a scanError; when the skipped member was passed, the bytes read
// are gone, and the error says what it found.
func (s *headScanner) fail(why string) error {
	if !s.keep && !s.seekable {
		return fmt.Errorf("not a report: %s", why)
	}
	return &scanError{read: s.raw, why: why}
}

// take consumes n buffered bytes, keeping them in out when keep is set.
func (s *headScanner) take(b []byte, keep bool) {
	if keep {
		s.out = append(s.out, b...)
	}
	if s.keep {
		s.raw = append(s.raw, b...)
	}
	s.r.Discard(len(b))
}

// space marks JSON's white space.
var space = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// next returns the next byte that is not white space, consumed.
func (s *headScanner) next() (byte, error) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, err
		}
		if s.keep {
			s.raw = append(s.raw, c)
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

// buffered returns the bytes buffered, reading more when there are none.
func (s *headScanner) buffered() ([]byte, error) {
	if _, err := s.r.Peek(1); err != nil {
		return nil, err
	}
	return s.r.Peek(s.r.Buffered())
}

// str consumes a string's rest, its opening quote already read.
func (s *headScanner) str(keep bool) error {
	escaped := false // the buffer's first byte is escaped
	for {
		b, err := s.buffered()
		if err != nil {
			return s.fail("a string does not end")
		}
		i := 0
		if escaped {
			i, escaped = 1, false
		}
		for i < len(b) {
			q := bytes.IndexByte(b[i:], '"')
			if q < 0 {
				q = len(b) - i
			}
			if e := bytes.IndexByte(b[i:i+q], '\\'); e >= 0 {
				i += e + 2 // past the backslash and the byte it escapes
				if i > len(b) {
					i, escaped = len(b), true
				}
				continue
			}
			if i += q; i < len(b) {
				s.take(b[:i+1], keep)
				return nil
			}
		}
		s.take(b[:i], keep)
	}
}

// endsScalar marks the bytes that end a number, true, false or null.
var endsScalar = [256]bool{',': true, '}': true, ']': true, ' ': true, '\t': true, '\r': true, '\n': true}

// structural marks the bytes that open or close a nested value or
// start a string; scalars and white space pass.
var structural = [256]bool{'"': true, '{': true, '[': true, '}': true, ']': true}

// value consumes one JSON value, kept in out when keep is set.
func (s *headScanner) value(keep bool) error {
	c, err := s.next()
	if err != nil {
		return s.fail("a value is missing")
	}
	if keep {
		s.out = append(s.out, c)
	}
	switch c {
	case '"':
		return s.str(keep)
	case '{', '[':
	default:
		// A scalar: its bytes up to what ends it.
		for {
			b, err := s.buffered()
			if err != nil {
				return nil
			}
			i := 0
			for i < len(b) && !endsScalar[b[i]] {
				i++
			}
			s.take(b[:i], keep)
			if i < len(b) {
				return nil
			}
		}
	}
	return s.container(c, keep)
}

// strStop marks the bytes that end a run of a string's plain bytes.
var strStop = [256]bool{'"': true, '\\': true}

// container consumes the rest of an object or array, open already read,
// kept in out (without white space outside its strings) when keep is set.
// It runs over the buffered bytes in one pass, consuming them a buffer at
// a time (issue 55: consumed value by value and string by string, the
// answers a trend skips took half its time).
func (s *headScanner) container(open byte, keep bool) error {
	st := scanState{stack: []byte{closer(open)}}
	for {
		b, err := s.buffered()
		if err != nil {
			if st.inStr {
				return s.fail("a string does not end")
			}
			return s.fail("a value does not end")
		}
		i, done, ok := s.scan(b, &st, keep)
		s.take(b[:i], false)
		if !ok {
			return s.fail("a bracket closes what it did not open")
		}
		if done {
			return nil
		}
	}
}

// scanState is where container is in a value: the closers owed, and
// whether in a string, just past a backslash.
type scanState struct {
	stack      []byte
	inStr, esc bool
}

// scan passes b, the buffered bytes, up to the value's end: i is where it
// stopped, done whether the value ended there, ok false at a bracket that
// closes what it did not open.
func (s *headScanner) scan(b []byte, st *scanState, keep bool) (i int, done, ok bool) {
	for i < len(b) {
		if st.inStr {
			from := i
			i = st.inString(b, i)
			if keep {
				s.out = append(s.out, b[from:i]...)
			}
			continue
		}
		var found bool
		if i, found = s.outside(b, i, keep); !found {
			return i, false, true
		}
		switch c := b[i-1]; c {
		case '"':
			st.inStr = true
		case '{', '[':
			st.stack = append(st.stack, closer(c))
		default:
			if st.stack[len(st.stack)-1] != c {
				return i, false, false
			}
			st.stack = st.stack[:len(st.stack)-1]
			if len(st.stack) == 0 {
				return i, true, true
			}
		}
	}
	return i, false, true
}

// inString passes a string's bytes from b[i]: past its closing quote, or
// to b's end.
func (st *scanState) inString(b []byte, i int) int {
	for i < len(b) {
		if st.esc {
			st.esc = false
			i++
			continue
		}
		for i < len(b) && !strStop[b[i]] {
			i++
		}
		if i == len(b) {
			break
		}
		i++
		if b[i-1] == '\\' {
			st.esc = true
			continue
		}
		st.inStr = false
		break
	}
	return i
}

// outside passes bytes outside any string from b[i], up to and with the
// next that opens or closes something (found), or to b's end; when keep
// is set, what is not white space is kept as it is passed.
func (s *headScanner) outside(b []byte, i int, keep bool) (int, bool) {
	if !keep {
		for i < len(b) && !structural[b[i]] {
			i++
		}
	} else {
		out := s.out
		for i < len(b) && !structural[b[i]] {
			if !space[b[i]] {
				out = append(out, b[i])
			}
			i++
		}
		if i < len(b) {
			out = append(out, b[i])
		}
		s.out = out
	}
	if i == len(b) {
		return i, false
	}
	return i + 1, true
}

func closer(open byte) byte {
	if open == '{' {
		return '}'
	}
	return ']'
}

// RanAtOf is the ran_at of the report rd holds, read up to it and no
// further (WriteJSON writes it second): what orders reports by date
// before any is read whole. It is "" for a file without one, or that is
// not a JSON object: ReadHead says what is wrong with such a file.
func RanAtOf(rd io.Reader) string {
	s := &headScanner{r: bufio.NewReaderSize(rd, 4<<10)}
	if c, err := s.next(); err != nil || c != '{' {
		return ""
	}
	for first := true; ; first = false {
		c, err := s.next()
		if err == nil && !first && c == ',' {
			c, err = s.next()
		}
		if err != nil || c != '"' {
			return ""
		}
		s.out = append(s.out[:0], '"')
		if s.str(true) != nil {
			return ""
		}
		key := string(s.out)
		if c, err := s.next(); err != nil || c != ':' {
			return ""
		}
		s.out = s.out[:0]
		if err := s.value(key == `"ran_at"`); err != nil {
			return ""
		}
		if key == `"ran_at"` {
			var at string
			json.Unmarshal(s.out, &at)
			return at
		}
	}
}
