package judge

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/task"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

var (
	setOnce sync.Once
	testSet *task.Set
)

// corpusSet returns the embedded corpus and tasks, loaded once.
func corpusSet(t testing.TB) *task.Set {
	t.Helper()
	setOnce.Do(func() {
		s, probs := task.Load(corpus.FS, instructions.FS)
		if len(probs) > 0 {
			t.Fatalf("loading the corpus: %v", probs)
		}
		testSet = s
	})
	if testSet == nil {
		t.Fatal("the corpus did not load")
	}
	return testSet
}

// taskA returns class A task id of the embedded set.
func taskA(t testing.TB, id string) *task.Task {
	t.Helper()
	tk := corpusSet(t).Task(id)
	if tk == nil || tk.Class != task.ClassA {
		t.Fatalf("no class A task %s", id)
	}
	return tk
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./judge -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./judge -update if the change is intended):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff lists the lines that differ, position by position.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + strconv.Itoa(i+1) + ":\n  - " + wl + "\n  + " + gl + "\n")
		}
	}
	return b.String()
}

func ptr[T any](v T) *T { return &v }
