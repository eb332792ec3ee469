package report

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/scoring"
)

// TestServedModelMismatchWarned: the server said openai/gpt-3.5-turbo
// answered for the model asked for, and only the transcript's
// model_served recorded it; the report now warns, naming both.
func TestServedModelMismatchWarned(t *testing.T) {
	t.Parallel()
	in := failingRun.input()
	n := 0
	for i := range in.Scores {
		if in.Scores[i].Status == scoring.StatusScored && n < 2 {
			in.Scores[i].ModelServed = "openai/gpt-3.5-turbo"
			n++
		}
	}
	rep := Build(in)
	for _, w := range rep.Warnings {
		if strings.Contains(w, "2 answers were served by another model (openai/gpt-3.5-turbo ×2)") && strings.Contains(w, "cannot gate") {
			return
		}
	}
	t.Errorf("warnings %q; want one naming the served model", rep.Warnings)
}
