package runner_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/runner"
)

// TestDrainNamesModelsDown: a run against an API that refused every
// request ended as a failing verdict of "not measured" rows (issue 34).
// Drain now names each model whose every job failed fatally, with the
// first failure's text, and no model that answered even once.
func TestDrainNamesModelsDown(t *testing.T) {
	set, _ := load(t)
	// flaky answers its first task (PerModel 1: its jobs go in order),
	// then fails fatally: one answer is enough not to be down.
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		switch {
		case req.Model == "bad":
			return modeltest.Unauthorized()
		case req.Model == "flaky" && taskOf(req) != set.Tasks[0].ID:
			return modeltest.Unauthorized()
		}
		return modeltest.Text("{}")
	})
	var sl sleeps
	c := newClient(srv.URL, &sl)
	closed := newClient(modeltest.ClosedURL(t), &sl)
	r := newRunner(t, t.TempDir(), map[string]model.Client{"bad": c, "good": c, "flaky": c, "gone": closed})
	r.PerModel = 1
	tally, err := r.Drain(context.Background(), answerJobs(t, []string{"bad", "flaky", "gone", "good"}, set.Tasks[:4], 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(tally.Down) != 2 || tally.Down[0].Model != "bad" || tally.Down[1].Model != "gone" {
		t.Fatalf("Down = %+v; want bad and gone, by name", tally.Down)
	}
	want := []runner.Down{
		{Model: "bad", Err: "model bad: HTTP 401: No auth credentials found"},
		{Model: "gone", Err: tally.Down[1].Err},
	}
	if !reflect.DeepEqual(tally.Down, want) {
		t.Errorf("Down = %+v, want %+v", tally.Down, want)
	}
	if !strings.Contains(tally.Down[1].Err, "connection refused") {
		t.Errorf("gone: %q; want the refused connection named", tally.Down[1].Err)
	}
}
