package viewer

import (
	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// lineDiffText is a unified-style diff of want and got for failure
// messages.
func lineDiffText(want, got string) string { return linediff.Unified(want, got, 2) }

// inputOf is a test run's input to the page.
func inputOf(r scoringtest.Run) Input {
	return Input{Input: aggregate.Input{Manifest: r.Manifest, Config: r.Config, Scores: r.Scores, Set: r.Set}, Answers: r.Answers}
}
