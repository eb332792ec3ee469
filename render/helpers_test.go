package render

import (
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, "a report users read")
}

// lineDiffText is a unified-style diff of want and got for failure
// messages.
func lineDiffText(want, got string) string { return linediff.Unified(want, got, 2) }

// inputOf is a test run's input to the writers.
func inputOf(r scoringtest.Run) aggregate.Input {
	return aggregate.Input{Manifest: r.Manifest, Config: r.Config, Scores: r.Scores, Set: r.Set}
}
