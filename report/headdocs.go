package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/metric"
)

// This file decodes a report's head (ReadHead) with its per-document
// results, most of a head's bytes, read by a hand-written decoder rather
// than encoding/json's reflection (issue 55: a trend of 365 delegate
// reports spent most of its time there). It takes only what it reads
// exactly as encoding/json would; anything else (an escape in a string,
// a key it does not know, a number of another form, a duplicate key) is
// given back to encoding/json, and a head that does not decode is decoded
// whole again by the caller, for encoding/json's error.

// unmarshalHead decodes head, a report's top-level object, into r (buf a
// buffer to reuse): ok is false when it did not, and r is then to be
// decoded again.
func unmarshalHead(head []byte, r *Report, buf *[]byte) bool {
	w := headWalk{b: head}
	if _, ok := members(head, 0, w.top); !ok {
		return false
	}
	rest := head
	if len(w.cuts) > 0 {
		rest = (*buf)[:0]
		at := 0
		for _, c := range w.cuts {
			rest = append(append(rest, head[at:c.from]...), "null"...)
			at = c.to
		}
		rest = append(rest, head[at:]...)
		if cap(rest) <= 64<<20 {
			*buf = rest[:0]
		}
	}
	if json.Unmarshal(rest, r) != nil {
		return false
	}
	for _, c := range w.cuts {
		m := r.Results[c.model]
		if m == nil {
			return false
		}
		cr := m.Class(string(c.class))
		if cr == nil {
			return false
		}
		if !c.decoded && json.Unmarshal(head[c.from:c.to], &c.docs) != nil {
			return false
		}
		cr.PerDocument = c.docs
	}
	return true
}

// headWalk walks a head's results → model → class_X → per_document, each
// value passed once, decoding each per_document as it is passed, to be
// cut out of what encoding/json decodes. Each step returns where the
// value it was given ends; a key that encoding/json would match to one
// the walk follows, written otherwise, stops the walk (ok false).
type headWalk struct {
	b    []byte
	d    docDecoder
	cuts []docsCut
	// model and class are the model and class ("A", "B", "C") walked.
	model string
	class byte
}

// docsCut is a per_document value: its span in the head, and its
// documents.
type docsCut struct {
	model    string
	class    byte
	from, to int
	docs     []DocumentResult
	decoded  bool // docs were read by docDecoder
}

// follows reports whether key is want; ok is false for a key encoding/json
// matches to want, written otherwise.
func follows(key []byte, want string) (is, ok bool) {
	if string(key) == want {
		return true, true
	}
	return false, !bytes.EqualFold(key, []byte(want))
}

func (w *headWalk) top(key []byte, from int) (int, bool) {
	if is, ok := follows(key, `"results"`); !is {
		return w.skip(from, ok)
	}
	if w.d.b, w.d.i = w.b, from; w.d.null() {
		return w.d.i, true
	}
	return members(w.b, from, w.models)
}

func (w *headWalk) models(key []byte, from int) (int, bool) {
	if json.Unmarshal(key, &w.model) != nil {
		return 0, false
	}
	return members(w.b, from, w.classes)
}

func (w *headWalk) classes(key []byte, from int) (int, bool) {
	for _, class := range []string{`"class_a"`, `"class_b"`, `"class_c"`} {
		if is, ok := follows(key, class); is {
			w.class = class[7] - 'a' + 'A'
			return members(w.b, from, w.classMember)
		} else if !ok {
			return 0, false
		}
	}
	return w.skip(from, true)
}

func (w *headWalk) classMember(key []byte, from int) (int, bool) {
	if is, ok := follows(key, `"per_document"`); !is {
		return w.skip(from, ok)
	}
	c := docsCut{model: w.model, class: w.class, from: from}
	w.d.b, w.d.i = w.b, from
	if docs, ok := w.d.docs(); ok {
		c.to, c.docs, c.decoded = w.d.i, docs, true
	} else if c.to, ok = skipValue(w.b, from); !ok {
		return 0, false
	}
	w.cuts = append(w.cuts, c)
	return c.to, true
}

// skip passes the value at from, when ok.
func (w *headWalk) skip(from int, ok bool) (int, bool) {
	if !ok {
		return 0, false
	}
	return skipValue(w.b, from)
}

// members calls f with each member of the object at b[i] (its key as
// written, where its value starts), which returns where the value ends;
// members returns where the object ends. ok is false when b[i] is no
// object of members with distinct keys, or f returned false.
func members(b []byte, i int, f func(key []byte, from int) (int, bool)) (int, bool) {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	var seen [][]byte
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		keyEnd, ok := skipValue(b, i)
		if !ok {
			return 0, false
		}
		key := b[i:keyEnd]
		for _, k := range seen {
			if bytes.Equal(k, key) {
				return 0, false
			}
		}
		seen = append(seen, key)
		i = skipSpace(b, keyEnd)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		to, ok := f(key, skipSpace(b, i+1))
		if !ok {
			return 0, false
		}
		i = skipSpace(b, to)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		return 0, false
	}
}

// docDecoder decodes per-document results; the numbers and booleans
// pointed to are allocated a block at a time.
type docDecoder struct {
	b      []byte
	i      int
	floats []float64
	bools  []bool
	ints   []int
}

func (d *docDecoder) float(v float64) *float64 {
	if len(d.floats) == cap(d.floats) {
		d.floats = make([]float64, 0, 256)
	}
	d.floats = append(d.floats, v)
	return &d.floats[len(d.floats)-1]
}

func (d *docDecoder) boolean(v bool) *bool {
	if len(d.bools) == cap(d.bools) {
		d.bools = make([]bool, 0, 256)
	}
	d.bools = append(d.bools, v)
	return &d.bools[len(d.bools)-1]
}

func (d *docDecoder) integer(v int) *int {
	if len(d.ints) == cap(d.ints) {
		d.ints = make([]int, 0, 64)
	}
	d.ints = append(d.ints, v)
	return &d.ints[len(d.ints)-1]
}

// docs decodes the JSON array of per-document results at d.b[d.i:] (or
// null), leaving d.i past it; ok is false for anything it does not read
// exactly as encoding/json would.
func (d *docDecoder) docs() (docs []DocumentResult, ok bool) {
	if d.null() {
		return nil, true
	}
	docs = []DocumentResult{}
	ok = d.array(func() bool {
		var doc DocumentResult
		if !d.object(func(key []byte) bool { return d.docMember(&doc, key) }) {
			return false
		}
		docs = append(docs, doc)
		return true
	})
	return docs, ok
}

// docMember reads a document's member key.
func (d *docDecoder) docMember(doc *DocumentResult, key []byte) bool {
	switch string(key) {
	case "task_id":
		return d.str(&doc.TaskID)
	case "document":
		return d.str(&doc.Document)
	case "drift":
		return d.floatPtr(&doc.Drift)
	case "residual":
		return d.floatPtr(&doc.Residual)
	case "faithful":
		return d.floatPtr(&doc.Faithful)
	case "components":
		return d.components(&doc.Components)
	case "repeats":
		return d.repeats(&doc.Repeats)
	}
	return false
}

func (d *docDecoder) components(p **metric.Components) bool {
	if d.null() {
		*p = nil
		return true
	}
	var c metric.Components
	*p = &c
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "block_structure":
			return d.num(&c.BlockStructure)
		case "edge_preservation":
			return d.num(&c.EdgePreservation)
		case "span_coverage":
			return d.num(&c.SpanCoverage)
		case "mark_fidelity":
			return d.num(&c.MarkFidelity)
		case "vocabulary_integrity":
			return d.num(&c.VocabularyIntegrity)
		}
		return false
	})
}

func (d *docDecoder) repeats(p *[]RepeatResult) bool {
	if d.null() {
		*p = nil
		return true
	}
	*p = []RepeatResult{}
	return d.array(func() bool {
		var rr RepeatResult
		if !d.object(func(key []byte) bool { return d.repeatMember(&rr, key) }) {
			return false
		}
		*p = append(*p, rr)
		return true
	})
}

// repeatMember reads a repeat's member key.
func (d *docDecoder) repeatMember(rr *RepeatResult, key []byte) bool {
	switch string(key) {
	case "repeat":
		return d.int(&rr.Repeat)
	case "status":
		return d.str(&rr.Status)
	case "drift":
		return d.floatPtr(&rr.Drift)
	case "residual":
		return d.floatPtr(&rr.Residual)
	case "faithful":
		return d.boolPtr(&rr.Faithful)
	case "lossless":
		return d.boolPtr(&rr.Lossless)
	case "edit_applied":
		return d.boolPtr(&rr.EditApplied)
	case "valid":
		return d.boolPtr(&rr.Valid)
	case "unrequested":
		if d.null() {
			rr.Unrequested = nil
			return true
		}
		var n int
		if !d.int(&n) {
			return false
		}
		rr.Unrequested = d.integer(n)
		return true
	case "transcript":
		return d.str(&rr.Transcript)
	}
	return false
}

func (d *docDecoder) space() {
	d.i = skipSpace(d.b, d.i)
}

// lit consumes the literal s when it is next.
func (d *docDecoder) lit(s string) bool {
	d.space()
	if bytes.HasPrefix(d.b[d.i:], []byte(s)) && (d.i+len(s) == len(d.b) || endsScalar[d.b[d.i+len(s)]]) {
		d.i += len(s)
		return true
	}
	return false
}

func (d *docDecoder) null() bool { return d.lit("null") }

func (d *docDecoder) array(elem func() bool) bool {
	empty, ok := d.open('[', ']')
	if !ok || empty {
		return ok
	}
	for {
		if !elem() {
			return false
		}
		if more, ok := d.next(']'); !ok || !more {
			return ok
		}
	}
}

// open consumes the opening bracket c of an array or object, and its
// closing bracket end too when nothing stands between them: empty is
// then true. ok is false when c is not next.
func (d *docDecoder) open(c, end byte) (empty, ok bool) {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != c {
		return false, false
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == end {
		d.i++
		return true, true
	}
	return false, true
}

// next consumes what follows a member or an element: a comma (more is
// true) or the closing bracket end (more is false). ok is false for
// anything else.
func (d *docDecoder) next(end byte) (more, ok bool) {
	d.space()
	if d.i >= len(d.b) {
		return false, false
	}
	switch d.b[d.i] {
	case ',':
		d.i++
		d.space()
		return true, true
	case end:
		d.i++
		return false, true
	}
	return false, false
}

// object reads an object's members, each value by member (given its key),
// refusing a key twice.
func (d *docDecoder) object(member func(key []byte) bool) bool {
	empty, ok := d.open('{', '}')
	if !ok || empty {
		return ok
	}
	var seen [12][]byte
	n := 0
	for {
		key, ok := d.strBytes()
		if !ok {
			return false
		}
		for _, k := range seen[:n] {
			if bytes.Equal(k, key) {
				return false
			}
		}
		if n == len(seen) {
			return false
		}
		seen[n] = key
		n++
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return false
		}
		d.i++
		if !member(key) {
			return false
		}
		if more, ok := d.next('}'); !ok || !more {
			return ok
		}
	}
}

// str reads a string without escapes or control characters, of valid
// UTF-8.
func (d *docDecoder) str(s *string) bool {
	b, ok := d.strBytes()
	if ok {
		*s = string(b)
	}
	return ok
}

// strBytes is str's bytes, in d.b.
func (d *docDecoder) strBytes() ([]byte, bool) {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	j := d.i + 1
	for j < len(d.b) && d.b[j] != '"' {
		if d.b[j] == '\\' || d.b[j] < 0x20 {
			return nil, false
		}
		j++
	}
	if j >= len(d.b) || !utf8.Valid(d.b[d.i+1:j]) {
		return nil, false
	}
	b := d.b[d.i+1 : j]
	d.i = j + 1
	return b, true
}

// number reads a JSON number's bytes.
func (d *docDecoder) number() ([]byte, bool) {
	d.space()
	b, i := d.b, d.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return nil, false
	}
	ok := true
	if i < len(b) && b[i] == '.' {
		i, ok = moreDigits(b, i+1)
	}
	if ok && i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		i, ok = moreDigits(b, i)
	}
	if !ok || i < len(b) && !endsScalar[b[i]] {
		return nil, false
	}
	n := b[d.i:i]
	d.i = i
	return n, true
}

// digits is the index past the digits from b[i].
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// moreDigits is digits, ok false when there is none.
func moreDigits(b []byte, i int) (int, bool) {
	j := digits(b, i)
	return j, j > i
}

func (d *docDecoder) num(v *float64) bool {
	n, ok := d.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return false
	}
	*v = f
	return true
}

func (d *docDecoder) int(v *int) bool {
	n, ok := d.number()
	if !ok {
		return false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return false
	}
	*v = int(i)
	return true
}

func (d *docDecoder) floatPtr(p **float64) bool {
	if d.null() {
		*p = nil
		return true
	}
	var f float64
	if !d.num(&f) {
		return false
	}
	*p = d.float(f)
	return true
}

func (d *docDecoder) boolPtr(p **bool) bool {
	switch {
	case d.null():
		*p = nil
	case d.lit("true"):
		*p = d.boolean(true)
	case d.lit("false"):
		*p = d.boolean(false)
	default:
		return false
	}
	return true
}
