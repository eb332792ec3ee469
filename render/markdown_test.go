package render

import (
	"bytes"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestMarkdownGolden pins the Markdown reports of a passing and a failing
// run.
func TestMarkdownGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		run    scoringtest.Synthetic
		reason string
	}{
		{"pass", scoringtest.PassingRun, "a gating run inside every threshold: verdict pass, the matrix all ✅"},
		{"fail", scoringtest.FailingRun, "three repeats: noise and intervals; failures listed; an incomplete model's complete column"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteMarkdown(&buf, aggregate.Build(inputOf(tc.run.Run()))); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name+".md.golden", buf.Bytes())
		})
	}
}
