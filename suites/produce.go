package suites

import (
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// produce is the produce suite: the two tasks of every corpus document
// (task.Produced): class P writes the .bend JSON of its projection, class
// R its projection (--steps 1, or none). With --steps 2 it is the chained
// variant
// (task.ProducedChain): R, then P given the model's own projection, the
// end compared with the start.
func produce(corpus *task.Set, in transcript.Inputs) (*task.Set, error) {
	if formats.Several(in.Formats) {
		return nil, usage.Errorf("--formats: the produce suite's classes answer in formats of their own (P the whole document, R the projection)")
	}
	if in.Steps > 2 {
		return nil, usage.Errorf("--steps: the produce suite's chain has 2 steps (render, then produce from that text), not %d", in.Steps)
	}
	out := &task.Set{Documents: corpus.Documents}
	for _, d := range corpus.Documents {
		ts, err := task.Produced(d)
		if in.Steps == 2 {
			ts, err = task.ProducedChain(d, relay.TaskID)
		}
		if err != nil {
			return nil, err
		}
		out.Tasks = append(out.Tasks, ts...)
	}
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return mark(out, Produce), nil
}

var produceGrouping = func() *Grouping {
	s := classGrouping("Produce and render (information)",
		"Class P gives each corpus document as the harness's text projection (`docs/projection.md`) and asks for the `.bend` JSON; class R gives the `.bend` and asks for the projection, parsed back before scoring (a text that does not parse is invalid, drift 1, its line and rule in the score). Both expect the corpus document itself, so every difference is a loss; the declared id is not asked for in P (id_status records it). Information: no threshold applies.")
	return s
}()
