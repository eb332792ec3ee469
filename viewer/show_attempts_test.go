package viewer

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/transcript"
)

// TestShowListsAttempts: harness show lists a call's attempts when it was
// retried or interrupted (what was retried and after how long, each
// generation id, which `harness runs --reconcile` prices, and each cost),
// and nothing for a call answered at its first attempt, whose header
// already counts it.
func TestShowListsAttempts(t *testing.T) {
	cost := 0.0123
	for _, c := range tabletest.Cases(t, []struct {
		name     string
		attempts []transcript.Attempt
		want     []string
		reason   string
	}{
		{"retried", []transcript.Attempt{
			{Number: 1, Status: 429, Error: "rate limited:\nslow down", RetryAfterMS: 2000},
			{Number: 2, Status: 200, DurationMS: 1234, GenerationID: "gen-2", Provider: "Anthropic", Cost: &cost, WaitMS: 2000},
		}, []string{"\nAttempts\n", "  1 · HTTP 429 · retry after 2000 ms · error: rate limited: slow down\n",
			"  2 · HTTP 200 · 1234 ms · gen-2 · provider Anthropic · $0.0123 · waited 2000 ms before it\n"}, "a 429 then an answer: both, in order"},
		{"interrupted", []transcript.Attempt{{Number: 1, Status: 200, GenerationID: "gen-i", Interrupted: true}},
			[]string{"  1 · HTTP 200 · interrupted (may have been billed for what it generated) · gen-i\n"}, "one attempt, but in flight when the run stopped"},
		{"plain", []transcript.Attempt{{Number: 1, Status: 200, GenerationID: "gen-1"}}, nil, "answered at the first attempt: no section"},
	}) {
		s := scoring.Score{TaskID: "02-b", Model: "m", Class: "B", Status: scoring.StatusAPIError, Attempts: len(c.attempts)}
		tr := &transcript.Transcript{Attempts: c.attempts}
		var b bytes.Buffer
		if err := WriteTranscript(&b, s, nil, scoring.Output{Transcript: tr}); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: show lacks %q (%s):\n%s", c.name, w, c.reason, b.String())
			}
		}
		if c.want == nil && strings.Contains(b.String(), "Attempts") {
			t.Errorf("%s: an Attempts section (%s):\n%s", c.name, c.reason, b.String())
		}
	}
}
