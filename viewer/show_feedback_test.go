package viewer

import (
	"bytes"
	"strings"
	"testing"

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
