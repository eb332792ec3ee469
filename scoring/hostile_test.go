package scoring

import (
	"encoding/json"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// answered is an answer transcript of task 05-a asked of asked, served by
// served, with the given usage.
func answered(asked, served string, u transcript.Usage) *transcript.Transcript {
	return &transcript.Transcript{Kind: transcript.KindTask, Model: asked, TaskID: "05-a",
		Request:  transcript.Request{Model: asked},
		Attempts: []transcript.Attempt{{Number: 1, Status: 200}},
		Response: &transcript.Response{Content: `{"answer": "x", "evidence": []}`, FinishReason: "stop", ModelServed: served, Usage: u}}
}

// TestArchivedAbsurdCostNeverScored: an archive whose transcripts held a
// cost of 1e308 (or -1, or token counts of 2^63-1) could not be rescored:
// the sums were +Inf (json: unsupported value) or overflowed. The score
// takes them out, as the client does.
func TestArchivedAbsurdCostNeverScored(t *testing.T) {
	tk := tasktest.Set(t).Task("05-a")
	for _, usd := range []float64{1e308, -1} {
		s := scoreOne(tk, "v/m", 0, answered("v/m", "v/m", transcript.Usage{Cost: &usd, PromptTokens: 1<<63 - 1}), nil, metric.DefaultWeights())
		if s.Usage.Cost != nil || s.Usage.PromptTokens != 0 || len(s.Usage.Unread) != 2 {
			t.Errorf("cost %g: usage %+v; want no cost, no count, both named", usd, s.Usage)
		}
	}
}

// TestServedModelMismatchRecorded: the server said openai/gpt-3.5-turbo
// answered for another requested id, and only the transcript recorded it;
// the score now carries it for the report's warning. A dated or variant
// id of the model asked for is the same model.
func TestServedModelMismatchRecorded(t *testing.T) {
	tk := tasktest.Set(t).Task("05-a")
	for _, c := range tabletest.Cases(t, []struct{ asked, served, want, reason string }{
		{"anthropic/claude-opus-4.8", "openai/gpt-3.5-turbo", "openai/gpt-3.5-turbo", "another model"},
		{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.8-20260101", "", "a dated version of the model asked for"},
		{"anthropic/claude-opus-4.8", "claude-opus-4.8", "", "the model without its vendor prefix"},
		{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.80", "anthropic/claude-opus-4.80", "another digit is another model, not a version"},
		{"vendor/a", "", "", "the server did not say"},
		{"openai/gpt-5.6-sol", "openai/gpt-5.6-sol-mini", "openai/gpt-5.6-sol-mini", "a -mini listing is a smaller model, not the one asked for (issue 45)"},
		{"google/gemini-3.1-pro-preview", "google/gemini-3.1-pro-preview-flash-lite", "google/gemini-3.1-pro-preview-flash-lite", "a -flash-lite listing is another model (issue 45)"},
		{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.8-2026-01-01", "", "a date written with dashes"},
		{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.8:free", "", "an OpenRouter routing variant"},
		{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.8:mini", "anthropic/claude-opus-4.8:mini", "a colon suffix that is no OpenRouter variant"},
		{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.8-20260101:nitro", "", "a dated id of a routing variant"},
	}) {
		s := scoreOne(tk, c.asked, 0, answered(c.asked, c.served, transcript.Usage{}), nil, metric.DefaultWeights())
		if s.ModelServed != c.want {
			t.Errorf("%s (%s): ModelServed %q, want %q", c.served, c.reason, s.ModelServed, c.want)
		}
	}
}

// TestRefusalIsNotAnEmptyAnswer: a model's refusal (message.refusal, or
// the provider's content filter) showed as "the answer is empty".
func TestRefusalIsNotAnEmptyAnswer(t *testing.T) {
	set := tasktest.Set(t)
	for _, c := range tabletest.Cases(t, []struct {
		raw, finish, want, reason string
	}{
		{`{"choices":[{"message":{"content":null,"refusal":"I can't help with that."}}]}`, "stop", "the model refused: I can't help with that.", "message.refusal"},
		{`{"choices":[{"message":{"content":""}}]}`, "content_filter", "content filter withheld the answer", "the provider's filter"},
	}) {
		for _, id := range []string{"05-a", "05-b"} {
			tr := answered("v/m", "", transcript.Usage{})
			tr.TaskID = id
			tr.Response.Content, tr.Response.FinishReason, tr.Response.RawBody = "", c.finish, json.RawMessage(c.raw)
			s := scoreOne(set.Task(id), "v/m", 0, tr, nil, metric.DefaultWeights())
			got := ""
			if s.Answer != nil {
				got = s.Answer.Reason
			} else if s.Metric != nil {
				got = s.Metric.Reason
			}
			if !strings.Contains(got, c.want) {
				t.Errorf("%s, %s: reason %q, want it to say %q", c.reason, id, got, c.want)
			}
		}
	}
}

// TestPanicWhileScoringIsAnInvalidAnswer: a panic while scoring one
// answer crashed the whole score phase of a paid run (issue 45: the
// projection parser's depth edge). The score phase (oneOutput) recovers
// it: the answer is scored, invalid, with a reason that says the harness
// failed on it. A nil judge transcript stands in for any panic in the
// scoring code.
func TestPanicWhileScoringIsAnInvalidAnswer(t *testing.T) {
	tk := tasktest.Set(t).Task("05-a")
	s := scoreOne(tk, "v/m", 0, answered("v/m", "", transcript.Usage{}), []*transcript.Transcript{nil}, metric.DefaultWeights())
	if s.Status != StatusScored || s.Answer == nil || !strings.Contains(s.Answer.Reason, "the harness failed while reading this answer") {
		t.Errorf("status %s, answer %+v; want scored, with the reason", s.Status, s.Answer)
	}
}
