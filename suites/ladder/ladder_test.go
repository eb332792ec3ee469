package ladder

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

var (
	buildOnce sync.Once
	built     []*Rung
	buildErr  error
)

// defaultRungs returns the default ladder, built once per test binary
// (about 0.5 s under -race).
func defaultRungs(t *testing.T) []*Rung {
	t.Helper()
	set := tasktest.Set(t)
	buildOnce.Do(func() { built, buildErr = Build(set, Config{}) })
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

func TestRungsAreValidWithTheirIDs(t *testing.T) {
	rungs := defaultRungs(t)
	if len(rungs) != len(DefaultRungs) {
		t.Fatalf("%d rungs, want %d", len(rungs), len(DefaultRungs))
	}
	for i, r := range rungs {
		if want := RungName(DefaultRungs[i]); r.Name != want {
			t.Errorf("rung %d is named %q, want %q", i, r.Name, want)
		}
		// What a reader of the file sees: parse the bytes, not the model.
		d, err := bend.Parse(r.Bytes)
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if errs := bend.Validate(d); len(errs) > 0 {
			t.Errorf("%s: invalid:\n%v", r.Name, errs)
		}
		if id, err := bend.ID(d); err != nil || id != d.ID || d.ID != r.Doc.ID {
			t.Errorf("%s: declared id %s, computed %s (%v), model %s", r.Name, d.ID, id, err, r.Doc.ID)
		}
		if !bytes.Equal(bend.Marshal(d), r.Bytes) || !bytes.Equal(bend.Marshal(r.Doc), r.Bytes) {
			t.Errorf("%s: Bytes is not bend.Marshal of the rung", r.Name)
		}
		lo, hi := Bounds(r.Target)
		if n := len(r.Bytes); n < lo || n > hi {
			t.Errorf("%s: %d bytes, want %d–%d", r.Name, n, lo, hi)
		}
	}
}

func TestBuildIsReproducible(t *testing.T) {
	first := defaultRungs(t)
	again, err := Build(tasktest.Set(t), Config{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range first {
		if !bytes.Equal(r.Bytes, again[i].Bytes) {
			t.Errorf("%s: two builds differ", r.Name)
		}
		a, _ := TasksJSON(r)
		b, _ := TasksJSON(again[i])
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the tasks of two builds differ", r.Name)
		}
	}
}

// TestCopiesAreTheirDocuments undoes the renaming of every copy's blocks
// with its own rule (strip the copy's prefix, name the source id for the
// rung id) and compares the result with the source document, and renames
// the source's edges forward and finds them in the rung: what the ladder
// copies, and only that, is renamed, and nothing else changes.
func TestCopiesAreTheirDocuments(t *testing.T) {
	set := tasktest.Set(t)
	for _, r := range defaultRungs(t) {
		edges := map[string]bool{}
		for _, e := range r.Doc.Edges {
			edges[string(bend.MarshalValue(e.Value()))] = true
		}
		want := map[string]bool{}
		next := 0
		for _, c := range r.Copies {
			if c.First != next {
				t.Errorf("%s: copy %s starts at block %d, want %d", r.Name, c.Name, c.First, next)
			}
			next = c.First + c.Blocks
			src := sourceOf(t, set, c)
			got := unrename(t, r.Doc.Blocks[c.First:next], c.Name+"-", r.Doc.ID, src.Doc.ID)
			if a, b := bend.MarshalValue(bend.BlocksValue(got)), bend.MarshalValue(bend.BlocksValue(src.Doc.Blocks)); !bytes.Equal(a, b) {
				t.Errorf("%s: copy %s differs from %s after undoing the renaming", r.Name, c.Name, src.Name)
			}
			for _, e := range src.Doc.Edges {
				m := *e
				m.Subject = forward(e.Subject, c.Name+"-", r.Doc.ID, src.Doc.ID)
				m.Object = forward(e.Object, c.Name+"-", r.Doc.ID, src.Doc.ID)
				k := string(bend.MarshalValue(m.Value()))
				if !edges[k] {
					t.Errorf("%s: copy %s lacks edge %s", r.Name, c.Name, k)
				}
				want[k] = true
			}
		}
		if next != len(r.Doc.Blocks) {
			t.Errorf("%s: the copies cover %d of %d blocks", r.Name, next, len(r.Doc.Blocks))
		}
		if len(want) != len(r.Doc.Edges) {
			t.Errorf("%s: %d edges, want the %d distinct edges of the copies", r.Name, len(r.Doc.Edges), len(want))
		}
	}
}

// forward renames a reference of a source document as the package doc
// says: into the copy, or to the source document by id, or unchanged.
func forward(s, prefix, rungID, srcID string) string {
	r, ok := bend.ParseRef(s)
	switch {
	case !ok || !r.Bend || r.Doc != "" && r.Doc != srcID:
		return s
	case r.Block == "":
		return "bend:" + srcID
	case r.Doc != "":
		r.Doc = rungID
	}
	r.Block = prefix + r.Block
	if r.Span != "" {
		r.Span = prefix + r.Span
	}
	return r.String()
}

func sourceOf(t *testing.T, set *task.Set, c Copy) *task.Document {
	t.Helper()
	for _, d := range set.Documents {
		if d.Name == c.Document {
			if !strings.HasPrefix(c.Name, fmt.Sprintf("d%s", d.Name[:2])) {
				t.Errorf("copy %s of %s does not carry its corpus number", c.Name, d.Name)
			}
			return d
		}
	}
	t.Fatalf("copy %s: no corpus document %s", c.Name, c.Document)
	return nil
}

// unrename returns copies of blocks with prefix stripped from every id and
// every absolute self-reference made to name srcID.
func unrename(t *testing.T, blocks []*bend.Block, prefix, rungID, srcID string) []*bend.Block {
	t.Helper()
	strip := func(s string) string {
		out, ok := strings.CutPrefix(s, prefix)
		if !ok {
			t.Errorf("id %q lacks the copy's prefix %q", s, prefix)
		}
		return out
	}
	ref := func(s string) string {
		r, ok := bend.ParseRef(s)
		if !ok || !r.IsSelf(rungID) || r.Block == "" {
			return s
		}
		if r.Doc != "" {
			r.Doc = srcID
		}
		r.Block = strip(r.Block)
		if r.Span != "" {
			r.Span = strip(r.Span)
		}
		return r.String()
	}
	d := &bend.Document{Blocks: blocks}
	d = d.Clone()
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		b.ID = strip(b.ID)
		if b.Target != nil {
			s := ref(*b.Target)
			b.Target = &s
		}
		for _, s := range b.Spans {
			s.ID = strip(s.ID)
			for _, m := range s.Marks {
				if m.Link != nil {
					m.Link.Target = ref(m.Link.Target)
				}
			}
		}
		return true
	})
	return d.Blocks
}

// TestReferencesStillResolve checks that every reference of a corpus
// document that resolves there (Document.Resolves) resolves in every rung,
// at the copy's block or span, and that the rung holds it.
func TestReferencesStillResolve(t *testing.T) {
	set := tasktest.Set(t)
	checked := 0
	for _, r := range defaultRungs(t) {
		held := map[string]bool{}
		for _, ref := range refsOf(r.Doc) {
			held[ref] = true
		}
		for _, c := range r.Copies {
			src := sourceOf(t, set, c)
			for _, ref := range refsOf(src.Doc) {
				if !src.Doc.Resolves(ref) {
					continue
				}
				p, _ := bend.ParseRef(ref)
				want := bend.Ref{Bend: true, Doc: r.Doc.ID, Block: c.Name + "-" + p.Block}
				if p.Span != "" {
					want.Span = c.Name + "-" + p.Span
				}
				if !r.Doc.Resolves(want.String()) || !held[want.String()] {
					t.Errorf("%s: %s of %s should be %s in the rung (resolves %v, held %v)",
						r.Name, ref, c.Name, want, r.Doc.Resolves(want.String()), held[want.String()])
				}
				checked++
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d references checked", checked)
	}
}

// refsOf returns the references of d: edge subjects and objects, link
// targets and embed targets.
func refsOf(d *bend.Document) []string {
	var out []string
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if b.Target != nil {
			out = append(out, *b.Target)
		}
		for _, s := range b.Spans {
			for _, m := range s.Marks {
				if m.Link != nil {
					out = append(out, m.Link.Target)
				}
			}
		}
		return true
	})
	for _, e := range d.Edges {
		out = append(out, e.Subject, e.Object)
	}
	return out
}

func TestTasksApplyAtTheirPositions(t *testing.T) {
	for _, r := range defaultRungs(t) {
		if want := len(Positions) * len(DefaultTasks); len(r.Tasks) != want {
			t.Errorf("%s: %d tasks, want %d", r.Name, len(r.Tasks), want)
		}
		n := CountBlocks(r.Doc)
		index := map[string]int{}
		r.Doc.Walk(func(b *bend.Block, _ int, _ string) bool { index[b.ID] = len(index); return true })
		for _, pt := range r.Tasks {
			exp, err := edit.Apply(r.Doc, pt.GoldEdit)
			if err != nil {
				t.Errorf("%s: does not apply: %v", pt.ID, err)
				continue
			}
			if errs := bend.Validate(exp); len(errs) > 0 {
				t.Errorf("%s: expected document invalid: %v", pt.ID, errs)
			}
			if ok, _ := edit.Compliance(edit.Check(exp, r.Doc.ID, pt.GoldEdit)); !ok {
				t.Errorf("%s: the expected document fails its check", pt.ID)
			}
			if ok, _ := edit.Compliance(edit.Check(r.Doc, r.Doc.ID, pt.GoldEdit)); ok {
				t.Errorf("%s: the rung already passes the check: the edit is empty", pt.ID)
			}
			if !bytes.Equal(bend.Marshal(exp), bend.Marshal(pt.Expected)) {
				t.Errorf("%s: Expected is not the gold edit applied to the rung", pt.ID)
			}
			i, ok := index[pt.Block]
			if !ok || i != pt.BlockIndex {
				t.Errorf("%s: block %s is at %d (found %v), task says %d", pt.ID, pt.Block, i, ok, pt.BlockIndex)
			}
			if third := i * 3 / n; Positions[third] != pt.Position {
				t.Errorf("%s: block %d of %d is in the %s third", pt.ID, i, n, Positions[third])
			}
			if !strings.HasPrefix(pt.Block, pt.Copy+"-") || !strings.Contains(pt.Instruction, pt.Block) {
				t.Errorf("%s: landing block %s is not of copy %s or not in the instruction", pt.ID, pt.Block, pt.Copy)
			}
			if want := r.Name + "-" + pt.Position + "-" + pt.Source.ID; pt.ID != want {
				t.Errorf("task id %s, want %s", pt.ID, want)
			}
		}
	}
}

// TestInstructionsNameOnlyTheCopy checks that no word of a placed
// instruction is still an id of the source document.
func TestInstructionsNameOnlyTheCopy(t *testing.T) {
	for _, r := range defaultRungs(t) {
		for _, pt := range r.Tasks {
			ids := idsOf(pt.Source)
			for _, w := range idPattern.FindAllString(pt.Instruction, -1) {
				if ids[w] {
					t.Errorf("%s: the instruction still names %q", pt.ID, w)
				}
			}
		}
	}
}

func TestTasksJSONReadsBack(t *testing.T) {
	for _, r := range defaultRungs(t) {
		data, err := TasksJSON(r)
		if err != nil {
			t.Fatal(err)
		}
		v, err := bend.ParseValue(data)
		if err != nil || v.Kind != bend.Array || len(v.Elems) != len(r.Tasks) {
			t.Fatalf("%s: %v", r.TasksFile(), err)
		}
		for i, o := range v.Elems {
			pt := r.Tasks[i]
			ops, err := edit.FromValue(o.Get("gold_edit"))
			if err != nil {
				t.Fatalf("%s: gold_edit: %v", pt.ID, err)
			}
			exp, err := edit.Apply(r.Doc, ops)
			if err != nil {
				t.Fatalf("%s: %v", pt.ID, err)
			}
			id, _ := bend.ID(exp)
			if o.Get("id").Str != pt.ID || o.Get("document").Str != r.File() || o.Get("expected_id").Str != id {
				t.Errorf("%s: id %q, document %q, expected_id %q (want %s)", pt.ID, o.Get("id").Str, o.Get("document").Str, o.Get("expected_id").Str, id)
			}
		}
	}
}

// TestLadderGolden pins what the ladder is made of, so that a change to the
// composition shows up in review as a diff.
func TestLadderGolden(t *testing.T) {
	var b strings.Builder
	for _, r := range defaultRungs(t) {
		fmt.Fprintf(&b, "%s\t%d bytes\t%d top-level blocks\t%d blocks\t%d edges\t%s\n", r.Name, len(r.Bytes), len(r.Doc.Blocks), CountBlocks(r.Doc), len(r.Doc.Edges), r.Doc.ID)
		names := make([]string, len(r.Copies))
		for i, c := range r.Copies {
			names[i] = c.Name
		}
		fmt.Fprintf(&b, "  copies: %s\n", strings.Join(names, " "))
		for _, pt := range r.Tasks {
			fmt.Fprintf(&b, "  %s\t%s\tblock %d\n", pt.ID, pt.Block, pt.BlockIndex)
		}
	}
	golden.Check(t, "testdata/ladder.golden", []byte(b.String()), "the composition of the default ladder")
	tasks, err := TasksJSON(defaultRungs(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/8k.tasks.json", tasks, "the tasks file of the 8k rung")
}

// TestVocabularyBlocksFrom32k checks the vocabulary rule on the v0.1
// corpus: argument blocks in every rung with room for document 18, and no
// memory document anywhere.
func TestVocabularyBlocksFrom32k(t *testing.T) {
	for _, r := range defaultRungs(t) {
		if r.Doc.Vocabulary != "bendscript.argument.v1" {
			t.Errorf("%s: vocabulary %q", r.Name, r.Doc.Vocabulary)
		}
		hasArgument := false
		r.Doc.Walk(func(b *bend.Block, _ int, _ string) bool {
			hasArgument = hasArgument || strings.HasPrefix(b.Kind, "argument-")
			return true
		})
		if want := r.Target >= 32<<10; hasArgument != want {
			t.Errorf("%s: has argument blocks %v, want %v", r.Name, hasArgument, want)
		}
		for _, e := range r.Doc.Edges {
			if strings.HasPrefix(e.Predicate, "bendscript.memory.v1:") {
				t.Errorf("%s: memory predicate %s under %s", r.Name, e.Predicate, r.Doc.Vocabulary)
			}
		}
	}
}

// TestManyTasks places every corpus task that has a position, in groups
// that fit one rung each, so that every kind of operation is renamed.
func TestManyTasks(t *testing.T) {
	set := tasktest.Set(t)
	groups := []struct {
		tasks  []string
		size   int
		reason string
	}{
		{[]string{"01-b", "01-c", "02-b", "02-c", "03-b", "03-c", "05-b", "05-c", "06-b", "06-c"}, 96 << 10, "the B and C tasks of documents 01, 02, 03, 05 and 06 are placed together in one 96k rung"},
		{[]string{"07-b", "07-c", "08-b", "08-c", "09-b", "09-c", "10-b", "10-c", "16-b", "16-c"}, 96 << 10, "the B and C tasks of documents 07, 08, 09, 10 and 16 are placed together in one 96k rung"},
		{[]string{"12-b", "12-c", "13-b", "13-c", "18-b", "18-c"}, 96 << 10, "the B and C tasks of documents 12, 13 and 18 are placed together in one 96k rung"},
		{[]string{"04-b", "11-b", "14-b", "14-c", "15-b", "15-c", "19-b", "20-b", "20-c"}, 256 << 10, "the tasks of documents 04, 11, 14, 15, 19 and 20 with a position are placed together in one 256k rung"},
	}
	ops := map[string]bool{}
	for _, g := range tabletest.Cases(t, groups) {
		rungs, err := Build(set, Config{Rungs: []int{g.size}, Tasks: g.tasks})
		if err != nil {
			t.Errorf("%v: %v (%s)", g.tasks, err, g.reason)
			continue
		}
		if len(rungs[0].Tasks) != 3*len(g.tasks) {
			t.Errorf("%v: %d tasks placed (%s)", g.tasks, len(rungs[0].Tasks), g.reason)
		}
		for _, pt := range rungs[0].Tasks {
			for _, op := range pt.GoldEdit {
				ops[op.Name] = true
			}
		}
	}
	for _, name := range []string{edit.SetText, edit.SetCodeText, edit.AddMark, edit.RemoveMark, edit.SetLinkPredicate, edit.InsertBlock, edit.SupersedeSpan, edit.AddEdge} {
		if !ops[name] {
			t.Errorf("no placed task uses %s", name)
		}
	}
}

// TestMiddleSplitByBlocks is the regression test for splitting the filler
// by bytes: with the tasks of documents 01 and 02 at 32k, the middle edit of
// 01-b landed at block 20 of 84, in the first third, because documents 04
// and 05 hold many short list items.
func TestMiddleSplitByBlocks(t *testing.T) {
	rungs, err := Build(tasktest.Set(t), Config{Rungs: []int{32 << 10}, Tasks: []string{"01-b", "01-c", "02-b", "02-c"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rungs[0].Tasks); n != 12 {
		t.Errorf("%d tasks, want 12", n)
	}
}

// TestFillerWalkStartsLater is the regression test for a filler of one
// document: at 10k the walk from the start of the cycle took document 18
// alone, which cannot be on both sides of the middle copies, and the
// middle edit landed at block 4 of 18. Starting the walk one document later
// gives two small documents, one on each side.
func TestFillerWalkStartsLater(t *testing.T) {
	rungs, err := Build(tasktest.Set(t), Config{Rungs: []int{10 << 10, 11 << 10, 12 << 10, 13 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rungs {
		if len(r.Tasks) != 6 {
			t.Errorf("%s: %d tasks", r.Name, len(r.Tasks))
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	set := tasktest.Set(t)
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		config Config
		want   string
		reason string
	}{
		{"class A", Config{Tasks: []string{"01-a"}}, "class A has no gold edit", "a question has nothing to place"},
		{"document-level edge", Config{Tasks: []string{"04-c"}}, "refers to the whole document", "an edge from the document itself has no position in a rung"},
		{"other vocabulary", Config{Tasks: []string{"17-b"}}, `vocabulary "bendscript.memory.v1"`, "§6.1: a memory document cannot join an argument rung"},
		{"unknown task", Config{Tasks: []string{"99-b"}}, `no task "99-b"`, "a typo must not silently build fewer tasks"},
		{"twice", Config{Tasks: []string{"02-b", "02-b"}}, "given twice", "task ids must be unique"},
		{"too small", Config{Rungs: []int{4 << 10}}, "rung 4k: whole documents cannot make", "three copies of the task document do not fit into 4 KiB ± 15%"},
		{"no balance", Config{Rungs: []int{7 << 10}}, "rung 7k: whole documents cannot make 6093–8243 bytes with the middle copies in the middle third", "one filler document cannot sit on both sides of the middle copy, two exceed the bound"},
		{"two documents in 8k", Config{Rungs: []int{8 << 10}, Tasks: []string{"01-b", "02-b"}}, "rung 8k:", "the reason DefaultTasks come from one document"},
	}) {
		_, err := Build(set, c.config)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q (%s)", c.name, err, c.want, c.reason)
		}
	}
}

func TestParseRungs(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct {
		in     string
		want   []int
		reason string
	}{
		{"8k,32k,128k,512k", DefaultRungs, "the default ladder"},
		{"5000, 1m", []int{5000, 1 << 20}, "bytes and MiB; spaces after commas"},
		{"8K", []int{8192}, "upper-case unit"},
		{"8k,8192", nil, "the same size twice would write one file twice"},
		{"0", nil, "sizes are positive"},
		{"9m", nil, "over MaxSize: validate and id could not read the upper bound"},
		{"2m", []int{2 << 20}, "the largest rung"},
		{"8m", nil, "issue 32: 8 MiB rungs in json-patch peaked at 4–6 GB with one offline model"},
		{"2049k", nil, "just over MaxSize"},
		{"8kb", nil, "unknown unit"},
		{"", nil, "empty list"},
	}) {
		got, err := ParseRungs(c.in)
		if (err == nil) != (c.want != nil) || !slices.Equal(got, c.want) {
			t.Errorf("ParseRungs(%q) = %v, %v; want %v (%s)", c.in, got, err, c.want, c.reason)
		}
		for _, n := range got {
			if back, err := ParseRungs(RungName(n)); err != nil || back[0] != n {
				t.Errorf("RungName(%d) = %q does not read back", n, RungName(n))
			}
		}
	}
}

func TestRenameReferences(t *testing.T) {
	r := renamer{prefix: "d16r2-", src: "bagaasrc", self: "bagaarung"}
	for _, c := range tabletest.Cases(t, []struct {
		in, want, reason string
	}{
		{"bend:bagaasrc#blk-1.spn-2", "bend:bagaarung#d16r2-blk-1.d16r2-spn-2", "absolute span reference names the rung"},
		{"bend:bagaasrc#blk-1", "bend:bagaarung#d16r2-blk-1", "absolute block reference names the rung"},
		{"bend:#blk-1.spn-2", "bend:#d16r2-blk-1.d16r2-spn-2", "relative stays relative"},
		{"bend:bagaasrc", "bend:bagaasrc", "the whole source document stays the source document"},
		{"bend:", "bend:bagaasrc", "a relative whole-document reference names the source document"},
		{"bend:bagaaold#blk-1", "bend:bagaaold#blk-1", "another document's blocks are not ours"},
		{"https://example.org/#blk-1", "https://example.org/#blk-1", "external URIs are left alone"},
		{"not a reference", "not a reference", "invalid strings are left alone"},
	}) {
		if got := r.ref(c.in); got != c.want {
			t.Errorf("ref(%q) = %q, want %q (%s)", c.in, got, c.want, c.reason)
		}
	}
	meta, err := bend.ParseValue([]byte(`{"evidence":["bend:bagaasrc#blk-1","bend:bagaaold#blk-1",3]}`))
	if err != nil {
		t.Fatal(err)
	}
	e := &bend.Edge{Subject: "bend:bagaasrc#blk-1", Predicate: "cites", Object: "https://x.org", Meta: meta}
	r.edge(e)
	if got, want := string(bend.MarshalValue(e.Meta)), `{"evidence":["bend:#d16r2-blk-1","bend:bagaaold#blk-1",3]}`; got != want || e.Subject != "bend:bagaarung#d16r2-blk-1" {
		t.Errorf("edge: subject %s, meta %s; want meta %s (edge meta is hashed: self-references there must be relative)", e.Subject, got, want)
	}
}

func TestRewriteInstruction(t *testing.T) {
	r := renamer{prefix: "d16r2-", src: "bagaasrc"}
	ids := map[string]bool{"blk-c10b": true, "spn-02": true, "spn-03": true}
	for _, c := range tabletest.Cases(t, []struct {
		in, want, reason string
	}{
		{"span spn-02 of block blk-c10b.", "span d16r2-spn-02 of block d16r2-blk-c10b.", "bare ids, sentence punctuation"},
		{`"bend:{{doc}}#blk-c10b.spn-03"`, `"bend:{{doc}}#d16r2-blk-c10b.d16r2-spn-03"`, "self-reference through the placeholder"},
		{"bend:#blk-c10b", "bend:#d16r2-blk-c10b", "relative self-reference"},
		{"bend:bagaasrc#blk-c10b.spn-02", "bend:{{doc}}#d16r2-blk-c10b.d16r2-spn-02", "the source id becomes the placeholder"},
		{"bend:bagaaold#blk-c10b.spn-02", "bend:bagaaold#blk-c10b.spn-02", "a previous version keeps its block ids: not ours"},
		{"bend:{{doc}} and blk-c10bx", "bend:{{doc}} and blk-c10bx", "whole document; a longer word is not an id"},
	}) {
		if got := rewriteInstruction(c.in, r, ids); got != c.want {
			t.Errorf("rewrite(%q) = %q, want %q (%s)", c.in, got, c.want, c.reason)
		}
	}
}

func BenchmarkBuild(b *testing.B) {
	set := tasktest.Set(b)
	for _, size := range DefaultRungs {
		b.Run(RungName(size), func(b *testing.B) {
			for b.Loop() {
				if _, err := Build(set, Config{Rungs: []int{size}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
