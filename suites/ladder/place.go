package ladder

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/task"
)

// placeable reports why t cannot be placed on a copy of its document, or
// nil: it must be a class B/C task whose every operation addresses a block
// or span of the document. An edit of the whole document (its vocabulary,
// its title, an edge from the document itself) has no position in a rung.
func placeable(t *task.Task) error {
	if t.Class != task.ClassB && t.Class != task.ClassC {
		return fmt.Errorf("class %s has no gold edit", t.Class)
	}
	for i, op := range t.GoldEdit {
		if op.Whole() {
			return fmt.Errorf("operation %d (%s) edits the whole document", i, op.Name)
		}
		for _, ref := range opRefs(op) {
			if r, ok := bend.ParseRef(ref); ok && r.IsSelf(t.Source.Doc.ID) && r.Block == "" {
				return fmt.Errorf("operation %d (%s) refers to the whole document (%q)", i, op.Name, ref)
			}
		}
		if op.Landing(t.Source.Doc.ID) == "" {
			return fmt.Errorf("operation %d (%s) addresses no block of the document", i, op.Name)
		}
	}
	return nil
}

// opRefs returns the references an operation writes into a document.
func opRefs(op *edit.Op) []string {
	var out []string
	marks := func(s *bend.Span) {
		for _, m := range s.Marks {
			if m.Link != nil {
				out = append(out, m.Link.Target)
			}
		}
	}
	if op.Target != "" {
		out = append(out, op.Target)
	}
	if op.Edge != nil {
		out = append(out, op.Edge.Subject, op.Edge.Object)
	}
	if op.Mark != nil && op.Mark.Link != nil {
		out = append(out, op.Mark.Link.Target)
	}
	if op.NewSpan != nil {
		marks(op.NewSpan)
	}
	if op.NewBlock != nil {
		d := &bend.Document{Blocks: []*bend.Block{op.NewBlock}}
		d.Walk(func(b *bend.Block, _ int, _ string) bool {
			if b.Target != nil {
				out = append(out, *b.Target)
			}
			for _, s := range b.Spans {
				marks(s)
			}
			return true
		})
	}
	return out
}

// place puts corpus task t on copy name of rung r.
func place(r *Rung, t *task.Task, pos, name string) (*Task, error) {
	rn := renamer{prefix: name + "-", src: t.Source.Doc.ID}
	ops, err := renameOps(t.GoldEdit, rn)
	if err != nil {
		return nil, err
	}
	pt := &Task{
		ID:          r.Name + "-" + pos + "-" + t.ID,
		Position:    pos,
		Source:      t,
		Copy:        name,
		Instruction: rewriteInstruction(t.Instruction, rn, idsOf(t)),
		GoldEdit:    ops,
		Block:       ops[0].Landing(""),
		BlockIndex:  -1,
	}
	n := 0
	r.Doc.Walk(func(b *bend.Block, _ int, _ string) bool {
		if b.ID == pt.Block {
			pt.BlockIndex = n
		}
		n++
		return true
	})
	if want := slices.Index(Positions, pos); pt.BlockIndex < 0 || pt.BlockIndex*3/n != want {
		return nil, fmt.Errorf("block %s is block %d of %d, not in the %s third", pt.Block, pt.BlockIndex, n, pos)
	}
	if pt.Expected, err = edit.Apply(r.Doc, ops); err != nil {
		return nil, fmt.Errorf("the gold edit does not apply: %w", err)
	}
	if errs := bend.Validate(pt.Expected); len(errs) > 0 {
		return nil, fmt.Errorf("the expected document is invalid: %w", errs)
	}
	for i, res := range edit.Check(pt.Expected, r.Doc.ID, ops) {
		if !res.OK {
			return nil, fmt.Errorf("the expected document fails operation %d: %s", i, res.Reason)
		}
	}
	return pt, nil
}

// renameOps returns a copy of ops addressed by the ids of a copy. Self
// references come out relative, as FORMAT.md writes them.
func renameOps(ops []*edit.Op, r renamer) ([]*edit.Op, error) {
	v := &bend.Value{Kind: bend.Array}
	for _, op := range ops {
		v.Elems = append(v.Elems, op.Value().Clone())
	}
	out, err := edit.FromValue(v)
	if err != nil {
		return nil, err
	}
	id := func(s *string) {
		if *s != "" {
			*s = r.id(*s)
		}
	}
	for _, op := range out {
		id(&op.Block)
		id(&op.Span)
		id(&op.After)
		if op.Target != "" {
			op.Target = r.ref(op.Target)
		}
		if op.Mark != nil {
			r.mark(op.Mark)
		}
		if op.NewSpan != nil {
			r.span(op.NewSpan)
		}
		if op.NewBlock != nil {
			r.blocks([]*bend.Block{op.NewBlock})
		}
		if op.Edge != nil {
			r.edge(op.Edge)
		}
	}
	return out, nil
}

// idsOf returns the block and span ids an instruction of t may name: those
// of its document and those its gold edit introduces.
func idsOf(t *task.Task) map[string]bool {
	ids := map[string]bool{}
	add := func(bs []*bend.Block) {
		d := &bend.Document{Blocks: bs}
		d.Walk(func(b *bend.Block, _ int, _ string) bool {
			ids[b.ID] = true
			for _, s := range b.Spans {
				ids[s.ID] = true
			}
			return true
		})
	}
	add(t.Source.Doc.Blocks)
	for _, op := range t.GoldEdit {
		if op.NewBlock != nil {
			add([]*bend.Block{op.NewBlock})
		}
		if op.NewSpan != nil {
			ids[op.NewSpan.ID] = true
		}
	}
	return ids
}

var (
	// refPattern matches a bend: reference in prose; the document part may
	// be the {{doc}} placeholder (FORMAT.md).
	refPattern = regexp.MustCompile(`bend:(\{\{doc\}\}|[A-Za-z0-9_-]*)(?:#([A-Za-z0-9_-]+)(?:\.([A-Za-z0-9_-]+))?)?`)
	// idPattern matches a word that may be an id (§5.2).
	idPattern = regexp.MustCompile(`[A-Za-z0-9_-]+`)
)

// rewriteInstruction renames, in an instruction, the ids of the copy: the
// block and span of every bend: reference into the document ({{doc}},
// relative, or the source document's declared id, which becomes {{doc}}),
// and every bare word that is one of ids. References to other documents
// are left whole, since their block ids may equal the document's own (a
// previous version keeps its block ids).
func rewriteInstruction(s string, r renamer, ids map[string]bool) string {
	bare := func(text string) string {
		return idPattern.ReplaceAllStringFunc(text, func(w string) string {
			if ids[w] {
				return r.id(w)
			}
			return w
		})
	}
	var b strings.Builder
	last := 0
	for _, m := range refPattern.FindAllStringSubmatchIndex(s, -1) {
		b.WriteString(bare(s[last:m[0]]))
		last = m[1]
		doc := s[m[2]:m[3]]
		if m[4] < 0 || (doc != "" && doc != "{{doc}}" && doc != r.src) {
			b.WriteString(s[m[0]:m[1]])
			continue
		}
		if doc == r.src {
			doc = "{{doc}}"
		}
		b.WriteString("bend:" + doc + "#" + r.id(s[m[4]:m[5]]))
		if m[6] >= 0 {
			b.WriteString("." + r.id(s[m[6]:m[7]]))
		}
	}
	b.WriteString(bare(s[last:]))
	return b.String()
}
