package relay_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestTaskIDSortsInStepOrder: TaskID names step s of document NN with
// two digits, so ids sort in step order up to the longest chain.
func TestTaskIDSortsInStepOrder(t *testing.T) {
	tests := []struct {
		doc    string
		step   int
		want   string
		reason string
	}{
		{"01", 1, "01-s01", "the first step of the first document"},
		{"20", relay.DefaultSteps, "20-s08", "the last step of a default chain"},
		{"07", 10, "07-s10", "two digits from step 10 on, so ids sort in step order"},
		{"13", relay.MaxSteps, "13-s99", "the longest chain Build allows still has two digits"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if id := relay.TaskID(tt.doc, tt.step); id != tt.want {
			t.Errorf("TaskID(%q, %d) = %q, want %q (%s)", tt.doc, tt.step, id, tt.want, tt.reason)
		}
	}
}

// TestBuildStepCount: a step count outside 1..MaxSteps is refused with an
// error and no set, before anything is sized by it; the bounds themselves
// are accepted and give one task per step of every chain.
func TestBuildStepCount(t *testing.T) {
	// Two documents are enough to count steps, and keep 99 of them fast.
	full := tasktest.Set(t)
	corpus := &task.Set{Documents: full.Documents[:2], Tasks: full.Tasks, Inverse: full.Inverse}
	tests := []struct {
		steps   int
		wantErr bool
		reason  string
	}{
		{0, true, "a chain of no steps asks nothing"},
		{-1, true, "negative"},
		{relay.MaxSteps + 1, true, "one past MaxSteps: ids would need three digits"},
		{1 << 30, true, "absurd: refused before any allocation"},
		{1, false, "the shortest chain: one step, no round trip yet"},
		{relay.MaxSteps, false, "the longest chain allowed"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		set, skipped, err := relay.Build(corpus, tt.steps)
		if tt.wantErr {
			if err == nil || set != nil || skipped != nil {
				t.Errorf("Build(%d) = %v set, %v skipped, err %v; want an error and nothing else (%s)", tt.steps, set != nil, skipped, err, tt.reason)
			} else if !strings.Contains(err.Error(), fmt.Sprintf("1 to %d steps", relay.MaxSteps)) {
				t.Errorf("Build(%d): error %q does not name the range allowed (%s)", tt.steps, err, tt.reason)
			}
			continue
		}
		if err != nil {
			t.Errorf("Build(%d): %v (%s)", tt.steps, err, tt.reason)
			continue
		}
		if want := len(corpus.Documents) * tt.steps; len(set.Tasks) != want {
			t.Errorf("Build(%d): %d tasks, want %d (%s)", tt.steps, len(set.Tasks), want, tt.reason)
		}
		for _, d := range set.Documents {
			if got := set.Task(relay.TaskID(d.Name[:2], tt.steps)); got == nil || got.Step != tt.steps {
				t.Errorf("Build(%d): the last step of %s is not found by id (%s)", tt.steps, d.Name, tt.reason)
			}
		}
	}
}

// TestBuildChains: over the embedded corpus every document chains, and
// every step is what the package doc says: id NN-sSS, the class of its
// edit (B, C, C⁻¹, B⁻¹ repeated), the forward or inverse task's
// instruction and gold edit, the previous step's expected document as its
// source and its gold edit applied to that as its own.
func TestBuildChains(t *testing.T) {
	corpus := tasktest.Set(t)
	set, skipped, err := relay.Build(corpus, relay.DefaultSteps)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 0 {
		t.Errorf("skipped %q; every document of the embedded corpus chains", skipped)
	}
	if !slices.Equal(set.Documents, corpus.Documents) {
		t.Errorf("%d documents, want the corpus's %d in its order", len(set.Documents), len(corpus.Documents))
	}
	if len(set.Tasks) != len(corpus.Documents)*relay.DefaultSteps {
		t.Fatalf("%d tasks, want %d", len(set.Tasks), len(corpus.Documents)*relay.DefaultSteps)
	}
	if !slices.IsSortedFunc(set.Tasks, func(a, b *task.Task) int { return strings.Compare(a.ID, b.ID) }) {
		t.Error("tasks are not sorted by id: Set.Task would miss some")
	}
	inverse := map[string]*task.Task{}
	for _, it := range corpus.Inverse {
		inverse[it.ID] = it
	}
	classes := [4]string{task.ClassB, task.ClassC, task.ClassC, task.ClassB}
	hashes := map[string]string{}
	for _, d := range corpus.Documents {
		nn := d.Name[:2]
		cycle := [4]*task.Task{corpus.Task(nn + "-b"), corpus.Task(nn + "-c"), inverse[nn+"-c"], inverse[nn+"-b"]}
		var prev *task.Task
		for s := 1; s <= relay.DefaultSteps; s++ {
			id := relay.TaskID(nn, s)
			st := set.Task(id)
			if st == nil {
				t.Fatalf("no task %s", id)
			}
			from := cycle[(s-1)%4]
			if st.Step != s || st.DocumentName != d.Name || st.Class != classes[(s-1)%4] {
				t.Errorf("%s: step %d of %s, class %s; want step %d of %s, class %s", id, st.Step, st.DocumentName, st.Class, s, d.Name, classes[(s-1)%4])
			}
			if st.Instruction != from.Instruction || len(st.GoldEdit) == 0 || &st.GoldEdit[0] != &from.GoldEdit[0] {
				t.Errorf("%s: instruction or gold edit is not that of %s (%s)", id, from.ID, relay.Edits[(s-1)%4])
			}
			if len(st.Covers) == 0 || !strings.Contains(st.Covers[0], relay.Edits[(s-1)%4]) || !slices.Equal(st.Covers[1:], from.Covers) {
				t.Errorf("%s: covers %q; want the step's edit first, then %s's", id, st.Covers, from.ID)
			}
			if other, ok := hashes[st.Hash]; ok {
				t.Errorf("%s has the hash of %s: a resume could not tell them apart", id, other)
			}
			hashes[st.Hash] = id
			if s == 1 {
				if st.Source != d {
					t.Errorf("%s: the source of step 1 is not the corpus document", id)
				}
			} else {
				checkSource(t, id, st.Source, d.Name, bend.Marshal(prev.Expected))
			}
			want, err := edit.Apply(st.Source.Doc, st.GoldEdit)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if !bytes.Equal(bend.Marshal(st.Expected), bend.Marshal(want)) {
				t.Errorf("%s: Expected is not the gold edit applied to the step's source", id)
			}
			prev = st
		}
	}
}

// checkSource checks the document a step is given: named as the corpus
// document, holding exactly want, and hashed over the bytes the model sees.
func checkSource(t *testing.T, id string, src *task.Document, name string, want []byte) {
	t.Helper()
	if src.Name != name {
		t.Errorf("%s: source named %q, want %q", id, src.Name, name)
	}
	if !bytes.Equal(src.Bytes, want) {
		t.Errorf("%s: the source is not the previous step's expected document", id)
	}
	if !bytes.Equal(bend.Marshal(src.Doc), src.Bytes) {
		t.Errorf("%s: the source's Doc and Bytes differ", id)
	}
	if sum := sha256.Sum256(src.Bytes); src.Hash != hex.EncodeToString(sum[:]) {
		t.Errorf("%s: source hash %s is not the sha256 of its bytes", id, src.Hash)
	}
}

// TestBuildCycleGivesSourceBack: steps 4 and 8 (a full cycle, and two)
// give the corpus file back byte for byte, and the second cycle asks
// exactly what the first asked; building does not change the corpus.
func TestBuildCycleGivesSourceBack(t *testing.T) {
	corpus := tasktest.Set(t)
	set, _, err := relay.Build(corpus, relay.DefaultSteps)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range corpus.Documents {
		nn := d.Name[:2]
		for _, s := range []int{4, 8} {
			st := set.Task(relay.TaskID(nn, s))
			if st == nil {
				t.Fatalf("%s: no step %d", d.Name, s)
			}
			if !bytes.Equal(bend.Marshal(st.Expected), d.Bytes) {
				t.Errorf("%s step %d: the expected document is not the source file byte for byte", d.Name, s)
			}
		}
		for s := 1; s <= 4; s++ {
			a, b := set.Task(relay.TaskID(nn, s)), set.Task(relay.TaskID(nn, s+4))
			if !bytes.Equal(a.Source.Bytes, b.Source.Bytes) || a.Source.Hash != b.Source.Hash || a.Instruction != b.Instruction {
				t.Errorf("%s: step %d does not ask what step %d asked", d.Name, s+4, s)
			}
		}
		if !bytes.Equal(bend.Marshal(d.Doc), d.Bytes) {
			t.Errorf("%s: building the chains changed the corpus document", d.Name)
		}
	}
}

// TestBuildSkipsDocumentsThatDoNotChain: a document without the four
// tasks of a cycle, or whose edits do not chain, has no chain; Build names
// it with the reason and builds the others.
func TestBuildSkipsDocumentsThatDoNotChain(t *testing.T) {
	corpus := tasktest.Set(t)
	tests := []struct {
		name   string
		doc    string // the document broken
		change func(s *task.Set)
		want   string // in the skipped entry, after "name: "
		reason string
	}{
		{
			name: "no inverse of C", doc: "03",
			change: func(s *task.Set) { s.Inverse = without(s.Inverse, "03-c") },
			want:   "no class B and C tasks with inverses",
			reason: "step 3 would have nothing to ask",
		},
		{
			name: "no class B task", doc: "04",
			change: func(s *task.Set) { s.Tasks = without(s.Tasks, "04-b") },
			want:   "no class B and C tasks with inverses",
			reason: "the chain starts with class B",
		},
		{
			name: "C does not apply after B", doc: "06",
			change: func(s *task.Set) {
				replace(s.Tasks, "06-c", []*edit.Op{{Name: edit.SetText, Block: "blk-none", Span: "spn-none", Text: "x"}})
			},
			want:   "step 2 (C of 06-c) does not apply: ",
			reason: "a gold edit that fails is a broken chain, not a model's drift",
		},
		{
			name: "B⁻¹ does not undo B", doc: "05",
			change: func(s *task.Set) { replace(s.Inverse, "05-b", []*edit.Op{}) },
			want:   "step 4 does not give the source back exactly",
			reason: "the round-trip point must be the source itself",
		},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			s := &task.Set{Documents: corpus.Documents, Tasks: slices.Clone(corpus.Tasks), Inverse: slices.Clone(corpus.Inverse)}
			tt.change(s)
			set, skipped, err := relay.Build(s, relay.DefaultSteps)
			if err != nil {
				t.Fatal(err)
			}
			var name string
			for _, d := range corpus.Documents {
				if strings.HasPrefix(d.Name, tt.doc+"-") {
					name = d.Name
				}
			}
			if len(skipped) != 1 || !strings.HasPrefix(skipped[0], name+": "+tt.want) {
				t.Errorf("skipped %q; want one entry %q (%s)", skipped, name+": "+tt.want+"…", tt.reason)
			}
			if len(set.Documents) != len(corpus.Documents)-1 || len(set.Tasks) != len(set.Documents)*relay.DefaultSteps {
				t.Errorf("%d documents, %d tasks; want every other document's chain", len(set.Documents), len(set.Tasks))
			}
			for _, d := range set.Documents {
				if d.Name == name {
					t.Errorf("%s is kept", name)
				}
			}
			if set.Task(relay.TaskID(tt.doc, 1)) != nil {
				t.Errorf("%s keeps a task", name)
			}
		})
	}
}

// without returns tasks without the one of the given id.
func without(tasks []*task.Task, id string) []*task.Task {
	return slices.DeleteFunc(tasks, func(t *task.Task) bool { return t.ID == id })
}

// replace swaps the task of the given id for a copy with another gold
// edit, leaving the shared corpus alone.
func replace(tasks []*task.Task, id string, ops []*edit.Op) {
	for i, t := range tasks {
		if t.ID == id {
			c := *t
			c.GoldEdit = ops
			tasks[i] = &c
		}
	}
}

// TestBuildMarksChainAndStep: every step carries its chain (its document's
// number) and its step as fields, so scoring and the report never parse
// an id.
func TestBuildMarksChainAndStep(t *testing.T) {
	set, _, err := relay.Build(tasktest.Set(t), 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range set.Tasks {
		if tk.Chain != tk.DocumentName[:2] || tk.Step < 1 || tk.Step > 4 || relay.TaskID(tk.Chain, tk.Step) != tk.ID {
			t.Errorf("%s: chain %q, step %d; want the document's number and the id's step", tk.ID, tk.Chain, tk.Step)
		}
	}
}
