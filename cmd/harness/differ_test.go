package main

import (
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestCompareSaysTheProviderChanged: two runs of one model that
// OpenRouter served by different providers (the response names the
// provider; the fake server sets it) compare with a note saying so. Runs
// that differed in what they asked said nothing of it (issue 33).
func TestCompareSaysTheProviderChanged(t *testing.T) {
	t.Parallel()
	set := tasktest.Set(t)
	dir := t.TempDir()
	for _, run := range tabletest.Cases(t, []struct{ id, provider, reason string }{
		{"p1", "Anthropic", "the first run, served by one provider"},
		{"p2", "Amazon Bedrock", "the same model served by another provider, the change compare must note"},
	}) {
		srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
			rep := exactReply(set, req)
			rep.Provider = run.provider
			return rep
		})
		srv.SetModels(modeltest.Entry("anthropic/claude-opus-4.8"))
		if out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--models", "anthropic/claude-opus-4.8",
			"--judges", "offline/judge", "--docs", "01,02", "--out", dir, "--reports", dir, "--run-id", run.id, "--progress", "none"); code > 1 {
			t.Fatalf("%s: exit %d\n%s%s", run.id, code, out, errs)
		}
	}
	out, errs, code := runCLI(t, "compare", filepath.Join(dir, "p1.json"), filepath.Join(dir, "p2.json"))
	if code != 0 || !strings.Contains(out, "differs: anthropic/claude-opus-4.8 was served by Anthropic in p1 and by Amazon Bedrock in p2") {
		t.Errorf("exit %d; want the provider change in the notes:\n%s%s", code, out, errs)
	}
}

// TestCompareRefusesAManifest: compare of a run's manifest (run.json, not
// a report) exits 2 in one line naming the file; it compared it and
// printed "metric versions differ (, 2)" (issue 33).
func TestCompareRefusesAManifest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, errs, code := runBuilt(t, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight", "--progress", "none",
		"--docs", "01", "--run-id", "m", "--out", dir, "--reports", dir); code > 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	manifest := filepath.Join(dir, "m", "run.json")
	out, errs, code := runCLI(t, "compare", manifest, filepath.Join(dir, "m.json"))
	if code != 2 || out != "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 || !strings.Contains(errs, manifest+": not a report but a run's manifest") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line naming the manifest", code, out, errs)
	}
}
