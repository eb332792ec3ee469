package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/projection/projectiontest"
)

// TestDeepProjectionIsAnInvalidAnswer is issue 45's done-when for the
// parser's depth edge: a model answering every request with a projection
// nested 65 deep (an empty innermost quote or item) panicked the parser in
// the score phase, in a feedback round's check and in a produce chain's
// hand-on, losing a paid run. Now each such answer is invalid with the
// parser's reason; the run, its rescore and a resume complete, and every
// request asked is archived.
func TestDeepProjectionIsAnInvalidAnswer(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		text   string
		args   []string
		reason string
	}{
		{"quotes-feedback", projectiontest.Quotes(65), []string{"--formats", "document,projection", "--feedback", "1", "--docs", "01,02", "--classes", "b,c"},
			"the check of a feedback round reads the answer during collection"},
		{"list-feedback", projectiontest.List(65), []string{"--formats", "document,projection", "--feedback", "1", "--docs", "01", "--classes", "b"},
			"lists 65 deep with an empty innermost item"},
		{"quotes-produce", projectiontest.Quotes(65), []string{"--suite", "produce", "--steps", "2", "--docs", "01,02"},
			"the produce chain parses step 1's projection to hand it on"},
		{"list-produce", projectiontest.List(65), []string{"--suite", "produce", "--docs", "01"},
			"class R answers in the projection, scored in the score phase"},
	}) {
		srv := modeltest.NewServer(t, modeltest.FixedDelay(0, c.text))
		srv.SetModels(modeltest.Entry("vendor/a"))
		dir := t.TempDir()
		args := append([]string{"run", "--config", "../../harness.yaml", "--models", "vendor/a", "--judges", "offline/judge",
			"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"), "--run-id", "d", "--progress", "none", "--base-url", srv.URL}, c.args...)
		_, errs, code := runCLI(t, args...)
		if code > 1 {
			t.Fatalf("%s: run: exit %d: %s", c.name, code, errs)
		}
		runDir := filepath.Join(dir, "runs", "d")
		files, _ := filepath.Glob(filepath.Join(runDir, "vendor_a", "*.json"))
		if len(files) != srv.Count() {
			t.Errorf("%s: %d transcripts archived for %d requests", c.name, len(files), srv.Count())
		}
		rep := mustRead(t, filepath.Join(dir, "reports", "d.html"))
		if !bytes.Contains(rep, []byte("blocks nest more than 64 deep")) {
			t.Errorf("%s: the report does not give the parser's reason", c.name)
		}
		if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir); code > 1 {
			t.Errorf("%s: rescore: exit %d: %s", c.name, code, errs)
		}
		before := srv.Count()
		if _, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none", "--base-url", srv.URL); code > 1 {
			t.Errorf("%s: resume: exit %d: %s", c.name, code, errs)
		}
		if srv.Count() != before {
			t.Errorf("%s: the resume of a finished run asked %d requests again", c.name, srv.Count()-before)
		}
		if strings.Contains(string(rep), "harness failed while reading") {
			t.Errorf("%s: the parser's own reason should be given, not a recovered panic", c.name)
		}
	}
}

// TestModelsFlagMakesARunInformational: --models with models other than
// the configuration's gave a gating PASS to anthropic/claude-2.1,
// openai/gpt-oss-20b and google/gemma-3-4b-it, though --models' help says
// "informational runs". The manifest records the configuration's models,
// and the report says why the run cannot gate.
func TestModelsFlagMakesARunInformational(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight",
		"--docs", "01", "--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"), "--run-id", "m", "--progress", "none")
	if code > 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if m := mustRead(t, filepath.Join(dir, "runs", "m", "run.json")); !bytes.Contains(m, []byte(`"configured_models": [`)) {
		t.Error("run.json does not record the configuration's models")
	}
	if rep := mustRead(t, filepath.Join(dir, "reports", "m.json")); !bytes.Contains(rep, []byte("--models replaced the configuration's models (anthropic/claude-opus-5")) {
		t.Error("the report does not say that --models made the run informational")
	}
}

// TestUnpricedCostStopsTheCap: a negative cost is refused, and without a
// price (--no-preflight) it counted $0 against --max-cost, so every
// answer went past a $0.001 cap. The run now stops at the first answer
// whose cost the cap cannot count, incomplete (exit 2), and says why.
func TestUnpricedCostStopsTheCap(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.OddUsage(`{"answer": "x", "evidence": []}`, `{"prompt_tokens": 10, "completion_tokens": 5, "cost": -1}`)
	})
	dir := t.TempDir()
	_, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--models", "vendor/a", "--judges", "offline/judge", "--no-preflight",
		"--max-cost", "0.001", "--per-model", "1", "--docs", "01,02,03", "--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"),
		"--run-id", "c", "--progress", "none", "--base-url", srv.URL)
	if code != 2 || !strings.Contains(errs, "1 answer reported no valid cost and no price is known") {
		t.Errorf("exit %d, stderr %q; want 2, the cap unable to count the cost", code, errs)
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("%d requests sent; want the run stopped after the first", n)
	}
}
