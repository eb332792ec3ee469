package metric

import (
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// MaxDifferences bounds the differences a not-lossless diagnostic names.
const MaxDifferences = 10

// losslessForm returns d as a JSON value for the lossless comparison: d's
// members as written, less the declared "id" and the "edges" (compared as
// a multiset by losslessDiff), with every embed and link target made
// relative by rel. d is not changed: Document.Value builds fresh values
// for the typed members, and only those are rewritten.
func losslessForm(d *bend.Document, rel func(string) string) *bend.Value {
	v := d.Value()
	v.Members = slices.DeleteFunc(v.Members, func(m bend.Member) bool { return m.Key == "id" || m.Key == "edges" })
	if b := v.Get("blocks"); b != nil {
		bend.MapValueTargets(b.Elems, rel)
	}
	return v
}

// edgeStrings returns the canonical JSON of each edge of d, references made
// relative by rel, in document order.
func edgeStrings(d *bend.Document, rel func(string) string) []string {
	out := make([]string, len(d.Edges))
	for i, e := range d.Edges {
		c := *e
		c.Subject, c.Object = rel(e.Subject), rel(e.Object)
		out[i] = canon(c.Value())
	}
	return out
}

// losslessDiff returns the first differences (at most MaxDifferences, each
// "pointer: what") between the expected document and the output under the
// lossless equivalences of doc.go, and whether there are more. No
// difference means lossless (for a valid, schema-valid output).
func losslessDiff(exp, out *bend.Document, relExp, relOut func(string) string) (diffs []string, more bool) {
	d := &differ{}
	d.value("", losslessForm(exp, relExp), losslessForm(out, relOut))
	d.edges(edgeStrings(exp, relExp), edgeStrings(out, relOut))
	return d.out, d.more
}

// differ collects differences between two JSON values by JSON pointer.
type differ struct {
	out  []string
	more bool
}

func (d *differ) add(ptr, what string) {
	if len(d.out) == MaxDifferences {
		d.more = true
		return
	}
	if ptr == "" {
		ptr = "/"
	}
	d.out = append(d.out, ptr+": "+what)
}

func (d *differ) full() bool { return len(d.out) == MaxDifferences }

// value compares a (expected) with b (output) at ptr: objects member by
// member whatever their order, arrays element by element, scalars by
// their canonical JSON (so 1.0 equals 1).
func (d *differ) value(ptr string, a, b *bend.Value) {
	switch {
	case d.full() && d.more:
		return
	case a.Kind != b.Kind:
		d.add(ptr, excerpt(a)+" → "+excerpt(b))
	case a.Kind == bend.Object:
		d.object(ptr, a, b)
	case a.Kind == bend.Array:
		for i := 0; i < max(len(a.Elems), len(b.Elems)) && !(d.full() && d.more); i++ {
			p := ptr + "/" + strconv.Itoa(i)
			switch {
			case i >= len(b.Elems):
				d.add(p, "missing from the output ("+excerpt(a.Elems[i])+")")
			case i >= len(a.Elems):
				d.add(p, "not expected ("+excerpt(b.Elems[i])+")")
			default:
				d.value(p, a.Elems[i], b.Elems[i])
			}
		}
	case a.Kind == bend.String && a.Str == b.Str:
	default:
		if canon(a) != canon(b) {
			d.add(ptr, excerpt(a)+" → "+excerpt(b))
		}
	}
}

// object compares two objects member by member, in key order, the first
// member of a key on each side (as Value.Get finds it). Each side's
// positions are sorted by key once and the two merged: a linear Get per
// key made an object of k members cost k², and a 16 MiB answer of many
// members about 40 minutes (issue 45). Two objects of the same keys in
// the same order (an output that kept the object) share one sort.
func (d *differ) object(ptr string, a, b *bend.Value) {
	ai := firstByKey(a)
	bi := ai
	if !sameKeys(a, b) {
		bi = firstByKey(b)
	}
	for i, j := 0, 0; i < len(ai) || j < len(bi); {
		var c int
		switch {
		case i == len(ai):
			c = 1
		case j == len(bi):
			c = -1
		default:
			c = strings.Compare(a.Members[ai[i]].Key, b.Members[bi[j]].Key)
		}
		switch {
		case c < 0:
			d.add(ptr+"/"+bend.EscapePointer(a.Members[ai[i]].Key), "missing from the output")
			i++
		case c > 0:
			bv := b.Members[bi[j]].Value
			d.add(ptr+"/"+bend.EscapePointer(b.Members[bi[j]].Key), "not expected ("+excerpt(bv)+")")
			j++
		default:
			d.value(ptr+"/"+bend.EscapePointer(a.Members[ai[i]].Key), a.Members[ai[i]].Value, b.Members[bi[j]].Value)
			i, j = i+1, j+1
		}
	}
}

// sameKeys reports whether two objects have the same keys in the same
// order.
func sameKeys(a, b *bend.Value) bool {
	if len(a.Members) != len(b.Members) {
		return false
	}
	for i, m := range a.Members {
		if b.Members[i].Key != m.Key {
			return false
		}
	}
	return true
}

// firstByKey returns the positions of an object's members sorted by key,
// the first member of each key only.
func firstByKey(v *bend.Value) []int {
	idx := make([]int, len(v.Members))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int { return strings.Compare(v.Members[i].Key, v.Members[j].Key) })
	return slices.CompactFunc(idx, func(i, j int) bool { return v.Members[i].Key == v.Members[j].Key })
}

// edges compares the edges as multisets: an expected edge the output lacks
// is named by its pointer in the expected document, an output edge not
// expected (or one copy too many) by its pointer in the output. The
// message says which.
func (d *differ) edges(exp, out []string) {
	left := map[string]int{}
	for _, e := range out {
		left[e]++
	}
	for i, e := range exp {
		if left[e] > 0 {
			left[e]--
			continue
		}
		d.add("/edges/"+strconv.Itoa(i), "an edge of the expected document missing from the output: "+e)
	}
	for j := len(out) - 1; j >= 0; j-- {
		// Walk backwards so that of two copies the later one is extra.
		if left[out[j]] > 0 {
			left[out[j]]--
			d.add("/edges/"+strconv.Itoa(j), "an edge the expected document does not have: "+out[j])
		}
	}
}

// canon is v's RFC 8785 form by the document model's own canonicalizer
// (bend.CanonicalValue, tested against gowebpki/jcs), which works on the
// parsed value: the lossless, residual and unrequested-change comparisons
// canonicalize every span, block shell, edge and meta leaf, and
// re-parsing each through jcs made scoring a 1 MB document 20 times
// slower. A value it cannot canonicalize (a number beyond float64) is
// compared as written.
func canon(v *bend.Value) string {
	if b, err := bend.CanonicalValue(v); err == nil {
		return string(b)
	}
	return string(bend.MarshalValue(v))
}

// excerpt is a value's canonical JSON, cut to 80 bytes.
func excerpt(v *bend.Value) string { return cut(canon(v)) }

// cut cuts s to at most 80 bytes, at a rune boundary, marking the cut.
func cut(s string) string {
	if len(s) <= 80 {
		return s
	}
	n := 77
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// losslessRel returns the reference normalizations of the lossless
// comparison: in E, references naming E's or S's id made relative; in O,
// references naming S's or E's id (not O's own declared id).
func losslessRel(src, exp *bend.Document) (relExp, relOut func(string) string) {
	return func(s string) string { return bend.RelativeTo(s, exp.ID, src.ID) },
		func(s string) string { return bend.RelativeTo(s, src.ID, exp.ID) }
}
