package task

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestInverseFiles: every inverse task file is exactly what the generator
// writes: the forward task's id, document and class, the covers and
// instruction written by hand, and the gold edit edit.Inverse derives from
// the forward gold edit, serialized like the forward files. With -update it
// writes the files (the instruction of a new one is a TODO to write by hand):
//
//	go test ./task -run TestInverseFiles -update
func TestInverseFiles(t *testing.T) {
	dir := "../instructions"
	s, probs := Load(corpus.FS, os.DirFS(dir))
	for _, p := range probs {
		if !strings.HasPrefix(p.File, "instructions/"+InverseDir+"/") {
			t.Fatalf("forward tasks: %v", p)
		}
	}
	n := 0
	for _, fwd := range s.Tasks {
		if fwd.Expected == nil {
			continue
		}
		n++
		file := path.Join(dir, InverseDir, fwd.ID+".json")
		inv, err := edit.Inverse(fwd.Source.Doc, fwd.GoldEdit)
		if err != nil {
			t.Errorf("%s: %v", fwd.ID, err)
			continue
		}
		old, err := os.ReadFile(file)
		if err != nil && !(errors.Is(err, fs.ErrNotExist) && *golden.Update) {
			t.Errorf("%v (run go test ./task -run TestInverseFiles -update to create it)", err)
			continue
		}
		got := inverseFile(t, fwd, inv, old)
		if *golden.Update {
			if err := os.MkdirAll(path.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !bytes.Equal(got, old) {
			t.Errorf("%s is not what the generator writes (run go test ./task -run TestInverseFiles -update); want:\n%s", file, got)
		}
	}
	if n != 40 {
		t.Errorf("%d class B/C tasks, want 40", n)
	}
}

// inverseFile returns the inverse task file of fwd with gold edit inv,
// keeping covers and instruction from old (the file as it is, or nil).
func inverseFile(t *testing.T, fwd *Task, inv []*edit.Op, old []byte) []byte {
	t.Helper()
	covers := &bend.Value{Kind: bend.Array, Elems: []*bend.Value{bend.StringValue("inverse of " + fwd.ID)}}
	instruction := bend.StringValue("TODO: write the instruction that undoes " + fwd.ID)
	if old != nil {
		v, err := bend.ParseValue(old)
		if err != nil {
			t.Fatalf("%s: %v", fwd.ID, err)
		}
		if c := v.Get("covers"); c != nil {
			covers = c
		}
		if i := v.Get("instruction"); i != nil {
			instruction = i
		}
	}
	ge := &bend.Value{Kind: bend.Array}
	for _, op := range inv {
		ge.Elems = append(ge.Elems, op.Value())
	}
	o := &bend.Value{Kind: bend.Object, Members: []bend.Member{
		{Key: "id", Value: bend.StringValue(fwd.ID)},
		{Key: "document", Value: bend.StringValue(fwd.DocumentName)},
		{Key: "class", Value: bend.StringValue(fwd.Class)},
		{Key: "covers", Value: covers},
		{Key: "instruction", Value: instruction},
		{Key: "gold_edit", Value: ge},
	}}
	return append(bend.MarshalValueIndent(o), '\n')
}

// TestInverseTasks: the embedded inverse tasks load, one per class B/C task,
// each starting from its forward task's expected document and ending at its
// forward task's source, and none has a TODO left in its instruction.
func TestInverseTasks(t *testing.T) {
	s := loadEmbedded(t)
	if probs := CheckInverse(s); len(probs) > 0 {
		t.Fatalf("CheckInverse: %v", probs)
	}
	if len(s.Inverse) != 40 {
		t.Fatalf("%d inverse tasks, want 40", len(s.Inverse))
	}
	for _, inv := range s.Inverse {
		fwd := inv.Forward
		if fwd == nil || fwd.ID != inv.ID || fwd.Class != inv.Class || fwd.DocumentName != inv.DocumentName {
			t.Errorf("%s: forward task %+v", inv.ID, fwd)
			continue
		}
		if !bytes.Equal(inv.Source.Bytes, bend.Marshal(fwd.Expected)) {
			t.Errorf("%s: the model would not see the forward expected document", inv.ID)
		}
		if !bytes.Equal(bend.Marshal(inv.Expected), bend.Marshal(fwd.Source.Doc)) {
			t.Errorf("%s: the inverse does not end at the forward source", inv.ID)
		}
		if strings.Contains(inv.Instruction, "TODO") {
			t.Errorf("%s: the instruction is still a TODO", inv.ID)
		}
	}
}

// TestCheckInverseFailsOnBreakage: a missing, stale, inexact or orphaned
// inverse task is reported, naming the file.
func TestCheckInverseFailsOnBreakage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		breakf func(t *testing.T, m fstest.MapFS)
		want   string
		reason string
	}{
		{"missing", func(t *testing.T, m fstest.MapFS) {
			delete(m, "instructions/inverse/05-b.json")
		}, "instructions/inverse/05-b.json: missing or unusable inverse of task 05-b", "one inverse per class B/C task"},
		{"differs-from-derived", func(t *testing.T, m fstest.MapFS) {
			// 11-b removed a bold mark that came first; dropping the
			// position still restores the mark, but last.
			edit1(t, m, "instructions/inverse/11-b.json", `,
      "position": 0`, ``)
		}, "instructions/inverse/11-b.json: /gold_edit: differs from the inverse", "the gold edit must be the derived one"},
		{"not-exact", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/inverse/02-b.json", `,
      "drop_empty": true`, ``)
		}, "instructions/inverse/02-b.json: /gold_edit: 02-b then its inverse does not give the source document back exactly", `"marks": [] left behind is not the source`},
		{"not-exact-id", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/inverse/02-b.json", `,
      "drop_empty": true`, ``)
		}, "then its inverse gives id", "the id is checked too"},
		{"does-not-apply", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/inverse/03-b.json", `"block": "blk-a41c"`, `"block": "blk-nope"`)
		}, "instructions/inverse/03-b.json: /gold_edit: does not apply", "an inverse is applied to the forward expected document"},
		{"orphan", func(t *testing.T, m fstest.MapFS) {
			m["instructions/inverse/01-a.json"] = m["instructions/inverse/01-b.json"]
		}, "instructions/inverse/01-a.json: no class B or C task of that id to undo", "class A tasks have no inverse"},
		{"wrong-document", func(t *testing.T, m fstest.MapFS) {
			edit1(t, m, "instructions/inverse/07-c.json", `"document": "07-`, `"document": "08-`)
		}, "instructions/inverse/07-c.json: /document", "an inverse edits the forward task's document"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) { wantProblem(t, c.breakf, c.want, c.reason) })
	}
}

// TestEmbedsInverse: the embedded task directory holds the inverse tasks,
// so a run is reproducible from the binary alone.
func TestEmbedsInverse(t *testing.T) {
	names, _ := fs.Glob(instructions.FS, InverseDir+"/??-?.json")
	if len(names) != 40 {
		t.Errorf("%d embedded inverse task files, want 40", len(names))
	}
}

// TestInverseInstructionsNameTheEdit: an inverse instruction quotes every
// id, text, mark, target and edge member its gold edit writes, so that a
// reader who has not seen the gold edit can carry it out exactly. Code text
// is quoted JSON-escaped, as the forward instructions quote it.
func TestInverseInstructionsNameTheEdit(t *testing.T) {
	s := loadEmbedded(t)
	for _, inv := range s.Inverse {
		text := strings.ReplaceAll(inv.Instruction, "{{doc}}", "")
		for i, op := range inv.GoldEdit {
			for _, want := range named(op) {
				if !strings.Contains(text, want) {
					t.Errorf("%s: the instruction does not say %q (gold edit op %d, %s)", inv.ID, want, i, op.Name)
				}
			}
		}
	}
}

// named lists the strings an instruction must quote for op.
func named(op *edit.Op) []string {
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	mark := func(m *bend.Mark) {
		if m.Link != nil {
			add(m.Link.Target)
			if m.Link.Predicate != nil {
				add(*m.Link.Predicate)
			}
			return
		}
		add(m.Name)
	}
	switch op.Name {
	case edit.SetText:
		add(op.Block, op.Span, op.Text)
	case edit.SetCodeText:
		add(op.Block, string(bend.MarshalValue(bend.StringValue(op.Text))))
	case edit.AddMark, edit.RemoveMark:
		add(op.Block, op.Span)
		mark(op.Mark)
		if op.DropEmpty {
			add(`"marks" member`)
		}
		if op.Position != nil && *op.Position == 0 {
			add("first")
		}
	case edit.SetLinkPredicate:
		add(op.Block, op.Span, op.Target)
		if op.Predicate != nil {
			add(*op.Predicate)
		} else {
			add("untyped")
		}
	case edit.RemoveBlock:
		add(op.Block)
	case edit.RemoveSpan:
		add(op.Block, op.Span)
	case edit.RemoveEdge:
		add(op.Edge.Subject, op.Edge.Predicate, op.Edge.Object)
	}
	return out
}
