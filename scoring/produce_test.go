package scoring

import (
	"testing"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestEndChainsAcrossFormats: the produce chain renders (step 1, answer
// format projection) then produces (step 2, a whole document): one chain
// in one lane although its steps' formats differ, so a projection that
// does not parse ends it and step 2, never asked, is not run, drift 1.
func TestEndChainsAcrossFormats(t *testing.T) {
	doc := tasktest.Set(t).Documents[15]
	steps, err := task.ProducedChain(doc, relay.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	set := &task.Set{Documents: []*task.Document{doc}, Tasks: steps}
	r, p := steps[0], steps[1]
	if r.Format == p.Format || r.Lane != p.Lane {
		t.Fatalf("the chain's steps: formats %q, %q, lanes %q, %q; want two formats in one lane", r.Format, p.Format, r.Lane, p.Lane)
	}
	w := metric.DefaultWeights()
	res, _ := Metric(r, r.Source.Bytes, "not a projection", w)
	scores := []Score{
		{Model: "m", TaskID: r.ID, Class: r.Class, Format: r.Format, Status: StatusScored, Chain: r.Chain, Step: 1, Metric: &res},
		{Model: "m", TaskID: p.ID, Class: p.Class, Format: p.Format, Status: StatusMissing, Chain: p.Chain, Step: 2},
	}
	EndChains(scores, set, w)
	if d, ok := scores[1].Drift(); !scores[1].NotRun || !ok || d != 1 {
		t.Errorf("step 2 after an unparsable projection: not run %v, drift %v (scored %v); want not run with drift 1", scores[1].NotRun, d, ok)
	}
}
