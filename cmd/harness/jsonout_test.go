package main

import (
	"bytes"
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/report"
)

// TestRunJSONStdoutIsTheReportAlone: with --format json, stdout is the
// JSON report and nothing else, for a new run and for its resume, whose
// first note ("resume: reports go to ...") reached stdout before the
// report (noticed in issue 36's move of the CLI out of pipeline).
func TestRunJSONStdoutIsTheReportAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	args := []string{"run", "--models", "offline/oracle", "--judges", "offline/judge", "--docs", "1", "--no-preflight",
		"--progress", "none", "--format", "json", "--out", runs, "--reports", filepath.Join(dir, "reports")}
	check := func(what string, args ...string) {
		t.Helper()
		out, errs, code := runCLI(t, args...)
		if code > 1 {
			t.Fatalf("%s: exit %d: %s", what, code, errs)
		}
		if _, err := report.ReadJSON(bytes.NewReader([]byte(out)), "stdout"); err != nil {
			t.Errorf("%s: stdout is not the JSON report alone: %v\n%.300s", what, err, out)
		}
	}
	check("new run", append(args, "--run-id", "j")...)
	check("resume", "run", "--resume", filepath.Join(runs, "j"), "--progress", "none", "--format", "json")
}
