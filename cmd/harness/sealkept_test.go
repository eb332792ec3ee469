package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/transcript"
)

// sealedRun makes a sealed offline run in dir and returns its directory
// and its reports' directory.
func sealedRun(t *testing.T, dir, id string) (runDir, reports string) {
	t.Helper()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	_, errs, code := runCLI(t, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight",
		"--config", "../../harness.yaml", "--docs", "01", "--classes", "b", "--out", runs, "--reports", reports, "--run-id", id, "--progress", "none")
	if code > 1 { // 1: a partial run never passes
		t.Fatalf("sealed run: exit %d: %s", code, errs)
	}
	return filepath.Join(runs, id), reports
}

// sealedUnpricedRun makes a sealed run of vendor/a against a fake whose
// answers report no usage.cost, so that `runs --reconcile` has attempts
// to price (an offline run has none: issue 56's reconcile then asks
// nothing and writes nothing), and returns its directory and the fake.
func sealedUnpricedRun(t *testing.T, dir, id string) (string, *modeltest.Server) {
	t.Helper()
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Reply{Content: "{}", Usage: &modeltest.Usage{PromptTokens: 100, CompletionTokens: 10}}
	})
	if code, errs := onlineRun(t, srv, dir, "--run-id", id, "--docs", "01", "--classes", "b", "--config", "../../harness.yaml"); code > 1 {
		t.Fatalf("sealed run: exit %d: %s", code, errs)
	}
	return filepath.Join(dir, "runs", id), srv
}

// TestReconcileKeepsTheSeal: `harness runs --reconcile`, which the docs
// recommend, wrote reconciled.json into a sealed run, and rescore and
// resume then refused the archive as tampered (issue 53). Without the key
// it now refuses and changes nothing; with it, it verifies the seal and
// re-seals the run, recording the reconcile, so that rescore and resume
// verify it.
func TestReconcileKeepsTheSeal(t *testing.T) {
	dir := t.TempDir()
	key := "a seal key for the test"
	t.Setenv(pipeline.SealKeyEnv, key)
	runDir, srv := sealedUnpricedRun(t, dir, "s")
	seal := string(mustRead(t, filepath.Join(runDir, pipeline.SealName)))

	t.Setenv(pipeline.SealKeyEnv, "")
	if _, errs, code := runCLI(t, "runs", "--reconcile", runDir, "--base-url", srv.URL); code != 2 || !strings.Contains(errs, "the run is sealed, and HARNESS_SEAL_KEY is not set") {
		t.Errorf("reconcile of a sealed run without the key: exit %d, %q; want 2 and why", code, errs)
	}
	if _, err := os.Stat(filepath.Join(runDir, pipeline.ReconcileName)); err == nil || string(mustRead(t, filepath.Join(runDir, pipeline.SealName))) != seal {
		t.Error("the refused reconcile changed the sealed run")
	}
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", srv.URL, "--progress", "none"); code != 2 || !strings.Contains(errs, "the run is sealed") {
		t.Errorf("resume of a sealed run without the key: exit %d, %q; want 2: it could not re-seal", code, errs)
	}

	t.Setenv(pipeline.SealKeyEnv, key)
	out, errs, code := runCLI(t, "runs", "--reconcile", runDir, "--base-url", srv.URL)
	if code != 0 || !strings.Contains(out, "re-sealed: sealed with HARNESS_SEAL_KEY over") {
		t.Fatalf("reconcile with the key: exit %d, %q, %q; want the run re-sealed", code, out, errs)
	}
	var s struct {
		ReconciledAt string `json:"reconciled_at"`
	}
	if json.Unmarshal(mustRead(t, filepath.Join(runDir, pipeline.SealName)), &s); s.ReconciledAt == "" {
		t.Error("the seal does not record the reconcile")
	}
	out, errs, code = runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir)
	if code > 1 || !strings.Contains(string(mustRead(t, filepath.Join(dir, "re", "s.json"))), "re-sealed at "+s.ReconciledAt) {
		t.Errorf("rescore of the reconciled run with the key: exit %d, %q; want it verified, the reconcile said", code, errs)
	}
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", srv.URL, "--progress", "none"); code > 1 {
		t.Errorf("resume of the reconciled run with the key: exit %d, %q; want it verified", code, errs)
	}
	if got, err := pipeline.CheckSeal(runDir, []byte(key)); err != nil {
		t.Errorf("after the resume: %q, %v", got, err)
	}
}

// TestRemovedSealIsSaid: deleting seal.json made a sealed run read as
// "unsealed", with no word (issue 53). run.json records that the run was
// sealed: with the key a rescore or resume refuses (exit 2) naming the
// removed seal; without it the rescore's first line and the report's
// first lines say so. run.json's record deleted too, the report the run
// recorded still says it was sealed.
func TestRemovedSealIsSaid(t *testing.T) {
	dir := t.TempDir()
	key := "a seal key for the test"
	t.Setenv(pipeline.SealKeyEnv, key)
	runDir, _ := sealedRun(t, dir, "s")
	if m, err := transcript.ReadManifest(runDir); err != nil || m.SealedAt == nil {
		t.Fatalf("run.json does not record the seal: %v", err)
	}
	if err := os.Remove(filepath.Join(runDir, pipeline.SealName)); err != nil {
		t.Fatal(err)
	}
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir); code != 2 || !strings.Contains(errs, "the seal was removed") {
		t.Errorf("rescore with the key of a run whose seal is gone: exit %d, %q; want 2, the removed seal named", code, errs)
	}
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none"); code != 2 || !strings.Contains(errs, "the seal was removed") {
		t.Errorf("resume with the key of a run whose seal is gone: exit %d, %q; want 2, the removed seal named", code, errs)
	}
	t.Setenv(pipeline.SealKeyEnv, "")
	out, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir)
	if code > 1 {
		t.Fatalf("rescore without the key: exit %d: %s", code, errs)
	}
	if first, _, _ := strings.Cut(out, "\n"); !strings.Contains(first, "THE SEAL WAS REMOVED") {
		t.Errorf("first line %q; want the removed seal said", first)
	}
	md := strings.SplitN(string(mustRead(t, filepath.Join(dir, "re", "s.md"))), "\n", 5)
	if !strings.Contains(strings.Join(md[:4], "\n"), "**WARNING: THE SEAL WAS REMOVED") {
		t.Errorf("the Markdown report's first lines %q do not say the seal was removed", md[:4])
	}

	// run.json's record removed as well: the report the run recorded
	// still says it was sealed.
	b := mustRead(t, filepath.Join(runDir, transcript.ManifestName))
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "sealed_at")
	b, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(runDir, transcript.ManifestName), b, 0o644)
	t.Setenv(pipeline.SealKeyEnv, key)
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re2"), runDir); code != 2 || !strings.Contains(errs, "the seal was removed") {
		t.Errorf("rescore with the key, seal and run.json's record gone: exit %d, %q; want 2, the removed seal named", code, errs)
	}
}
