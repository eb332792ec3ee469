// Package tasktest gives tests the embedded corpus and tasks, loaded
// once per test binary, and sealed answer transcripts to judge or score.
package tasktest

import (
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

var (
	once  sync.Once
	set   *task.Set
	probs []task.Problem
)

// Set returns the embedded corpus and tasks; a problem in them fails t.
func Set(t testing.TB) *task.Set {
	t.Helper()
	once.Do(func() { set, probs = task.Load(corpus.FS, instructions.FS) })
	if len(probs) > 0 {
		t.Fatalf("loading the corpus: %v", probs)
	}
	return set
}

// Answer returns a sealed class A answer transcript of modelID to taskID
// whose response is content.
func Answer(t testing.TB, modelID, taskID, content string) *transcript.Transcript {
	t.Helper()
	tr := &transcript.Transcript{
		Schema: transcript.SchemaVersion, Kind: transcript.KindTask, RunID: "test", Model: modelID,
		TaskID: taskID, Class: "A", Attempts: []transcript.Attempt{},
		Response: &transcript.Response{Content: content, FinishReason: "stop"},
	}
	if err := tr.Seal(); err != nil {
		t.Fatal(err)
	}
	return tr
}
