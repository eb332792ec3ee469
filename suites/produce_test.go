package suites

import (
	"errors"
	"testing"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestProduceBuild: the produce suite is 20 P and 20 R tasks, the R ones
// answered in the projection format and every task expecting its corpus
// document; --steps 2 makes one chain per document, R then P, and any
// other step count is a usage error, as is another answer format.
func TestProduceBuild(t *testing.T) {
	s, _ := Lookup(Produce)
	corpus := tasktest.Set(t)
	set, err := s.Build(corpus, transcript.Inputs{})
	if err != nil {
		t.Fatal(err)
	}
	classes := map[string]int{}
	for _, tk := range set.Tasks {
		classes[tk.Class]++
		if tk.Suite != Produce || tk.Expected != tk.Source.Doc || (tk.Class == "R") != (tk.Format == formats.Projection) {
			t.Errorf("%s: suite %q, format %q, expects its document: %v", tk.ID, tk.Suite, tk.Format, tk.Expected == tk.Source.Doc)
		}
	}
	if classes["P"] != 20 || classes["R"] != 20 {
		t.Errorf("classes %v, want 20 P and 20 R", classes)
	}
	chained, err := s.Build(corpus, transcript.Inputs{Steps: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tk := range chained.Tasks {
		want := map[int]string{1: "R", 2: "P"}[tk.Step]
		if tk.Chain != tk.ID[:2] || tk.Class != want {
			t.Errorf("%s: chain %q step %d class %s, want step 1 R and step 2 P of chain %s", tk.ID, tk.Chain, tk.Step, tk.Class, tk.ID[:2])
		}
	}
	var ue *usage.Error
	if _, err := s.Build(corpus, transcript.Inputs{Steps: 3}); !errors.As(err, &ue) {
		t.Errorf("--steps 3: %v, want a usage error", err)
	}
	if _, err := s.Build(corpus, transcript.Inputs{Formats: []string{formats.JSONPatch}}); !errors.As(err, &ue) {
		t.Errorf("--formats json-patch: %v, want a usage error (P and R answer in formats of their own)", err)
	}
}
