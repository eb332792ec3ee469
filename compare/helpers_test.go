package compare

import (
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, "a comparison users read")
}

// build is the report of a test run.
func build(r scoringtest.Run) *report.Report {
	return aggregate.Build(aggregate.Input{Manifest: r.Manifest, Config: r.Config, Scores: r.Scores, Set: r.Set})
}
