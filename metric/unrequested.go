package metric

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// absent is the value of a place a document does not have.
const absent = "\x00absent"

// place is one place of a document that an unrequested change can touch:
// its JSON pointer in that document and its value (canonical JSON, or
// absent).
type place struct{ ptr, val string }

// places returns d's places by key (doc.go, "Unrequested changes").
func places(d *bend.Document, rel func(string) string) map[string]place {
	m := map[string]place{
		"/bendscript": {"/bendscript", strconv.Quote(d.Bendscript)},
		"/vocabulary": {"/vocabulary", strconv.Quote(d.Vocabulary)},
	}
	if d.Title != nil {
		m["/title"] = place{"/title", strconv.Quote(*d.Title)}
	}
	switch {
	case d.Meta != nil && d.Meta.Kind == bend.Object:
		for _, mb := range d.Meta.Members {
			p := "/meta/" + bend.EscapePointer(mb.Key)
			m[p] = place{p, canon(mb.Value)}
		}
	case d.Meta != nil:
		m["/meta"] = place{"/meta", canon(d.Meta)}
	}
	for _, mb := range d.Extra {
		p := "/" + bend.EscapePointer(mb.Key)
		m[p] = place{p, canon(mb.Value)}
	}
	blockPlaces(d, rel, m)
	edgePlaces(d, rel, m)
	return m
}

// blockPlaces adds, per block, its shell (every member but its id, spans
// and children, with its parent's id) and, per span, the span (text, marks
// with relative targets, unknown members). A second block of one id is a
// place of its own.
func blockPlaces(d *bend.Document, rel func(string) string, m map[string]place) {
	seen := map[string]int{}
	var walk func(bs []*bend.Block, parent, ptr string)
	walk = func(bs []*bend.Block, parent, ptr string) {
		for i, b := range bs {
			p := ptr + "/" + strconv.Itoa(i)
			key := "block " + b.ID
			if n := seen[b.ID]; n > 0 {
				key += " (copy " + strconv.Itoa(n) + ")"
			}
			seen[b.ID]++
			m[key] = place{p, shellKey(b, rel) + "\x00in " + parent}
			if seen[b.ID] == 1 {
				for j, s := range b.Spans {
					m["span "+b.ID+"."+s.ID] = place{p + "/spans/" + strconv.Itoa(j), spanKey(s, rel)}
				}
			}
			walk(b.Items, b.ID, p+"/items")
			walk(b.Blocks, b.ID, p+"/blocks")
		}
	}
	walk(d.Blocks, "", "/blocks")
}

// shellKey is a block's own content, less its id, spans and children, as
// a string that is equal for equal content: its kind, its kind's
// attributes (the target relative), a code block's text, its unknown
// members in canonical form.
func shellKey(b *bend.Block, rel func(string) string) string {
	var k strings.Builder
	k.WriteString(b.Kind)
	if b.Level != nil {
		k.WriteString("\x00level=" + strconv.Itoa(*b.Level))
	}
	if b.Ordered != nil {
		k.WriteString("\x00ordered=" + strconv.FormatBool(*b.Ordered))
	}
	if b.Language != nil {
		k.WriteString("\x00language=" + *b.Language)
	}
	if b.Target != nil {
		k.WriteString("\x00target=" + rel(*b.Target))
	}
	if b.Text != nil {
		k.WriteString("\x00text=" + *b.Text)
	}
	if b.Spans == nil {
		k.WriteString("\x00no spans")
	}
	k.WriteString(extraKey(b.Extra))
	return k.String()
}

// spanKey is a span's text, marks (link targets relative) and unknown
// members as a string that is equal for equal spans.
func spanKey(s *bend.Span, rel func(string) string) string {
	var k strings.Builder
	if s.Text == nil {
		k.WriteString("\x00tombstone")
	} else {
		k.WriteString("text=" + *s.Text)
	}
	if s.Marks != nil {
		k.WriteString("\x00marks")
	}
	for _, m := range s.Marks {
		switch {
		case m.Raw != nil:
			k.WriteString("\x00raw=" + canon(m.Raw))
		case m.Link != nil:
			k.WriteString("\x00link=" + rel(m.Link.Target))
			if m.Link.Predicate != nil {
				k.WriteString("\x00predicate=" + *m.Link.Predicate)
			}
			k.WriteString(extraKey(m.Link.Extra))
		default:
			k.WriteString("\x00mark=" + m.Name)
		}
	}
	k.WriteString(extraKey(s.Extra))
	return k.String()
}

// extraKey is unknown members in canonical form (member order ignored),
// or "" when there are none.
func extraKey(extra []bend.Member) string {
	if len(extra) == 0 {
		return ""
	}
	return "\x00extra=" + canon(&bend.Value{Kind: bend.Object, Members: extra})
}

// edgePlaces adds one place per relative triple of the explicit edges:
// the sorted canonical JSON of its copies (meta and unknown members
// included), so a lost, added, duplicated or re-annotated edge changes it.
func edgePlaces(d *bend.Document, rel func(string) string, m map[string]place) {
	copies := map[string][]string{}
	first := map[string]int{}
	for i, e := range d.Edges {
		c := *e
		c.Subject, c.Object = rel(e.Subject), rel(e.Object)
		k := "edge " + edgeKey{c.Subject, c.Predicate, c.Object}.String()
		if _, ok := first[k]; !ok {
			first[k] = i
		}
		copies[k] = append(copies[k], canon(c.Value()))
	}
	for k, cs := range copies {
		sort.Strings(cs)
		m[k] = place{"/edges/" + strconv.Itoa(first[k]), strings.Join(cs, "\n")}
	}
}

// unrequested lists the places where the output differs from the expected
// document although the gold edit left them as the source had them:
// S(p) = E(p) ≠ O(p), plus blocks moved out of the expected order that
// the edit did not move. Each entry is "pointer: what", the pointer in the
// output (in the expected document for what the output lost).
func unrequested(src, exp, out *bend.Document, relSrc, relExp, relOut func(string) string) []string {
	ps, pe, po := places(src, relSrc), places(exp, relExp), places(out, relOut)
	keys := map[string]bool{}
	for _, m := range []map[string]place{pe, po} {
		for k := range m {
			keys[k] = true
		}
	}
	var list []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		s, e, o := val(ps, k), val(pe, k), val(po, k)
		if s != e || o == e {
			continue
		}
		switch {
		case o == absent:
			list = append(list, pe[k].ptr+": "+k+" lost")
		case e == absent:
			list = append(list, po[k].ptr+": "+k+" added")
		default:
			list = append(list, po[k].ptr+": "+k+" changed")
		}
	}
	byEdit := map[string]bool{}
	for _, id := range moved(blockOrder(src), blockOrder(exp)) {
		byEdit[id] = true
	}
	for _, id := range moved(blockOrder(exp), blockOrder(out)) {
		if !byEdit[id] {
			list = append(list, po["block "+id].ptr+": block "+id+" moved")
		}
	}
	return list
}

func val(m map[string]place, k string) string {
	if p, ok := m[k]; ok {
		return p.val
	}
	return absent
}

// blockOrder returns the ids of d's blocks in pre-order, first copies only.
func blockOrder(d *bend.Document) []string {
	var out []string
	seen := map[string]bool{}
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if !seen[b.ID] {
			seen[b.ID] = true
			out = append(out, b.ID)
		}
		return true
	})
	return out
}

// moved returns, of the ids both orders hold, those outside a longest
// common subsequence of the two orders (computed as a longest increasing
// subsequence of b's ids' positions in a, O(n log n)), in b's order.
func moved(a, b []string) []string {
	pos := make(map[string]int, len(a))
	for i, id := range a {
		pos[id] = i
	}
	var seq []int // positions in a, in b's order
	var ids []string
	for _, id := range b {
		if i, ok := pos[id]; ok {
			seq = append(seq, i)
			ids = append(ids, id)
		}
	}
	keep := lis(seq)
	var out []string
	for i, id := range ids {
		if !keep[i] {
			out = append(out, id)
		}
	}
	return out
}

// lis marks the members of one longest strictly increasing subsequence of
// seq (patience sorting with back-pointers).
func lis(seq []int) []bool {
	tails := []int{} // index into seq of the smallest tail of each length
	prev := make([]int, len(seq))
	for i, x := range seq {
		j := sort.Search(len(tails), func(j int) bool { return seq[tails[j]] >= x })
		prev[i] = -1
		if j > 0 {
			prev[i] = tails[j-1]
		}
		if j == len(tails) {
			tails = append(tails, i)
		} else {
			tails[j] = i
		}
	}
	keep := make([]bool, len(seq))
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			keep[i] = true
		}
	}
	return keep
}
