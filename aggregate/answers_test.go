package aggregate

import (
	"encoding/json"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/transcript"
)

// TestAnswerOf: an answer's record holds what applies to it and nothing
// else, and says an unknown cost and an undecided judging apart from a
// known one.
func TestAnswerOf(t *testing.T) {
	t.Parallel()
	cost := 0.25
	unreq := 3
	b := scoring.Score{Model: "m", TaskID: "01-b", Class: "B", Document: "01.bend.json", Status: scoring.StatusScored, Suite: "relay", Chain: "01", Step: 2,
		Metric: &metric.Result{Drift: 0.5, Components: metric.ComponentsOf(func(i int) float64 { return float64(i+1) / 10 }), EditCompliance: 0.75, Valid: true, Residual: 0.125, UnrequestedChanges: &unreq},
		Usage:  transcript.Usage{PromptTokens: 10, CompletionTokens: 20, Cost: &cost, Estimated: true}, LatencyMS: 30, Attempts: 2, Transcript: "m/01-b.r0.json"}
	noDoc := b
	noDoc.Metric = &metric.Result{Drift: 1, Components: metric.ComponentsOf(func(int) float64 { return 1 })}
	a := scoring.Score{Model: "m", TaskID: "01-a", Class: "A", Status: scoring.StatusScored, Answer: &metric.AnswerResult{Valid: true},
		Judge: &judge.Verdict{Faithful: true, Decision: judge.DecisionMajority, FaithfulVotes: 2}}
	undecided := a
	undecided.Judge = &judge.Verdict{Decision: judge.DecisionNoVote, ErrorVotes: 2}
	notAnswer := a
	notAnswer.Answer = &metric.AnswerResult{}
	notAnswer.Judge = &judge.Verdict{Decision: judge.DecisionNotAnAnswer}
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		score  scoring.Score
		want   string
		reason string
	}{
		{"missing", scoring.Score{Model: "m", TaskID: "01-b", Class: "B", Repeat: 1, Status: scoring.StatusMissing},
			`{"model":"m","task_id":"01-b","class":"B","document":"","format":"document","repeat":1,"status":"missing","prompt_tokens":0,"completion_tokens":0,"cost_usd":null,"latency_ms":0,"attempts":0}`,
			"an answer never given measures nothing; its cost is unknown (null), not 0"},
		{"class B", b,
			`{"model":"m","task_id":"01-b","class":"B","document":"01.bend.json","part":"relay","format":"document","chain":"01","step":2,"repeat":0,"status":"scored","drift":0.5,"components":[0.1,0.2,0.3,0.4,0.5],"lossless":false,"residual":0.125,"unrequested":3,"edit_compliance":0.75,"valid":true,"prompt_tokens":10,"completion_tokens":20,"tokens_estimated":true,"cost_usd":0.25,"latency_ms":30,"attempts":2,"transcript":"m/01-b.r0.json"}`,
			"every number the CSV and the viewer print of a class B/C answer, with its chain and step for the step plots, and its format named even when it is the whole document (issue 56: it was null)"},
		{"no document", noDoc,
			`{"model":"m","task_id":"01-b","class":"B","document":"01.bend.json","part":"relay","format":"document","chain":"01","step":2,"repeat":0,"status":"scored","drift":1,"components":[1,1,1,1,1],"lossless":false,"residual":0,"edit_compliance":0,"valid":false,"prompt_tokens":10,"completion_tokens":20,"tokens_estimated":true,"cost_usd":0.25,"latency_ms":30,"attempts":2,"transcript":"m/01-b.r0.json"}`,
			"an answer that held no document has no unrequested count (the viewer prints n/a)"},
		{"class A", a,
			`{"model":"m","task_id":"01-a","class":"A","document":"","repeat":0,"status":"scored","valid":true,"judged":"faithful","prompt_tokens":0,"completion_tokens":0,"cost_usd":null,"latency_ms":0,"attempts":0}`,
			"a class A answer has no drift; its validity is the answer object's"},
		{"undecided", undecided,
			`{"model":"m","task_id":"01-a","class":"A","document":"","repeat":0,"status":"scored","valid":true,"judged":"undecided","prompt_tokens":0,"completion_tokens":0,"cost_usd":null,"latency_ms":0,"attempts":0}`,
			"a verdict without a valid vote decided nothing: the CSV leaves faithful empty"},
		{"not an answer", notAnswer,
			`{"model":"m","task_id":"01-a","class":"A","document":"","repeat":0,"status":"scored","valid":false,"judged":"unfaithful","prompt_tokens":0,"completion_tokens":0,"cost_usd":null,"latency_ms":0,"attempts":0}`,
			"a response that is not the answer object is decided unfaithful without votes (Decision)"},
	}) {
		got, err := json.Marshal(AnswerOf(&c.score))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s\n(%s)", c.name, got, c.want, c.reason)
		}
	}
}

// TestAnswersInPlanOrder: the answers come in the plan's order (model,
// task, repeat as the manifest lists them) whatever the scores' order,
// and an answer the plan does not name comes last: the CSV lists a
// rescore's answers as the run's.
func TestAnswersInPlanOrder(t *testing.T) {
	t.Parallel()
	in := Input{Manifest: &transcript.Manifest{Models: []string{"z", "a"}, TaskIDs: []string{"02-b", "01-b"}}}
	in.Scores = []scoring.Score{{Model: "a", TaskID: "01-b"}, {Model: "stray", TaskID: "01-b"}, {Model: "z", TaskID: "01-b", Repeat: 1},
		{Model: "a", TaskID: "02-b"}, {Model: "z", TaskID: "01-b"}, {Model: "z", TaskID: "02-b"}}
	var got []string
	for _, a := range Answers(in) {
		got = append(got, a.Model+" "+a.TaskID+" r"+string(rune('0'+a.Repeat)))
	}
	want := []string{"z 02-b r0", "z 01-b r0", "z 01-b r1", "a 02-b r0", "a 01-b r0", "stray 01-b r0"}
	if !slices.Equal(got, want) {
		t.Errorf("answers %q, want %q", got, want)
	}
}
