package edit

import (
	"fmt"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
)

// Placeholders stand for the ids of new content in a gold edit whose
// instruction does not dictate them (the natural tasks,
// instructions/FORMAT.md). A placeholder is "$new" followed by a positive
// decimal number without leading zeros: "$new1", "$new2", … It stands for a
// whole id, in either of two places:
//
//   - an id field: the id of a new block or span (insert_block's block and
//     every block and span inside it, the span of insert_span, the new_span
//     of supersede_span), or an operation's block, span, after or parent
//     that addresses such new content;
//   - a component of a bend: reference: the block or the span part of
//     subject, object, target (set_link_predicate, link marks, embeds), as
//     in bend:#$new1, bend:#$new1.$new2 or bend:#blk-2.$new3. The document
//     part is never a placeholder.
//
// Text, meta and every other field are never searched: "$new1" there is
// literal text. One placeholder names one id, of one kind: a block, or a
// span (span ids are unique per block, but a placeholder still names
// exactly one new span).
//
// Bind replaces placeholders by concrete ids; DefaultNames picks fresh ones
// deterministically; MatchNames recovers the names that turn one edit into
// another.

// IsPlaceholder reports whether s is a placeholder.
func IsPlaceholder(s string) bool {
	n, ok := strings.CutPrefix(s, "$new")
	if !ok || n == "" || n[0] == '0' {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// idKind says what an id names.
type idKind int

const (
	blockID idKind = iota
	spanID
)

func (k idKind) String() string {
	if k == blockID {
		return "block"
	}
	return "span"
}

// slot is one place of an operation that holds an id: a whole id field, or
// one component of a bend: reference.
type slot struct {
	kind    idKind
	created bool // the id of content the operation creates
	get     func() string
	set     func(string) // nil for a component that cannot be written alone
}

// slots returns every id slot of op, in the order the ids appear in op's
// JSON form (Op.Value), so that "first appearance" means the same in the
// file and here. A reference yields one slot per component present.
func slots(op *Op) []slot {
	var s slotter
	kindOf(op.Name).slots(op, &s)
	return s.out
}

// slotter collects the id slots of an operation.
type slotter struct{ out []slot }

// field adds the id field at p when it is set.
func (s *slotter) field(p *string, k idKind, created bool) {
	if *p != "" {
		s.out = append(s.out, slot{k, created, func() string { return *p }, func(v string) { *p = v }})
	}
}

// ref adds the block and span components of the bend: reference at p.
func (s *slotter) ref(p *string) {
	doc, blk, spn, ok := bend.CutRef(*p)
	if !ok {
		return
	}
	set := func(b, sp string) { *p = bend.Ref{Bend: true, Doc: doc, Block: b, Span: sp}.String() }
	s.out = append(s.out, slot{blockID, false, func() string { return blk }, func(v string) { blk = v; set(blk, spn) }})
	if spn != "" {
		s.out = append(s.out, slot{spanID, false, func() string { return spn }, func(v string) { spn = v; set(blk, spn) }})
	}
}

func (s *slotter) mark(m *bend.Mark) {
	if m != nil && m.Link != nil {
		s.ref(&m.Link.Target)
	}
}

func (s *slotter) span(sp *bend.Span, created bool) {
	s.field(&sp.ID, spanID, created)
	for _, m := range sp.Marks {
		s.mark(m)
	}
}

func (s *slotter) block(b *bend.Block) {
	s.field(&b.ID, blockID, true)
	if b.Target != nil {
		s.ref(b.Target)
	}
	for _, sp := range b.Spans {
		s.span(sp, true)
	}
	for _, c := range b.Items {
		s.block(c)
	}
	for _, c := range b.Blocks {
		s.block(c)
	}
}

// address adds the block and span an operation addresses.
func (s *slotter) address(op *Op) {
	s.field(&op.Block, blockID, false)
	s.field(&op.Span, spanID, false)
}

// addressSlots are the slots of an operation whose only ids are the block
// and span it addresses.
func addressSlots(op *Op, s *slotter) { s.address(op) }

// Placeholders lists the placeholders of ops in order of first appearance.
func Placeholders(ops []*Op) []string {
	var out []string
	seen := map[string]bool{}
	for _, op := range ops {
		for _, s := range slots(op) {
			if v := s.get(); IsPlaceholder(v) && !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
		}
	}
	return out
}

// placeholderKinds returns what each placeholder of ops names, and an error
// when one is used both as a block and as a span.
func placeholderKinds(ops []*Op) (map[string]idKind, error) {
	kinds := map[string]idKind{}
	for i, op := range ops {
		for _, s := range slots(op) {
			v := s.get()
			if !IsPlaceholder(v) {
				continue
			}
			if k, ok := kinds[v]; ok && k != s.kind {
				return nil, fmt.Errorf("operation %d (%s): %s names a %s here and a %s before", i, op.Name, v, s.kind, k)
			}
			kinds[v] = s.kind
		}
	}
	return kinds, nil
}

// Bind returns a copy of ops with every placeholder p replaced by names[p].
// It fails when a placeholder has no name or a name is not an id (ASCII
// letters, digits, '-' and '_', §5.2); names of placeholders ops does not
// use are ignored. ops is not modified.
func Bind(ops []*Op, names map[string]string) ([]*Op, error) {
	out := make([]*Op, len(ops))
	for i, op := range ops {
		c, err := cloneOp(op)
		if err != nil {
			return nil, fmt.Errorf("operation %d (%s): %w", i, op.Name, err)
		}
		for _, s := range slots(c) {
			v := s.get()
			if !IsPlaceholder(v) {
				continue
			}
			name, ok := names[v]
			switch {
			case !ok:
				return nil, fmt.Errorf("operation %d (%s): no name for %s", i, op.Name, v)
			case !isID(name):
				return nil, fmt.Errorf("operation %d (%s): %q, the name for %s, is not an id", i, op.Name, name, v)
			}
			s.set(name)
		}
		out[i] = c
	}
	return out, nil
}

// isID reports whether s can stand as a block or span id (§5.2, §5.4), by
// bend's own rule for the components of a reference.
func isID(s string) bool {
	r, ok := bend.ParseRef("bend:#" + s)
	return ok && r.Block == s && r.Span == ""
}

// cloneOp returns a deep copy of op, through its JSON form.
func cloneOp(op *Op) (*Op, error) {
	ops, err := FromValue(&bend.Value{Kind: bend.Array, Elems: []*bend.Value{op.Value()}})
	if err != nil {
		return nil, err
	}
	return ops[0], nil
}

// DefaultNames returns a fresh id for every placeholder of ops: the k-th
// placeholder that names a block (in order of first appearance) gets the
// k-th of blk-n001, blk-n002, … that is not an id of source, and likewise
// spans get spn-n001, spn-n002, …; an id of source is any block id or span
// id anywhere in it, so a default name never collides, whatever block a
// new span lands in. The names depend only on source's ids and the order
// of the placeholders, so the expected document of a natural task is
// reproducible. It fails when a placeholder names both a block and a span.
func DefaultNames(source *bend.Document, ops []*Op) (map[string]string, error) {
	kinds, err := placeholderKinds(ops)
	if err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	source.Walk(func(b *bend.Block, _ int, _ string) bool {
		taken[b.ID] = true
		for _, s := range b.Spans {
			taken[s.ID] = true
		}
		return true
	})
	next := map[idKind]int{}
	prefix := map[idKind]string{blockID: "blk-n", spanID: "spn-n"}
	names := map[string]string{}
	for _, p := range Placeholders(ops) {
		k := kinds[p]
		for {
			next[k]++
			name := prefix[k] + fmt.Sprintf("%03d", next[k])
			if !taken[name] {
				taken[name] = true
				names[p] = name
				break
			}
		}
	}
	return names, nil
}

// MatchNames returns the names that make natural read as forward: the
// mapping m with Bind(natural, m) equal to forward wherever natural holds a
// placeholder. The two edits must have the same operations and the same id
// slots in the same order; every slot of natural that is not a placeholder
// must hold forward's id, and one placeholder must always meet the same id.
// Fields that are not ids are not compared: compare
// Bind(natural, m) with forward for that.
func MatchNames(natural, forward []*Op) (map[string]string, error) {
	if len(natural) != len(forward) {
		return nil, fmt.Errorf("%d operations, want %d", len(natural), len(forward))
	}
	names := map[string]string{}
	for i := range natural {
		n, f := natural[i], forward[i]
		if n.Name != f.Name {
			return nil, fmt.Errorf("operation %d is %s, want %s", i, n.Name, f.Name)
		}
		ns, fs := slots(n), slots(f)
		if len(ns) != len(fs) {
			return nil, fmt.Errorf("operation %d (%s): %d ids, want %d", i, n.Name, len(ns), len(fs))
		}
		for j := range ns {
			nv, fv := ns[j].get(), fs[j].get()
			switch {
			case ns[j].kind != fs[j].kind || ns[j].created != fs[j].created:
				return nil, fmt.Errorf("operation %d (%s): id %d is a different kind of id", i, n.Name, j)
			case !IsPlaceholder(nv) && nv != fv:
				return nil, fmt.Errorf("operation %d (%s): %s where the other edit has %s", i, n.Name, nv, fv)
			case !IsPlaceholder(nv):
			case names[nv] != "" && names[nv] != fv:
				return nil, fmt.Errorf("operation %d (%s): %s stands for both %s and %s", i, n.Name, nv, names[nv], fv)
			default:
				names[nv] = fv
			}
		}
	}
	return names, nil
}

// CheckPlaceholders returns an error unless ops name all their new content
// by placeholders, as a natural task's gold edit must: every block and span
// an operation creates has a placeholder for its id, each placeholder is
// created by exactly one operation and names one kind of id, and the
// placeholders are $new1, $new2, … in order of first appearance.
func CheckPlaceholders(ops []*Op) error {
	if _, err := placeholderKinds(ops); err != nil {
		return err
	}
	created := map[string]int{}
	for i, op := range ops {
		for _, s := range slots(op) {
			v := s.get()
			switch {
			case s.created && !IsPlaceholder(v):
				return fmt.Errorf("operation %d (%s): new %s %q is not a placeholder", i, op.Name, s.kind, v)
			case s.created:
				created[v]++
			}
		}
	}
	for i, p := range Placeholders(ops) {
		switch want := "$new" + strconv.Itoa(i+1); {
		case p != want:
			return fmt.Errorf("placeholder %s appears where %s should come first", p, want)
		case created[p] == 0:
			return fmt.Errorf("%s is used but names no new block or span", p)
		case created[p] > 1:
			return fmt.Errorf("%s names %d new blocks or spans", p, created[p])
		}
	}
	return nil
}
