package pipeline

import (
	"cmp"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/ladder"
	"bendscript.com/round-trip-harness/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// The task suites a run can run.
const (
	SuiteGating = "gating" // the 20 documents × 3 classes of §8: the verdict
	SuiteSize   = "size"   // the size ladder: the same edits on 8 KB to 512 KB documents (informational)
	SuiteRelay  = "relay"  // chains of edits, each step given the previous answer (informational)
)

// Suites lists the suites, for flag help and errors.
var Suites = []string{SuiteGating, SuiteSize, SuiteRelay}

// SuiteSet returns the task set a run's suite runs: the corpus itself for
// the gating suite, or for the size suite the ladder built from it
// (ladder.Build, deterministic, so a resume or rescore rebuilds the same
// set, which the manifest's corpus hash checks).
func SuiteSet(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	switch in.Suite {
	case "", SuiteGating:
		return corpus, nil
	case SuiteSize:
		c := ladder.Config{}
		if len(in.Rungs) > 0 {
			sizes, err := ladder.ParseSizes(strings.Join(in.Rungs, ","))
			if err != nil {
				return nil, usage("--rungs: %v", err)
			}
			c.Sizes = sizes
		}
		rungs, err := ladder.Build(corpus, c)
		if err != nil {
			return nil, fmt.Errorf("building the size ladder: %w", err)
		}
		return ladder.TaskSet(rungs)
	case SuiteRelay:
		set, _, err := relay.Build(corpus, cmp.Or(in.Steps, relay.DefaultSteps))
		if err != nil {
			return nil, usage("--steps: %v", err)
		}
		return set, nil
	}
	return nil, usage("no suite %q (have %s)", in.Suite, strings.Join(Suites, ", "))
}
