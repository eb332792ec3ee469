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

// unmarshalHead decodes head, a report's top-level object, into r: ok is
// false when it did not, and r is then to be decoded again.
func unmarshalHead(head []byte, r *Report) bool {
	type cut struct {
		model    string
		class    byte
		from, to int
		docs     []DocumentResult
		decoded  bool // docs were read by docDecoder
	}
	var cuts []cut
	var d docDecoder
	skip := func(from int) (int, bool) { return skipValue(head, from) }
	// Walk results → model → class_X → per_document, each value passed
	// once, decoding each per_document as it is passed and cutting it out.
	_, ok := members(head, 0, func(key []byte, from int) (int, bool) {
		if string(key) != `"results"` {
			if bytes.EqualFold(key, []byte(`"results"`)) {
				return 0, false
			}
			return skip(from)
		}
		if d.b, d.i = head, from; d.null() {
			return d.i, true
		}
		return members(head, from, func(mkey []byte, mfrom int) (int, bool) {
			var model string
			if json.Unmarshal(mkey, &model) != nil {
				return 0, false
			}
			return members(head, mfrom, func(ckey []byte, cfrom int) (int, bool) {
				k := string(ckey)
				if k != `"class_a"` && k != `"class_b"` && k != `"class_c"` {
					if bytes.EqualFold(ckey, []byte(`"class_a"`)) || bytes.EqualFold(ckey, []byte(`"class_b"`)) || bytes.EqualFold(ckey, []byte(`"class_c"`)) {
						return 0, false
					}
					return skip(cfrom)
				}
				return members(head, cfrom, func(dkey []byte, dfrom int) (int, bool) {
					if string(dkey) != `"per_document"` {
						if bytes.EqualFold(dkey, []byte(`"per_document"`)) {
							return 0, false
						}
						return skip(dfrom)
					}
					c := cut{model: model, class: k[7] - 'a' + 'A', from: dfrom}
					d.b, d.i = head, dfrom
					if docs, ok := d.docs(); ok {
						c.to, c.docs, c.decoded = d.i, docs, true
					} else if c.to, ok = skip(dfrom); !ok {
						return 0, false
					}
					cuts = append(cuts, c)
					return c.to, true
				})
			})
		})
	})
	if !ok {
		return false
	}
	rest := head
	if len(cuts) > 0 {
		rest = make([]byte, 0, len(head))
		at := 0
		for _, c := range cuts {
			rest = append(append(rest, head[at:c.from]...), "null"...)
			at = c.to
		}
		rest = append(rest, head[at:]...)
	}
	if json.Unmarshal(rest, r) != nil {
		return false
	}
	for _, c := range cuts {
		m := r.Results[c.model]
		if m == nil {
			return false
		}
		cr := m.Class(string(c.class))
		if cr == nil {
			return false
		}
		if !c.decoded {
			if json.Unmarshal(head[c.from:c.to], &c.docs) != nil {
				return false
			}
		}
		cr.PerDocument = c.docs
	}
	return true
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
	var seen []string
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
			if k == string(key) {
				return 0, false
			}
		}
		seen = append(seen, string(key))
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
		if !d.object(func(key string) bool {
			switch key {
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
				if d.null() {
					doc.Components = nil
					return true
				}
				var c metric.Components
				doc.Components = &c
				return d.object(func(key string) bool {
					switch key {
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
			case "repeats":
				if d.null() {
					doc.Repeats = nil
					return true
				}
				doc.Repeats = []RepeatResult{}
				return d.array(func() bool {
					var rr RepeatResult
					if !d.object(func(key string) bool {
						switch key {
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
					}) {
						return false
					}
					doc.Repeats = append(doc.Repeats, rr)
					return true
				})
			}
			return false
		}) {
			return false
		}
		docs = append(docs, doc)
		return true
	})
	return docs, ok
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
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '[' {
		return false
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return true
	}
	for {
		if !elem() {
			return false
		}
		d.space()
		if d.i >= len(d.b) {
			return false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return true
		default:
			return false
		}
	}
}

// object reads an object's members, each value by member (given its key),
// refusing a key twice.
func (d *docDecoder) object(member func(key string) bool) bool {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return false
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return true
	}
	var seen [12]string
	n := 0
	for {
		var key string
		if !d.str(&key) {
			return false
		}
		for _, k := range seen[:n] {
			if k == key {
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
		d.space()
		if d.i >= len(d.b) {
			return false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.space()
		case '}':
			d.i++
			return true
		default:
			return false
		}
	}
}

// str reads a string without escapes or control characters, of valid
// UTF-8.
func (d *docDecoder) str(s *string) bool {
	d.space()
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return false
	}
	j := d.i + 1
	for j < len(d.b) && d.b[j] != '"' {
		if d.b[j] == '\\' || d.b[j] < 0x20 {
			return false
		}
		j++
	}
	if j >= len(d.b) || !utf8.Valid(d.b[d.i+1:j]) {
		return false
	}
	*s = string(d.b[d.i+1 : j])
	d.i = j + 1
	return true
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
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return nil, false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return nil, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && !endsScalar[b[i]] {
		return nil, false
	}
	n := b[d.i:i]
	d.i = i
	return n, true
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
