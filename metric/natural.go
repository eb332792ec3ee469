package metric

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// Align matches the new content of an output to the new content of the
// expected document, for tasks whose instruction does not dictate the ids
// of what it adds (the natural suite): a new id is a block or span id the
// source does not have. It returns the renaming, output id → expected id.
// The rule is in doc.go ("Alignment of new ids").
func Align(source, expected, output *bend.Document) map[string]string {
	old := blockIDs(source)
	a := aligner{old: old, rename: map[string]string{}, taken: map[string]bool{}}
	a.blocks(newBlocks(expected.Blocks, "", old), newBlocks(output.Blocks, "", old))
	// Spans, in every block both have (after the blocks' renaming). A span
	// id names a span within its block, so a span is new when its block in
	// the source does not have that id (every span of a new block is new);
	// the renaming of span ids is kept per block.
	exp, src := blockIndex(expected), blockIndex(source)
	output.Walk(func(b *bend.Block, _ int, _ string) bool {
		e := exp[a.name(b.ID)]
		if e == nil {
			return true
		}
		oldSpans := map[string]bool{}
		if s := src[a.name(b.ID)]; s != nil {
			for _, sp := range s.Spans {
				oldSpans[sp.ID] = true
			}
		}
		sa := aligner{old: oldSpans, rename: map[string]string{}, taken: map[string]bool{}}
		sa.spans(newSpans(e.Spans, oldSpans), newSpans(b.Spans, oldSpans))
		for o, n := range sa.rename {
			a.rename[b.ID+"."+o] = n
		}
		return true
	})
	return a.rename
}

// aligner builds the renaming; taken are the expected ids already matched.
type aligner struct {
	old    map[string]bool
	rename map[string]string
	taken  map[string]bool
}

func (a *aligner) name(id string) string {
	if n, ok := a.rename[id]; ok {
		return n
	}
	return id
}

// match records out → exp when both are free.
func (a *aligner) match(out, exp string) bool {
	if _, done := a.rename[out]; done || a.taken[exp] || a.old[out] {
		return false
	}
	a.rename[out], a.taken[exp] = exp, true
	return true
}

// newItem is one new block or span with its place: its parent (the
// expected side's name), the nearest preceding sibling that is not new, how
// many new siblings come between, and its content.
type newItem struct {
	id, parent, anchor string
	k                  int
	content            string
}

func (n newItem) key(parent string) string {
	return parent + "\x00" + n.anchor + "\x00" + strconv.Itoa(n.k)
}

// blocks matches new blocks by place (parent, anchor, k) first, then the
// rest by equal kind and text. The output's parents are renamed as they
// are matched, so new blocks inside new blocks are matched too (pre-order).
func (a *aligner) blocks(exp, out []newItem) {
	byKey := map[string]string{}
	for _, e := range exp {
		byKey[e.key(e.parent)] = e.id
	}
	for _, o := range out {
		if e, ok := byKey[o.key(a.name(o.parent))]; ok {
			a.match(o.id, e)
		}
	}
	a.byContent(exp, out)
}

func (a *aligner) spans(exp, out []newItem) {
	byKey := map[string]string{}
	for _, e := range exp {
		byKey[e.key("")] = e.id
	}
	for _, o := range out {
		if e, ok := byKey[o.key("")]; ok {
			a.match(o.id, e)
		}
	}
	a.byContent(exp, out)
}

// byContent matches what place did not, in order, by equal content.
func (a *aligner) byContent(exp, out []newItem) {
	for _, o := range out {
		for _, e := range exp {
			if o.content == e.content && a.match(o.id, e.id) {
				break
			}
		}
	}
}

// newBlocks lists the new blocks below blocks, in pre-order.
func newBlocks(blocks []*bend.Block, parent string, old map[string]bool) []newItem {
	var out []newItem
	anchor, k := "", 0
	for _, b := range blocks {
		if old[b.ID] {
			anchor, k = b.ID, 0
		} else {
			out = append(out, newItem{id: b.ID, parent: parent, anchor: anchor, k: k, content: b.Kind + "\x00" + b.PlainText()})
			k++
		}
		out = append(out, newBlocks(b.Items, b.ID, old)...)
		out = append(out, newBlocks(b.Blocks, b.ID, old)...)
	}
	return out
}

func newSpans(spans []*bend.Span, old map[string]bool) []newItem {
	var out []newItem
	anchor, k := "", 0
	for _, s := range spans {
		if old[s.ID] {
			anchor, k = s.ID, 0
			continue
		}
		text := ""
		if s.Text != nil {
			text = *s.Text
		}
		out = append(out, newItem{id: s.ID, anchor: anchor, k: k, content: text})
		k++
	}
	return out
}

// blockIDs is every block id of d.
func blockIDs(d *bend.Document) map[string]bool {
	out := map[string]bool{}
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		out[b.ID] = true
		return true
	})
	return out
}

// Rename returns a copy of d with ids renamed, and every reference that
// names them (edge subjects and objects, link targets, embed targets)
// renamed with them. A key "blk" renames a block; a key "blk.spn" renames
// span spn of block blk (blk as d names it), since a span id names a span
// within its block.
func Rename(d *bend.Document, rename map[string]string) *bend.Document {
	c := d.Clone()
	ref := func(r string) string {
		doc, blk, spn, ok := bend.CutRef(r)
		if !ok {
			return r
		}
		if n, ok := rename[blk+"."+spn]; spn != "" && ok {
			spn = n
		}
		if n, ok := rename[blk]; ok {
			blk = n
		}
		return bend.Ref{Bend: true, Doc: doc, Block: blk, Span: spn}.String()
	}
	// References first: a span key names the block as d names it.
	c.MapRefs(ref)
	c.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			if n, ok := rename[b.ID+"."+s.ID]; ok {
				s.ID = n
			}
		}
		if n, ok := rename[b.ID]; ok {
			b.ID = n
		}
		return true
	})
	return c
}

// ScoreAligned scores a raw answer to a task whose new content is not named
// by the instruction (the natural suite): the output's new ids are aligned
// to the expected document's (Align), renamed (Rename), and the renamed
// output is scored as Score scores any (ops are the gold edit bound to the
// expected document's names). The renaming is recorded in Result.Aligned.
func ScoreAligned(source, expected *bend.Document, ops []*edit.Op, raw string, w Weights) Result {
	mustValidate(w)
	x := ExtractJSON(raw, isDocument)
	if x.Value == nil || x.Reason != "" {
		return invalid(x, ops, w)
	}
	if reason := documentShape(x.Value); reason != "" {
		x.Reason = reason
		return invalid(x, ops, w)
	}
	out := bend.FromValue(x.Value)
	rename := Align(source, expected, out)
	r := ScoreDocument(source, expected, ops, Rename(out, rename), w)
	r.Extraction = x.How
	r.Aligned = rename
	if len(rename) > 0 {
		pairs := make([]string, 0, len(rename))
		for _, k := range slices.Sorted(maps.Keys(rename)) {
			pairs = append(pairs, k+" → "+rename[k])
		}
		r.Diagnostics = append(r.Diagnostics, Diagnostic{KindAligned, fmt.Sprintf("new ids aligned to the expected document's: %s", strings.Join(pairs, ", "))})
	}
	if x.Prose > 0 {
		r.Diagnostics = append(r.Diagnostics, Diagnostic{KindProse, fmt.Sprintf("%d non-blank characters outside the fenced block", x.Prose)})
	}
	sortDiagnostics(r.Diagnostics)
	return r
}

// RenameKeys returns the Rename keys that give every block and span of d
// whose id is in ids the name name(id): "blk" for a block, "blk.spn" for a
// span of block blk.
func RenameKeys(d *bend.Document, ids map[string]bool, name func(id string) string) map[string]string {
	out := map[string]string{}
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if ids[b.ID] {
			out[b.ID] = name(b.ID)
		}
		for _, s := range b.Spans {
			if ids[s.ID] {
				out[b.ID+"."+s.ID] = name(s.ID)
			}
		}
		return true
	})
	return out
}
