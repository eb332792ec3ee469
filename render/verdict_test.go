package render

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestIneligibleNeverReadsPass: a run that cannot gate v0.1 (§8.6) never
// reads as a gating pass, however well its models do; an eligible one
// that holds every threshold does. (Moved with the verdict's words from
// report's eligibility test, issue 47.)
func TestIneligibleNeverReadsPass(t *testing.T) {
	t.Parallel()
	perfect := func(string, string, int) (float64, bool, string) { return 0, true, scoring.StatusScored }
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		models []string
		want   string
		reason string
	}{
		{"offline", []string{"offline/oracle", "offline/noisy", "offline/identity"}, "thresholds met (informational: cannot gate v0.1)", "offline models cannot gate"},
		{"two vendors", []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol"}, "thresholds met (informational: cannot gate v0.1)", "§8.6 asks one model of each of three vendors"},
		{"gating", []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}, "✅ PASS", "an eligible run that holds every threshold passes"},
	}) {
		in := inputOf(scoringtest.Synthetic{Models: c.models, Repeats: 1, Answer: perfect}.Run())
		word := VerdictWord(aggregate.Build(in))
		if word != c.want {
			t.Errorf("%s: %q, want %q (%s)", c.name, word, c.want, c.reason)
		}
		if c.want != "✅ PASS" && strings.Contains(word, "PASS") {
			t.Errorf("%s: an ineligible run reads %q, the words of a gating pass", c.name, word)
		}
	}
}
