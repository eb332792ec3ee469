package pipeline

import (
	"errors"

	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// SuiteSet returns the task set a run's suite runs (suites.Table): the
// corpus itself for the gating suite, the ladder built from it for the
// size suite, and so on, every task marked with its suite.
//
// A selection (in.Selection) is applied last (Select), so a run, its
// resume and its rescore see the same tasks.
func SuiteSet(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	s, err := suites.Lookup(in.Suite)
	if err != nil {
		return nil, usage("%v", err)
	}
	set, err := s.Build(corpus, in)
	var ue *suites.UsageError
	if errors.As(err, &ue) {
		return nil, usage("%s", ue.Msg)
	}
	if err != nil || in.Selection == nil {
		return set, err
	}
	return Select(set, in.Selection)
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
