package suites

import (
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestEverySuiteBuildsAndMarksItsTasks: each entry of the table builds a
// task set from the corpus whose every task names a part of the suite,
// and whose classes part is among them.
func TestEverySuiteBuildsAndMarksItsTasks(t *testing.T) {
	corpus := tasktest.Set(t)
	in := transcript.Inputs{Rungs: []string{"8k"}, Steps: 2} // 2: a step count every suite that takes --steps accepts
	for _, s := range Table {
		set, err := s.Build(corpus, in)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		seen := map[string]bool{}
		for _, tk := range set.Tasks {
			if !slices.Contains(s.PartNames, tk.Suite) {
				t.Errorf("%s: task %s is marked %q, not one of the parts %v", s.Name, tk.ID, tk.Suite, s.PartNames)
			}
			seen[tk.Suite] = true
		}
		for _, p := range s.PartNames {
			if !seen[p] {
				t.Errorf("%s: no task of part %s", s.Name, p)
			}
		}
		if !slices.Contains(s.PartNames, s.Classes) {
			t.Errorf("%s: classes part %q is not among its parts %v", s.Name, s.Classes, s.PartNames)
		}
	}
	if corpus.Tasks[0].Suite != "" {
		t.Errorf("building a suite marked the corpus's own tasks (%q)", corpus.Tasks[0].Suite)
	}
}

// TestTableAnswers pins what the rest of the harness asks of the table.
func TestTableAnswers(t *testing.T) {
	cases := []struct {
		got, want any
		reason    string
	}{
		{Of("").Gates, true, "no suite recorded is the gating suite"},
		{Of("").Name, Gating, "no suite recorded is named the gating suite"},
		{Of(Gating).Gates, true, "the gating suite decides the verdict"},
		{Of(All).Gates, true, "all decides it on its gating tasks"},
		{Of(Natural).Gates || Of(Size).Gates || Of(Relay).Gates, false, "the other suites are information"},
		{Of("nope").Gates, false, "an unknown suite decides nothing"},
		{Of("nope").Name, "nope", "an unknown suite keeps its name, to be shown as it is"},
		{Of("nope").InClasses(""), false, "an unknown suite makes no classes"},
		{len(Of("nope").Parts()), 0, "an unknown suite holds no parts"},
		{Of(All).InClasses(Gating), true, "all's classes are the gating tasks"},
		{Of(All).InClasses(Relay) || Of(All).InClasses(Natural), false, "all's relay and natural tasks have sections of their own"},
		{Of(Relay).InClasses(Relay), true, "a relay run's classes are its steps"},
		{Of(Gating).InClasses(""), true, "a task of no recorded part counts"},
		{Of(Gating).PerDocument() && Of(Natural).PerDocument() && Of(All).PerDocument(), true, "corpus-document classes are plotted per document"},
		{Of(Size).PerDocument() || Of(Relay).PerDocument() || Of("nope").PerDocument(), false, "the size ladder and the relay have plots of their own; an unknown suite none"},
		{Of(All).GroupingOf(Relay) == relayGrouping && Of(Gating).GroupingOf(Relay) == nil, true, "a part's section belongs to a run that holds the part"},
		{UsingFlag("steps"), []string{Relay, Produce, All}, "--steps goes with the suites that hold chains"},
		{UsingFlag("rungs"), []string{Size, Delegate}, "--rungs goes with the size suite, and puts the delegate suite's chains on rungs"},
		{UsingFlag("round-trips"), []string{Delegate}, "--round-trips goes with the delegate suite alone"},
		{Of(All).Parts(), []Part{{Gating, gatingGrouping}, {Natural, naturalGrouping}, {Relay, relayGrouping}}, "all's parts and their sections"},
	}
	for i, c := range tabletest.Cases(t, cases) {
		if !equal(c.got, c.want) {
			t.Errorf("case %d: got %v, want %v (%s)", i, c.got, c.want, c.reason)
		}
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("Lookup of an unknown suite: no error")
	}
}

func equal(a, b any) bool {
	switch x := a.(type) {
	case []string:
		return slices.Equal(x, b.([]string))
	case []Part:
		return slices.Equal(x, b.([]Part))
	}
	return a == b
}

// TestRelayReportsWhatItLeavesOut: a document whose chain cannot be built
// is left out of the relay with its reason in Skipped (the run prints it),
// never silently.
func TestRelayReportsWhatItLeavesOut(t *testing.T) {
	corpus := *tasktest.Set(t)
	corpus.Inverse = corpus.Inverse[1:] // the first document's B has no inverse now
	for _, name := range []string{Relay, All} {
		s, _ := Lookup(name)
		set, err := s.Build(&corpus, transcript.Inputs{Steps: 4})
		if err != nil {
			t.Fatal(err)
		}
		if len(set.Skipped) != 1 {
			t.Errorf("%s: skipped %q, want the one document without its inverses", name, set.Skipped)
		}
	}
}

// TestRungsFitOutput: a suite that takes --rungs puts documents of up to
// 512 KB on its tasks, which a whole-document answer re-emits, so its
// answers' output budgets must follow the document (FitsOutput); the
// delegate suite's did not (its answers at the 512k rung asked for the
// configured budget and were cut off, read as drift).
func TestRungsFitOutput(t *testing.T) {
	for _, s := range Table {
		if slices.Contains(s.Flags, "rungs") && !s.FitsOutput {
			t.Errorf("suite %s takes --rungs but does not fit its answers' output budgets to their documents", s.Name)
		}
	}
}
