package pipeline

import (
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// SuiteSet returns the task set a run's suite runs (suites.Table): the
// corpus itself for the gating suite, the ladder built from it for the
// size suite, and so on, every task marked with its suite.
//
// A selection (in.Selection) is applied last (Select), so a run, its
// resume and its rescore see the same tasks; its Of counts the suite's
// tasks in every answer format.
func SuiteSet(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	s, err := suites.Lookup(in.Suite)
	if err != nil {
		return nil, usage.Errorf("%v", err)
	}
	set, err := s.Build(corpus, in)
	if err != nil {
		return nil, err
	}
	if in.Selection == nil {
		return withFormats(s, set, in.Formats)
	}
	whole, err := withFormats(s, set, in.Formats)
	if err != nil {
		return nil, err
	}
	if set, err = Select(set, in.Selection); err != nil {
		return nil, err
	}
	// The selection is a share of the suite's tasks in every format asked,
	// as the run's own count is.
	in.Selection.Of = len(whole.Tasks)
	return withFormats(s, set, in.Formats)
}

// withFormats asks set's class B and C tasks in each of formats
// (task.Set.WithFormats). A suite that gates gives its verdict on whole
// documents, so its formats must include the document.
func withFormats(s *suites.Suite, set *task.Set, names []string) (*task.Set, error) {
	if s.Gates && len(names) > 0 && !formats.HasWhole(names) {
		return nil, usage.Errorf("--formats %s: the %s suite's verdict is on whole-document answers; add document, or run an informational suite (natural, size, relay)", strings.Join(names, ","), s.Name)
	}
	asked := make([]string, len(names))
	for i, n := range names {
		if !formats.Of(n).Whole {
			asked[i] = n
		}
	}
	out := set.WithFormats(asked)
	if s.EditsProjection {
		out = projectionShown(out)
	}
	return out, nil
}

// projectionShown is set with every chain step asked in the projection
// format shown its document as the projection (suites.Suite.EditsProjection).
func projectionShown(set *task.Set) *task.Set {
	out := *set
	out.Tasks = make([]*task.Task, len(set.Tasks))
	for i, t := range set.Tasks {
		out.Tasks[i] = t
		if t.Step > 0 && t.Format == formats.Projection {
			c := *t
			c.Show = task.ShowProjection
			out.Tasks[i] = &c
		}
	}
	return &out
}

// chained reports whether a set holds relay chains (steps asked with the
// previous step's answer).
func chained(set *task.Set) bool {
	for _, t := range set.Tasks {
		if t.Step > 0 {
			return true
		}
	}
	return false
}
