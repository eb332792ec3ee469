package pipeline

import (
	"cmp"
	"fmt"
	"slices"
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
	// SuiteNatural is the 40 class B and C changes asked for as an editor
	// would, no id dictated for new content (informational).
	SuiteNatural = "natural"
	// SuiteAll is the gating, natural and relay suites in one run: the
	// verdict is the gating suite's, the others reported beside it. (The
	// size suite is left out: its 512 KB documents make it a run of its
	// own.)
	SuiteAll = "all"
)

// Suites lists the suites, for flag help and errors.
var Suites = []string{SuiteGating, SuiteNatural, SuiteSize, SuiteRelay, SuiteAll}

// SuiteSet returns the task set a run's suite runs: the corpus itself for
// the gating suite, or for the size suite the ladder built from it
// (ladder.Build, deterministic, so a resume or rescore rebuilds the same
// set, which the manifest's corpus hash checks).
//
// A selection (in.Selection) is applied last (Select), so a run, its
// resume and its rescore see the same tasks.
func SuiteSet(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	set, err := suiteSet(corpus, in)
	if err != nil || in.Selection == nil {
		return set, err
	}
	return Select(set, in.Selection)
}

func suiteSet(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
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
	case SuiteNatural:
		return naturalSet(corpus), nil
	case SuiteRelay, SuiteAll:
		set, _, err := relay.Build(corpus, cmp.Or(in.Steps, relay.DefaultSteps))
		if err != nil {
			return nil, usage("--steps: %v", err)
		}
		if in.Suite == SuiteAll {
			return merge(merge(corpus, naturalSet(corpus)), set), nil
		}
		return set, nil
	}
	return nil, usage("no suite %q (have %s)", in.Suite, strings.Join(Suites, ", "))
}

// merge is a set of the tasks of a and b (whose ids differ: relay steps
// are NN-sSS) and of their documents, each once by name.
func merge(a, b *task.Set) *task.Set {
	out := &task.Set{Inverse: a.Inverse, Natural: a.Natural}
	seen := map[string]bool{}
	for _, d := range append(slices.Clone(a.Documents), b.Documents...) {
		if !seen[d.Name] {
			seen[d.Name] = true
			out.Documents = append(out.Documents, d)
		}
	}
	out.Tasks = append(slices.Clone(a.Tasks), b.Tasks...)
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return out
}

// relaySuite reports whether suite runs relay chains.
func relaySuite(suite string) bool { return suite == SuiteRelay || suite == SuiteAll }

// NaturalPrefix starts the id of a natural-suite task: n03-b is task 03-b
// asked for as an editor would (instructions/natural/03-b.json), an id no
// other suite uses.
const NaturalPrefix = "n"

// naturalSet is the natural suite's task set: the corpus documents and the
// natural tasks, under ids NaturalPrefix + the forward id.
func naturalSet(corpus *task.Set) *task.Set {
	out := &task.Set{Documents: corpus.Documents}
	for _, t := range corpus.Natural {
		c := *t
		c.ID = NaturalPrefix + t.ID
		out.Tasks = append(out.Tasks, &c)
	}
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return out
}
