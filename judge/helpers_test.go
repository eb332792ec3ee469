package judge

import (
	"testing"

	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// corpusSet returns the embedded corpus and tasks, loaded once.
func corpusSet(t testing.TB) *task.Set { return tasktest.Set(t) }

// taskA returns class A task id of the embedded set.
func taskA(t testing.TB, id string) *task.Task {
	t.Helper()
	tk := corpusSet(t).Task(id)
	if tk == nil || tk.Class != task.ClassA {
		t.Fatalf("no class A task %s", id)
	}
	return tk
}

func ptr[T any](v T) *T { return &v }
