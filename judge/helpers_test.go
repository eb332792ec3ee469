package judge

import (
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/internal/testcorpus"

	"bendscript.com/round-trip-harness/task"
)

// corpusSet returns the embedded corpus and tasks, loaded once.
func corpusSet(t testing.TB) *task.Set { return testcorpus.Set(t) }

// taskA returns class A task id of the embedded set.
func taskA(t testing.TB, id string) *task.Task {
	t.Helper()
	tk := corpusSet(t).Task(id)
	if tk == nil || tk.Class != task.ClassA {
		t.Fatalf("no class A task %s", id)
	}
	return tk
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, "the calibration table users read")
}

func ptr[T any](v T) *T { return &v }
