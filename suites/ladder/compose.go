package ladder

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/task"
)

// pending is the declared id of a rung while it is composed: absolute
// self-references name it until the content id is known, and bend.SetID
// then renames them. The id form ignores it (self-references are made
// relative before hashing), no CID contains '_', and it is as long as a CID
// so that sizes measured before the id is known stay exact.
var pending = "ladder_" + strings.Repeat("_", len(bend.CID(nil))-len("ladder_"))

// plan is what every rung of one Build shares.
type plan struct {
	vocabulary string
	num        map[*task.Document]int // corpus number: 1 + index in the sorted corpus
	tasks      []*task.Task
	taskDocs   []*task.Document // the tasks' documents, in order of first use
	filler     []*task.Document // the documents that fill a rung, in cycle order
}

func newPlan(set *task.Set, ids []string) (*plan, error) {
	p := &plan{vocabulary: chooseVocabulary(set.Documents), num: map[*task.Document]int{}}
	for i, d := range set.Documents {
		p.num[d] = i + 1
	}
	for _, id := range ids {
		t := set.Task(id)
		if t == nil {
			return nil, fmt.Errorf("no task %q", id)
		}
		if err := placeable(t); err != nil {
			return nil, fmt.Errorf("task %s: %w", id, err)
		}
		if !p.composable(t.Source) {
			return nil, fmt.Errorf("task %s: its document has vocabulary %q, and the rungs use %q", id, t.Source.Doc.Vocabulary, p.vocabulary)
		}
		if slices.Contains(p.tasks, t) {
			return nil, fmt.Errorf("task %s given twice", id)
		}
		p.tasks = append(p.tasks, t)
		if !slices.Contains(p.taskDocs, t.Source) {
			p.taskDocs = append(p.taskDocs, t.Source)
		}
	}
	// Vocabulary documents lead the cycle so that every rung with room for
	// one has vocabulary blocks; the tasks' documents stay out of it so that
	// every rung has exactly three copies of the text an instruction quotes.
	for pass := 0; pass < 2; pass++ {
		for _, d := range set.Documents {
			if p.composable(d) && (d.Doc.Vocabulary != "core") == (pass == 0) && !slices.Contains(p.taskDocs, d) {
				p.filler = append(p.filler, d)
			}
		}
	}
	return p, nil
}

// chooseVocabulary returns the rungs' vocabulary: the first non-core
// vocabulary, in corpus order, of a document with blocks of a kind core does
// not define; else the first non-core vocabulary; else core.
func chooseVocabulary(docs []*task.Document) string {
	first := ""
	for _, d := range docs {
		v := d.Doc.Vocabulary
		if v == "core" {
			continue
		}
		if hasVocabularyBlocks(d.Doc) {
			return v
		}
		if first == "" {
			first = v
		}
	}
	if first == "" {
		return "core"
	}
	return first
}

func hasVocabularyBlocks(d *bend.Document) bool {
	found := false
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		switch b.Kind {
		case bend.KindParagraph, bend.KindHeading, bend.KindList, bend.KindListItem,
			bend.KindCode, bend.KindQuote, bend.KindEmbed, bend.KindDivider:
			return true
		}
		found = true
		return false
	})
	return found
}

// composable reports whether d may be part of a rung: a core document, or
// one of the rungs' vocabulary (§6.1: predicates come from the document's
// vocabulary or from core).
func (p *plan) composable(d *task.Document) bool {
	return d.Doc.Vocabulary == "core" || d.Doc.Vocabulary == p.vocabulary
}

// part is one copy of a corpus document, renamed, before it is laid out.
type part struct {
	doc    *task.Document
	name   string
	blocks []*bend.Block
	edges  []*bend.Edge
	cost   int // bytes it adds to the marshalled rung
	count  int // blocks at every depth
}

var empty = len(bend.Marshal(&bend.Document{}))

func (p *plan) copyOf(d *task.Document, rep int) *part {
	name := fmt.Sprintf("d%02dr%d", p.num[d], rep)
	c := d.Doc.Clone()
	r := renamer{prefix: name + "-", src: d.Doc.ID, self: pending}
	r.blocks(c.Blocks)
	for _, e := range c.Edges {
		r.edge(e)
	}
	cost := len(bend.Marshal(&bend.Document{Blocks: c.Blocks, Edges: c.Edges})) - empty
	return &part{doc: d, name: name, blocks: c.Blocks, edges: c.Edges, cost: cost, count: CountBlocks(c)}
}

// header returns the rung's document without blocks or edges: its title and
// meta (the target, and which corpus documents the copies come from).
func (p *plan) header(name string, target int, used []*task.Document) *bend.Document {
	str := bend.StringValue
	num := func(n int) *bend.Value { return &bend.Value{Kind: bend.Number, Str: strconv.Itoa(n)} }
	obj := func(ms ...bend.Member) *bend.Value { return &bend.Value{Kind: bend.Object, Members: ms} }
	sources := &bend.Value{Kind: bend.Array}
	for _, d := range used {
		sources.Elems = append(sources.Elems, obj(
			bend.Member{Key: "prefix", Value: str(fmt.Sprintf("d%02d", p.num[d]))},
			bend.Member{Key: "document", Value: str(d.Name)},
			bend.Member{Key: "id", Value: str(d.Doc.ID)},
		))
	}
	meta := obj(bend.Member{Key: "ladder", Value: obj(
		bend.Member{Key: "rung", Value: str(name)},
		bend.Member{Key: "target_bytes", Value: num(target)},
		bend.Member{Key: "sources", Value: sources},
	)})
	v := obj(
		bend.Member{Key: "bendscript", Value: str(bend.Version)},
		bend.Member{Key: "id", Value: str(pending)},
		bend.Member{Key: "vocabulary", Value: str(p.vocabulary)},
		bend.Member{Key: "title", Value: str("Size ladder " + name + ": corpus documents composed under fresh ids")},
		bend.Member{Key: "meta", Value: meta},
		bend.Member{Key: "blocks", Value: &bend.Value{Kind: bend.Array}},
		bend.Member{Key: "edges", Value: &bend.Value{Kind: bend.Array}},
	)
	return bend.FromValue(v)
}

// sources returns the documents of parts, each once, in corpus order.
func (p *plan) sources(parts []*part) []*task.Document {
	var out []*task.Document
	for _, c := range parts {
		if !slices.Contains(out, c.doc) {
			out = append(out, c.doc)
		}
	}
	slices.SortFunc(out, func(a, b *task.Document) int { return p.num[a] - p.num[b] })
	return out
}

// compose joins the copies in order into the rung's document: their
// blocks, their edges once each, the computed id; it must be valid.
func (p *plan) compose(name string, target int, order []*part) (*Rung, error) {
	r := &Rung{Name: name, Target: target}
	d := p.header(name, target, p.sources(order))
	seen := map[string]bool{}
	for _, c := range order {
		r.Copies = append(r.Copies, Copy{Name: c.name, Document: c.doc.Name, First: len(d.Blocks), Blocks: len(c.blocks)})
		d.Blocks = append(d.Blocks, c.blocks...)
		for _, e := range c.edges {
			// Repeated documents repeat their edges to external or
			// whole-document references word for word; one is enough
			// (the id form drops duplicates too).
			k := string(bend.MarshalValue(e.Value()))
			if !seen[k] {
				seen[k] = true
				d.Edges = append(d.Edges, e)
			}
		}
	}
	id, err := bend.ID(d)
	if err != nil {
		return nil, err
	}
	bend.SetID(d, id)
	if errs := bend.Validate(d); len(errs) > 0 {
		return nil, fmt.Errorf("the composed document is invalid: %w", errs)
	}
	r.Doc, r.Bytes = d, bend.Marshal(d)
	return r, nil
}

// rung composes the rung of the given target size: the tasks' documents at
// the start, then half the filler, the tasks' documents again, the other
// half, and the tasks' documents a third time.
func (p *plan) rung(target int) (*Rung, error) {
	name := RungName(target)
	lo, hi := Bounds(target)
	// The tasks' documents are not in the filler, so their copies are
	// repetitions 0, 1 and 2 whatever the filler holds.
	var placed [3][]*part
	for i := range placed {
		for _, d := range p.taskDocs {
			placed[i] = append(placed[i], p.copyOf(d, i))
		}
	}
	fixed := slices.Concat(placed[0], placed[1], placed[2])
	least := p.size(name, target, fixed)
	var before, after []*part
	ok := false
	for start := 0; !ok && start < max(1, len(p.filler)); start++ {
		filler, est := p.fill(name, target, fixed, start)
		h := split(filler)
		before, after = filler[:h], filler[h:]
		ok = lo <= est && est <= hi && balanced(count(before), count(after))
	}
	if !ok {
		return nil, fmt.Errorf("whole documents cannot make %d–%d bytes with the middle copies in the middle third (the three copies of the tasks' documents alone take %d)", lo, hi, least)
	}
	order := slices.Concat(placed[0], before, placed[1], after, placed[2])
	r, err := p.compose(name, target, order)
	if err != nil {
		return nil, err
	}
	if n := len(r.Bytes); n < lo || n > hi {
		return nil, fmt.Errorf("%d bytes, outside %d–%d", n, lo, hi)
	}
	for i, pos := range Positions {
		for _, t := range p.tasks {
			c := placed[i][slices.Index(p.taskDocs, t.Source)]
			pt, err := place(r, t, pos, c.name)
			if err != nil {
				return nil, fmt.Errorf("task %s at the %s: %w", t.ID, pos, err)
			}
			r.Tasks = append(r.Tasks, pt)
		}
	}
	return r, nil
}

// size returns the size in bytes of a rung made of parts (exact but for a
// few bytes of separators per part).
func (p *plan) size(name string, target int, parts []*part) int {
	n := len(bend.Marshal(p.header(name, target, p.sources(parts))))
	for _, c := range parts {
		n += c.cost
	}
	return n
}

// fill walks the filler cycle from document start, taking each document
// that keeps a rung of fixed and the filler under its upper bound, until
// the target is reached or a whole cycle fits nothing. It returns the
// filler and the rung's size.
func (p *plan) fill(name string, target int, fixed []*part, start int) ([]*part, int) {
	_, hi := Bounds(target)
	reps := map[*task.Document]int{}
	all := slices.Clip(fixed)
	est := p.size(name, target, all)
	var filler []*part
	for k, miss := start, 0; est < target && len(p.filler) > 0 && miss < len(p.filler); k++ {
		d := p.filler[k%len(p.filler)]
		c := p.copyOf(d, reps[d])
		cand := append(all, c)
		if n := p.size(name, target, cand); n <= hi {
			filler, all, est, miss = append(filler, c), cand, n, 0
			reps[d]++
		} else {
			miss++
		}
	}
	return filler, est
}

// balanced reports whether filler halves of a and b blocks keep the middle
// copies in the middle third. With t blocks per placement the rung has
// n = 3t + a + b blocks and the middle copies are blocks t+a … 2t+a−1; they
// are in the middle third (n/3 ≤ index < 2n/3) when b ≤ 2a and a ≤ 2b.
// The start and end copies are in their thirds whatever a and b are.
func balanced(a, b int) bool { return b <= 2*a && a <= 2*b }

func count(parts []*part) int {
	n := 0
	for _, c := range parts {
		n += c.count
	}
	return n
}

// split returns the index that divides parts into two runs with most
// nearly the same number of blocks (the first such index), so that the
// middle placement sits in the middle third of the rung's blocks. Blocks,
// not bytes: documents of short list items have three times as many blocks
// per byte as documents of paragraphs, and a split by bytes put a middle
// edit at block 20 of 84.
func split(parts []*part) int {
	total := count(parts)
	best, bestDiff, sum := 0, total, 0
	for i, c := range parts {
		sum += c.count
		if diff := abs(2*sum - total); diff < bestDiff {
			best, bestDiff = i+1, diff
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
