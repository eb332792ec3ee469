package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/verdict"
)

// marker returns a piece of t's instruction that no other task's holds:
// the fake finds the task of a request by it.
func marker(t *testing.T, set *task.Set, tk *task.Task) string {
	t.Helper()
	parts := strings.Split(tk.Instruction, "{{doc}}")
	slices.SortFunc(parts, func(a, b string) int { return len(b) - len(a) })
	for _, p := range parts {
		if len(p) < 20 {
			break
		}
		unique := true
		for _, o := range set.Tasks {
			if o.ID != tk.ID && strings.Contains(o.Instruction, p) {
				unique = false
			}
		}
		if unique {
			return p
		}
	}
	t.Fatalf("no unique piece in the instruction of %s", tk.ID)
	return ""
}

// TestNightWithRequestErrors is a night of the default three models where
// one task of each is refused for a reason of its own: a 403 moderation
// flag, a 400 refusal and a 402 max_tokens reservation. Each fails only
// that job: every other job of the three models is answered and scored,
// and the report is incomplete, naming the three tasks and their
// reasons; the run ends with a failing verdict (exit 1), not as a model
// that could not be run (exit 2).
func TestNightWithRequestErrors(t *testing.T) {
	t.Parallel()
	set := corpusSet(t)
	models := config.Default().Models
	refused := tabletest.Cases(t, []struct {
		model, task string
		reply       modeltest.Reply
		says        string // what the report says
		reason      string
	}{
		{models[0], "02-a", modeltest.Moderation("a flagged segment"), "the input was flagged by moderation (HTTP 403)", "a moderation flag is about one input"},
		{models[1], "05-b", modeltest.Refusal(), "the model refused the request (HTTP 400 refusal)", "a refusal is about one request"},
		{models[2], "07-c", modeltest.Reservation(64000, 1200), "this request's max_tokens cannot be reserved with the credit left (HTTP 402 payment_required)", "a smaller max_tokens could be reserved"},
	})
	markers := make([]string, len(refused))
	for i, r := range refused {
		markers[i] = marker(t, set, set.Task(r.task))
	}
	var mu sync.Mutex
	sent := map[string]int{}
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if len(req.ResponseFormat) > 0 { // a judge vote
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "stated"}`)
		}
		last := req.Messages[len(req.Messages)-1].Content
		for i, r := range refused {
			if req.Model == r.model && strings.Contains(last, markers[i]) {
				mu.Lock()
				sent[r.model+" "+r.task]++
				mu.Unlock()
				return r.reply
			}
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	})
	o, _ := testOptions(t, models, srv.URL)
	res, err := Run(context.Background(), o)
	if !errors.Is(err, ErrVerdictFail) {
		t.Fatalf("Run = %v; want a failing verdict (exit 1), the run complete but for three jobs", err)
	}
	for _, r := range refused {
		if n := sent[r.model+" "+r.task]; n != 1 {
			t.Errorf("%s %s was asked %d times; want once: a request error is not retried", r.model, r.task, n)
		}
	}
	b, err := os.ReadFile(res.Reports[0])
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for _, r := range refused {
		mr := rep.Results[r.model]
		scored, apiErrors, planned := 0, 0, 0
		var failed []report.FailedCall
		for _, class := range []string{"A", "B", "C"} {
			if c := mr.Class(class); c != nil {
				scored += c.Scored
				apiErrors += c.APIErrors
				planned += c.Planned
				failed = append(failed, c.FailedCalls...)
			}
		}
		if scored != planned-1 || apiErrors != 1 {
			t.Errorf("%s: %d of %d scored, %d API errors; want every job but one scored", r.model, scored, planned, apiErrors)
		}
		want := report.FailedCall{TaskID: r.task, Scope: "request", Reason: r.says}
		if len(failed) != 1 || failed[0] != want {
			t.Errorf("%s: failed calls %+v; want %+v", r.model, failed, want)
		}
		i := slices.IndexFunc(rep.Failures, func(f verdict.Failure) bool {
			return f.Model == r.model && f.Metric == verdict.MetricIncomplete
		})
		if i < 0 || !strings.Contains(rep.Failures[i].Message, r.task+" r0: "+r.says) {
			t.Errorf("%s: the incomplete failure does not name %s and why: %+v", r.model, r.task, rep.Failures)
		}
	}
	if rep.Verdict != report.Fail {
		t.Errorf("verdict %q, want fail", rep.Verdict)
	}
}
