package viewer

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/scoring"
)

// TestShowFeedbackLine: harness show says when the score is a feedback
// round's, and what the first answer was told, on one line; a score
// without rounds prints no such line.
func TestShowFeedbackLine(t *testing.T) {
	s := scoring.Score{TaskID: "02-b", Model: "m", Class: "B", Status: scoring.StatusAPIError,
		Rounds: 2, FirstTry: &scoring.FirstTry{Problem: "json-patch: operation 0:\nbad path"}}
	var b bytes.Buffer
	if err := WriteTranscript(&b, s, nil, scoring.Output{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "feedback: 2 rounds after a first answer that was not well-formed: json-patch: operation 0: bad path\n") {
		t.Errorf("no feedback line:\n%s", b.String())
	}
	s.Rounds, s.FirstTry = 0, nil
	b.Reset()
	_ = WriteTranscript(&b, s, nil, scoring.Output{})
	if strings.Contains(b.String(), "feedback") {
		t.Errorf("a feedback line without rounds:\n%s", b.String())
	}
}

// TestShowNamesTheServedModel: show did not name the model that served a
// swapped answer (issue 45); it does, on a line of its own.
func TestShowNamesTheServedModel(t *testing.T) {
	s := scoring.Score{TaskID: "02-b", Model: "openai/gpt-5.6-sol", Class: "B", Status: scoring.StatusAPIError, ModelServed: "openai/gpt-5.6-sol-mini"}
	var b bytes.Buffer
	if err := WriteTranscript(&b, s, nil, scoring.Output{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "served by openai/gpt-5.6-sol-mini, not openai/gpt-5.6-sol") {
		t.Errorf("the served model is not named:\n%s", b.String())
	}
}

// TestShowNamesTheJudgeVoteServedBy: a judge vote another model than
// the judge asked for served counts as the judge's; show and the HTML
// viewer name who served it beside the judge, and say nothing of a vote
// the judge gave.
func TestShowNamesTheJudgeVoteServedBy(t *testing.T) {
	f := true
	v := judge.Decide([]judge.Vote{
		{Judge: "anthropic/claude-opus-4.7", Faithful: &f, Grounded: true, Reason: "stated", ModelServed: "openai/gpt-5.5"},
		{Judge: "google/gemini-3.1-pro-preview", Faithful: &f, Grounded: true, Reason: "stated"},
	})
	s := scoring.Score{TaskID: "01-a", Model: "openai/gpt-5.5", Class: "A", Status: scoring.StatusScored, Judge: &v}
	var b bytes.Buffer
	if err := WriteTranscript(&b, s, nil, scoring.Output{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "served by"); got != 1 || !strings.Contains(b.String(), "  anthropic/claude-opus-4.7: faithful: stated\n    served by openai/gpt-5.5, not anthropic/claude-opus-4.7") {
		t.Errorf("%d served lines; want one under Claude's vote naming GPT-5.5:\n%s", got, b.String())
	}
	if vs := votesOf(&v); vs[0].ModelServed != "openai/gpt-5.5" || vs[1].ModelServed != "" {
		t.Errorf("the viewer's votes %+v: want Claude's served by GPT-5.5 alone", vs)
	}
}
