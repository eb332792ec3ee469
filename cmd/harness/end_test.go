package main

import (
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestRunEndsWithVerdictOnEverySuite: on every suite, the last three lines
// a run prints are the verdict line and the HTML and JSON reports' paths,
// so that a 40-line terminal shows the verdict (issue 23: the last lines
// were a relay table and file paths, the verdict scrolled away).
func TestRunEndsWithVerdictOnEverySuite(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		suite   string
		extra   []string
		verdict string
		reason  string
	}{
		{"gating", []string{"--docs", "03"}, "Verdict: thresholds not met (informational: cannot gate v0.1): ", "a partial gating run never passes and never gates, and its verdict still ends the output"},
		{"natural", []string{"--docs", "03"}, "Verdict: complete (informational): ", "an informational suite's verdict ends the output too"},
		{"size", []string{"--rungs", "8k", "--limit", "2"}, "Verdict: complete (informational): ", "the size suite's rung tables come before the verdict, not after it"},
		{"relay", []string{"--steps", "2", "--docs", "03"}, "Verdict: complete (informational): ", "the relay table, once the last thing printed (issue 23), comes before the verdict"},
		{"all", []string{"--steps", "2", "--docs", "03"}, "Verdict: thresholds not met (informational: cannot gate v0.1): ", "with every suite in one run, the gating verdict still ends the output"},
	}) {
		t.Run(c.suite, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"run", "--config", "../../harness.yaml", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight",
				"--progress", "none", "--suite", c.suite, "--run-id", "e", "--out", filepath.Join(dir, "runs"), "--reports", dir}, c.extra...)
			out, errs, code := runCLI(t, args...)
			if code > 1 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) < 3 {
				t.Fatalf("%d lines of output:\n%s", len(lines), out)
			}
			last := lines[len(lines)-3:]
			want := []string{c.verdict, "HTML report: " + filepath.Join(dir, "e.html"), "JSON report: " + filepath.Join(dir, "e.json")}
			if !strings.HasPrefix(last[0], want[0]) || last[1] != want[1] || last[2] != want[2] {
				t.Errorf("last three lines:\n%s\nwant\n%s…\n%s\n%s\n(%s)", strings.Join(last, "\n"), want[0], want[1], want[2], c.reason)
			}
		})
	}
}
