package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestResealedArchiveIsNotSilent: the transcript hashes can be recomputed
// with the harness's own packages, and an edited, re-hashed archive
// rescored FAIL → PASS with no word (issue 45). A run sealed with
// HARNESS_SEAL_KEY refuses such a rescore; without the key the rescore
// says the seal was not verified, and its first line says that the
// verdict differs from the one the run recorded. An unsealed run's report
// says it is unsealed.
func TestResealedArchiveIsNotSilent(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(pipeline.SealKeyEnv, "a seal key for the test")
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	_, errs, code := runCLI(t, "run", "--models", "offline/oracle,offline/identity", "--judges", "offline/judge", "--no-preflight",
		"--config", "../../harness.yaml", "--docs", "01", "--classes", "b", "--out", runs, "--reports", reports, "--run-id", "s", "--progress", "none")
	if code != 1 {
		t.Fatalf("run: exit %d, want 1 (identity fails): %s", code, errs)
	}
	runDir := filepath.Join(runs, "s")
	if rep := string(mustRead(t, filepath.Join(reports, "s.json"))); !strings.Contains(rep, `"integrity": "sealed with HARNESS_SEAL_KEY over `) {
		t.Error("the sealed run's report does not say it is sealed")
	}
	// Edit identity's answer into the oracle's, and re-hash it.
	oracle, err := transcript.Read(filepath.Join(runDir, "offline_oracle", "01-b.r0.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(runDir, "offline_identity", "01-b.r0.json")
	tr, err := transcript.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	tr.Response.Content = oracle.Response.Content
	if err := transcript.Write(runDir, tr); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir); code != 2 || !strings.Contains(errs, "seal does not verify") {
		t.Errorf("rescore of an edited sealed run: exit %d, stderr %q; want 2, the seal broken", code, errs)
	}
	// A resume with the key would seal the edited archive as the run's own.
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none"); code != 2 || !strings.Contains(errs, "seal does not verify") {
		t.Errorf("resume of an edited sealed run: exit %d, stderr %q; want 2, the seal broken", code, errs)
	}
	t.Setenv(pipeline.SealKeyEnv, "")
	out, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir)
	if code > 1 {
		t.Fatalf("rescore without the key: exit %d: %s", code, errs)
	}
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "rescore: differs from the run's recorded report (s.json): failures 2 → 1") || !strings.Contains(first, pipeline.SealedUnchecked) {
		t.Errorf("first line %q; want the verdict's change and the seal unverified", first)
	}
	// A run without the key is unsealed, and says so.
	_, errs, code = runCLI(t, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight",
		"--config", "../../harness.yaml", "--docs", "01", "--classes", "b", "--out", runs, "--reports", reports, "--run-id", "u", "--progress", "none")
	if code > 1 {
		t.Fatalf("unsealed run: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(runs, "u", pipeline.SealName)); err == nil {
		t.Error("a run without the key wrote a seal")
	}
	if md := string(mustRead(t, filepath.Join(reports, "u.md"))); !strings.Contains(md, "Archive: unsealed: the transcript hashes detect accidental change") {
		t.Error("the unsealed run's Markdown does not say it is unsealed")
	}
}

// TestStoppedResumeKeepsTheSeal: a resume with the key verifies the seal,
// then adds transcripts; when it stops before the end (out of credit
// here, as an interrupt or the cap would), it re-seals what it leaves, so
// that the next resume with the key finishes the run instead of refusing
// its own archive as tampered.
func TestStoppedResumeKeepsTheSeal(t *testing.T) {
	t.Setenv(pipeline.SealKeyEnv, "a seal key for the test")
	set := tasktest.Set(t)
	var phase atomic.Int32
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		switch {
		case taskIDOf(req) != "01-b":
		case phase.Load() == 0:
			return modeltest.Reply{Status: 404, Body: `{"error":{"code":404,"message":"No endpoints found that can handle the requested parameters.","availability":{"code":"no_endpoints","retryable":false}}}`}
		case phase.Load() == 1:
			return modeltest.Reply{Status: 402, Body: `{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 32000 tokens, but can only afford 0.","code":402}}`}
		}
		return exactReply(set, req)
	})
	dir := t.TempDir()
	runDir := filepath.Join(dir, "s")
	_, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--models", "vendor/x", "--no-preflight", "--config", "../../harness.yaml",
		"--out", dir, "--reports", dir, "--run-id", "s", "--progress", "none", "--docs", "01,02", "--classes", "b")
	if _, err := os.Stat(filepath.Join(runDir, pipeline.SealName)); err != nil {
		t.Fatalf("the first run (exit %d) left no seal: %v\n%s", code, err, errs)
	}
	phase.Store(1)
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", srv.URL, "--progress", "none"); code != 2 || !strings.Contains(errs, "out of credit") {
		t.Fatalf("resume out of credit: exit %d, want 2:\n%s", code, errs)
	}
	if _, err := pipeline.CheckSeal(runDir, []byte("a seal key for the test")); err != nil {
		t.Errorf("after a resume that stopped: %v", err)
	}
	phase.Store(2)
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", srv.URL, "--progress", "none"); code > 1 {
		t.Errorf("the next resume with the key: exit %d, want it to finish the run:\n%s", code, errs)
	}
}
