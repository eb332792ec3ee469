package viewer

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
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
		{"changed", []transcript.Attempt{{Number: 1, Status: 200, GenerationID: "gen-1", Changed: []string{"model a/x → z/other", "generation id gen-1 → gen-2"}}},
			[]string{"  1 · HTTP 200 · gen-1 · changed mid-stream: model a/x → z/other, generation id gen-1 → gen-2 (the first chunk's are kept)\n"},
			"answered at once, but by another model or generation part-way (issue 53: said nowhere)"},
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

// TestPageListsAttempts: the page lists a retried call's attempts in its
// transcript's detail, as show does, through the spool the run writes the
// page from; a call answered at once lists none.
func TestPageListsAttempts(t *testing.T) {
	in := inputOf(scoringtest.PassingRun.Run())
	in.Answers = make([]scoring.Output, len(in.Scores))
	in.Answers[0] = scoring.Output{Transcript: &transcript.Transcript{Attempts: []transcript.Attempt{
		{Number: 1, Status: 503, Error: "upstream overloaded"}, {Number: 2, Status: 200, GenerationID: "gen-retried"}}}}
	in.Answers[1] = scoring.Output{Transcript: &transcript.Transcript{Attempts: []transcript.Attempt{{Number: 1, Status: 200, GenerationID: "gen-plain"}}}}
	spool, err := NewSpool(len(in.Scores))
	if err != nil {
		t.Fatal(err)
	}
	defer spool.Close()
	for i, s := range in.Scores {
		spool.Put(i, OutputOf(s, nil, in.Answers[i]))
	}
	in.Answers, in.Outputs = nil, spool
	var b bytes.Buffer
	if err := WriteHTML(&b, aggregate.Build(in.Input), in); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Count(page, "<h4>Attempts</h4>") != 1 || !strings.Contains(page, "<li>1 · HTTP 503 · error: upstream overloaded</li>") ||
		!strings.Contains(page, "<li>2 · HTTP 200 · gen-retried</li>") || strings.Contains(page, "gen-plain") {
		t.Errorf("the page should list the retried call's two attempts and nothing of the call answered at once:\n%s", attemptsPart(page))
	}
}

// attemptsPart is the page around its first attempts list, for a failure
// message.
func attemptsPart(page string) string {
	i := strings.Index(page, "Attempts")
	if i < 0 {
		return "(no attempts list)"
	}
	return page[max(0, i-200):min(len(page), i+400)]
}
