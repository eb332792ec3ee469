package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
)

// TestSizeSuiteRescore: rescore rebuilds the size suite's ladder from the
// manifest (suite and rungs) and reproduces the report.
func TestSizeSuiteRescore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reports := filepath.Join(dir, "reports")
	if _, errs, code := runCLI(t, "run", "--suite", "size", "--rungs", "8k,32k", "--models", "offline/noisy", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--run-id", "s", "--out", filepath.Join(dir, "runs"), "--reports", reports); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(filepath.Join(reports, "s.json"))
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), filepath.Join(dir, "runs", "s")); code != 0 {
		t.Fatalf("rescore: exit %d: %s", code, errs)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "re", "s.json"))
	if !bytes.Equal(report.StripRescoredAt(again), b) {
		t.Error("rescore, rebuilding the size suite from the manifest, does not reproduce the report")
	}
}

// TestSizeSuiteFitsTheContext: the size suite's output budget follows the
// rung's size, and a request that cannot fit the model's context (as its
// listing gives it) is never sent: it is archived as not sent and counted
// as an API error, not drift.
func TestSizeSuiteFitsTheContext(t *testing.T) {
	// The key is TestMain's; the server is passed by --base-url.
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	e := modeltest.Entry("vendor/small")
	e.ContextLength = 90000
	srv.SetModels(e)
	dir := t.TempDir()
	out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--suite", "size", "--rungs", "8k,128k", "--models", "vendor/small", "--judges", "offline/judge",
		"--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--run-id", "c", "--progress", "none")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (incomplete: requests not sent)\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "128k.bend.json") || !strings.Contains(out, "est.") {
		t.Errorf("the preflight does not estimate per rung:\n%s", out)
	}
	for _, req := range srv.Requests() {
		id := taskIDOf(req)
		if strings.HasPrefix(id, "128k") {
			t.Errorf("%s was sent although it cannot fit a 90,000-token context", id)
		}
		if req.MaxTokens == nil || *req.MaxTokens < 32000 {
			t.Errorf("%s: max_tokens %v, want at least the configured 32000", id, req.MaxTokens)
		}
	}
	if n := srv.Count(); n != 6 {
		t.Errorf("%d requests, want the 6 of the 8k rung", n)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "c", "vendor_small", "128k-end-02-b.r0.json"))
	if !strings.Contains(string(b), `"code": "not_sent"`) || !strings.Contains(string(b), "exceed the model's context of 90000 tokens") {
		t.Errorf("the 128k transcript does not say why it was not sent:\n%.600s", b)
	}
}
