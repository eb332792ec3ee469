package task

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
)

// InverseDir is the directory of the task files, inside the task directory,
// that hold the inverse tasks (instructions/FORMAT.md).
const InverseDir = "inverse"

// LoadInverse reads every inverse/NN-x.json of taskFS: for the class B or C
// task NN-x of s, the task that undoes it. An inverse task has the forward
// task's id, class and document name; its Source is the forward task's
// Expected document (serialized as bend.Marshal writes it, which is what the
// model sees), its Expected document is its gold edit applied to that, and
// Forward points to the forward task. Problems are reported as Load reports
// them, and a file with a problem that prevents its use is left out.
func LoadInverse(s *Set, taskFS fs.FS) ([]*Task, []Problem) {
	return loadDerived(s, taskFS, InverseDir, "undo", false, func(fwd *Task) *Document {
		return Marshalled(fwd.DocumentName, fwd.Expected.Clone())
	})
}

// loadDerived reads every dir/NN-x.json of taskFS, a task derived from the
// class B or C task NN-x of s (its Forward), whose source document source
// gives; verb says what the derived task does to the forward one, for the
// problem of a file with no forward task. Tasks are sorted by id.
func loadDerived(s *Set, taskFS fs.FS, dir, verb string, natural bool, source func(fwd *Task) *Document) ([]*Task, []Problem) {
	names, _ := fs.Glob(taskFS, dir+"/??-?.json")
	var out []*Task
	var probs []Problem
	for _, name := range names {
		fwd := s.Task(strings.TrimSuffix(path.Base(name), ".json"))
		if fwd == nil || fwd.Expected == nil {
			probs = append(probs, Problem{path.Join("instructions", name), "no class B or C task of that id to " + verb})
			continue
		}
		t, ps := loadTask(taskFS, name, map[string]*Document{fwd.DocumentName: source(fwd)}, natural)
		probs = append(probs, ps...)
		if t != nil {
			t.Forward = fwd
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, probs
}

// CheckInverse returns what is wrong with the inverse tasks of s: a class B
// or C task without one, and an inverse task whose gold edit is not exactly
// edit.Inverse of the forward gold edit, or that does not take the forward
// task's expected document back to its source byte for byte (and so to the
// same id).
func CheckInverse(s *Set) []Problem {
	inv := map[string]*Task{}
	for _, t := range s.Inverse {
		inv[t.ID] = t
	}
	var probs []Problem
	for _, fwd := range s.Tasks {
		if fwd.Expected == nil {
			continue
		}
		file := path.Join("instructions", InverseDir, fwd.ID+".json")
		add := func(format string, args ...any) {
			probs = append(probs, Problem{file, fmt.Sprintf(format, args...)})
		}
		t := inv[fwd.ID]
		if t == nil {
			add("missing or unusable inverse of task %s", fwd.ID)
			continue
		}
		want, err := edit.Inverse(fwd.Source.Doc, fwd.GoldEdit)
		switch {
		case err != nil:
			add("/gold_edit: the gold edit of %s has no exact inverse: %v", fwd.ID, err)
		case opsJSON(want) != opsJSON(t.GoldEdit):
			add("/gold_edit: differs from the inverse of the gold edit of %s, which is %s", fwd.ID, opsJSON(want))
		}
		if got, src := bend.Marshal(t.Expected), bend.Marshal(fwd.Source.Doc); !bytes.Equal(got, src) {
			add("/gold_edit: %s then its inverse does not give the source document back exactly", fwd.ID)
		}
		got, err1 := bend.ID(t.Expected)
		src, err2 := bend.ID(fwd.Source.Doc)
		if err1 != nil || err2 != nil || got != src {
			add("/gold_edit: %s then its inverse gives id %s, want the source's %s", fwd.ID, got, src)
		}
	}
	return probs
}

// opsJSON returns a gold edit as compact JSON, for comparing gold edits.
func opsJSON(ops []*edit.Op) string {
	a := &bend.Value{Kind: bend.Array, Elems: make([]*bend.Value, len(ops))}
	for i, op := range ops {
		a.Elems[i] = op.Value()
	}
	return string(bend.MarshalValue(a))
}
