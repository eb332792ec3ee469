package jobs

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestFeedbackThen: an answer the check finds a problem in brings the next
// round (the conversation and the problem, under the round's id, with the
// first answer's hashes), up to the rounds allowed; a well-formed answer,
// an API failure and class A bring none; a round archived with another
// answer is not kept.
func TestFeedbackThen(t *testing.T) {
	set := tasktest.Set(t)
	check := func(_ *task.Task, _ []byte, raw string) string {
		if strings.HasPrefix(raw, "{") {
			return ""
		}
		return "bad: " + raw
	}
	f := NewFeedback(set, 2, nil, check)
	first := runner.Job{Model: "m", Request: model.Request{Messages: []model.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}}},
		Record: transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: "02-b", Hashes: transcript.Hashes{Document: "d"}}}
	answered := func(j runner.Job, content string) runner.Result {
		tr := j.Record
		tr.Response = &transcript.Response{Content: content}
		return runner.Result{Job: j, Transcript: &tr}
	}
	next := f.Then(answered(first, "x"))
	if len(next) != 1 {
		t.Fatalf("%d follow-ups, want round 1", len(next))
	}
	r1 := next[0]
	m := r1.Request.Messages
	if r1.Record.TaskID != "02-b.fb1" || len(m) != 4 || m[2].Content != "x" || m[3].Content != FeedbackHead+"bad: x"+FeedbackTail || r1.Record.Hashes.Document != "d" {
		t.Errorf("round 1: id %s, messages %+v", r1.Record.TaskID, m)
	}
	archived := func(answer string) *transcript.Transcript {
		tr := r1.Record
		tr.Request.Messages = []transcript.Message{{Content: "s"}, {Content: "u"}, {Content: answer}, {Content: FeedbackHead + "bad: x" + FeedbackTail}}
		return &tr
	}
	if !r1.Keep(archived("x")) || r1.Keep(archived("y")) {
		t.Error("a round is kept when asked with the same answer, and only then")
	}
	if r2 := f.Then(answered(r1, "y")); len(r2) != 1 || r2[0].Record.TaskID != "02-b.fb2" || len(r2[0].Request.Messages) != 6 {
		t.Errorf("round 2: %v", r2)
	} else if f.Then(answered(r2[0], "z")) != nil {
		t.Error("a round past the rounds allowed")
	}
	failed := answered(first, "x")
	failed.Transcript.Error = &transcript.CallError{Message: "503"}
	a := first
	a.Record.TaskID = "02-a"
	for name, res := range map[string]runner.Result{"well-formed": answered(first, "{}"), "API failure": failed, "class A": answered(a, "x")} {
		if got := f.Then(res); got != nil {
			t.Errorf("%s: %d follow-ups, want none", name, len(got))
		}
	}
}

// TestFeedbackAfterCutOff: a feedback round after an answer cut off at
// its output budget was asked at the same budget and told a JSON error
// rather than that the answer ran out of budget (issue 45). It says so,
// and doubles the budget up to the model's listed maximum.
func TestFeedbackAfterCutOff(t *testing.T) {
	set := tasktest.Set(t)
	check := func(*task.Task, []byte, string) string { return "the answer is not JSON: unexpected end" }
	for _, c := range tabletest.Cases(t, []struct {
		name             string
		budget, max      int
		wantBudget       int
		wantSays, reason string
	}{
		{"raised", 8000, 32000, 16000, "This round's budget is 16000 tokens (the model's maximum is 32000)", "doubled, under the maximum"},
		{"capped", 20000, 32000, 32000, "This round's budget is 32000 tokens", "doubled, but no more than the maximum"},
		{"at the maximum", 32000, 32000, 32000, "already the model's maximum (32000 tokens)", "nothing to raise: say so"},
		{"unknown maximum", 8000, 0, 16000, "twice the last (the model's maximum output is not known)", "doubled once, and said"},
	}) {
		f := NewFeedback(set, 1, map[string]Params{"m": {MaxOutput: c.max}}, check)
		first := runner.Job{Model: "m", Request: model.Request{MaxTokens: c.budget, Messages: []model.Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}}},
			Record: transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: "02-b"}}
		tr := first.Record
		tr.Response = &transcript.Response{Content: `{"bendscript":`, FinishReason: "length"}
		next := f.Then(runner.Result{Job: first, Transcript: &tr})
		if len(next) != 1 {
			t.Fatalf("%s: %d follow-ups", c.name, len(next))
		}
		msg := next[0].Request.Messages[3].Content
		if next[0].Request.MaxTokens != c.wantBudget || next[0].Record.Request.MaxTokens != c.wantBudget ||
			!strings.Contains(msg, "Your answer was cut off: it reached the output budget") || !strings.Contains(msg, c.wantSays) || !strings.Contains(msg, "not JSON") {
			t.Errorf("%s: budget %d, message %q; want %d saying %q (%s)", c.name, next[0].Request.MaxTokens, msg, c.wantBudget, c.wantSays, c.reason)
		}
	}
}
