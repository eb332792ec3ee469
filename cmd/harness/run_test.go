package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

// TestPreflightFailsFast: a wrong model id stops the run before any chat
// request, and --dry-run stops after printing the size and cost.
func TestPreflightFailsFast(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	srv.SetModels(
		modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed", "max_tokens"}},
		modeltest.ModelEntry{ID: "vendor/noseed", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature"}},
	)
	t.Setenv("OPENROUTER_API_KEY", "sk-test-key-12345678")
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", t.TempDir(), "--models", "vendor/a,vendor/typo", "--judges", "offline/judge")
	if code != 2 || !strings.Contains(errs, `model "vendor/typo" is not in the provider's model list`) {
		t.Errorf("wrong model id: exit %d\n%s%s", code, out, errs)
	}
	// A model without seed is a valid model: a dry run says what will be
	// sent to it, and nothing is.
	out, errs, code = runCLI(t, "run", "--config", "../../harness.yaml", "--out", t.TempDir(), "--models", "vendor/noseed", "--judges", "offline/judge", "--dry-run")
	if code != 0 || !strings.Contains(out, "temperature sent; seed not supported, not sent") {
		t.Errorf("dry run of a model without seed: exit %d\n%s%s", code, out, errs)
	}
	out, errs, code = runCLI(t, "run", "--config", "../../harness.yaml", "--out", t.TempDir(), "--models", "vendor/a", "--judges", "offline/judge", "--dry-run")
	if code != 0 || !strings.Contains(out, "vendor/a") || !strings.Contains(out, "60 jobs") || !strings.Contains(out, "est. $") || !strings.Contains(out, "temperature and seed sent") {
		t.Errorf("dry run: exit %d\n%s%s", code, out, errs)
	}
	if n := srv.Count(); n != 0 {
		t.Errorf("%d chat requests before the run started", n)
	}
}

// TestRunAgainstFakeServer runs the whole pipeline through the real client
// against a local OpenAI-compatible server, then checks transcripts, the
// report, and that the key was written nowhere.
func TestRunAgainstFakeServer(t *testing.T) {
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text(`{"answer": "I do not know", "evidence": []}`)
	})
	srv.SetModels(modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed"}})
	const key = "sk-test-SECRET-key-abcdef"
	t.Setenv("OPENROUTER_API_KEY", key)
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports,
		"--models", "vendor/a", "--judges", "offline/judge", "--run-id", "fake", "--progress", "lines")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a model that answers nothing fails)\n%s%s", code, out, errs)
	}
	if n := srv.Count(); n != 60 {
		t.Errorf("%d chat requests, want 60", n)
	}
	trs, err := transcripttest.ReadAll(filepath.Join(runs, "fake"))
	if err != nil {
		t.Fatal(err)
	}
	if len(trs) < 60 {
		t.Errorf("%d transcripts, want at least 60", len(trs))
	}
	for _, ext := range []string{".json", ".md", ".html"} {
		if _, err := os.Stat(filepath.Join(reports, "fake"+ext)); err != nil {
			t.Errorf("report %s: %v", ext, err)
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("%s contains the API key", p)
			}
		}
		return nil
	})
	// Resuming a finished run requests nothing and writes the same report,
	// where the run wrote it: the manifest holds the reports directory.
	before, _ := os.ReadFile(filepath.Join(reports, "fake.json"))
	_, errs, code = runCLI(t, "run", "--resume", filepath.Join(runs, "fake"), "--progress", "none")
	if code != 1 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if n := srv.Count(); n != 60 {
		t.Errorf("resume of a finished run sent %d more requests", n-60)
	}
	after, _ := os.ReadFile(filepath.Join(reports, "fake.json"))
	if string(before) != string(after) {
		t.Error("the report changed when nothing was re-requested")
	}
}

// TestInterruptPrintsResume: cancelling a run (what Ctrl-C does) keeps the
// finished transcripts, leaves no partial file, exits 2 and prints the
// command that resumes it; the resume requests only what is missing.
func TestInterruptPrintsResume(t *testing.T) {
	ctx, interrupt := interruptAt(10)
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		return modeltest.Reply{Content: "{}", Delay: 30 * time.Millisecond}
	})
	srv.SetModels(modeltest.ModelEntry{ID: "vendor/a", SupportedParameters: []string{"temperature", "seed"}})
	t.Setenv("OPENROUTER_API_KEY", "sk-test-key-12345678")
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	err := run(ctx, []string{"run", "--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--models", "vendor/a",
		"--judges", "offline/judge", "--run-id", "x", "--progress", "none", "--per-model", "2"}, &out, &errb)
	runDir := filepath.Join(dir, "x")
	if exitCode(err) != 2 || !strings.Contains(errb.String(), "harness run --resume "+runDir) {
		t.Fatalf("exit %d, stderr %q", exitCode(err), errb.String())
	}
	done := answered(t, filepath.Join(runDir, "vendor_a", "*.json"))
	partial, _ := filepath.Glob(filepath.Join(runDir, "vendor_a", ".tmp-*"))
	if len(done) == 0 || len(done) >= 60 || len(partial) > 0 {
		t.Fatalf("%d transcripts and %d partial files after the interruption", len(done), len(partial))
	}
	all, _ := filepath.Glob(filepath.Join(runDir, "vendor_a", "*.json"))
	inFlight := len(all) - len(done) // archived as interrupted, their streams closed
	before := srv.Count()
	resumed, errs, code := runCLI(t, "run", "--resume", runDir, "--reports", dir, "--progress", "none")
	if code != 1 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if want := fmt.Sprintf("asked again: %d ", inFlight); inFlight > 0 && !strings.Contains(resumed, want) {
		t.Errorf("resume stdout %q; want %q: the jobs whose interrupted attempt may have been paid are named", resumed, want)
	}
	// The jobs the resume asked for are exactly those without a transcript.
	// (Counted as a set: a request of the interrupted run that reaches the
	// server late is for a job without a transcript, which the resume asks
	// for too.)
	kept := map[string]bool{}
	for _, f := range done {
		kept[strings.TrimSuffix(filepath.Base(f), ".r0.json")] = true
	}
	asked := map[string]bool{}
	for _, req := range srv.Requests()[before:] {
		id := taskIDOf(req)
		if kept[id] {
			t.Errorf("resume re-requested %s, which had a transcript", id)
		}
		asked[id] = true
	}
	if len(asked) != 60-len(done) {
		t.Errorf("resume asked for %d jobs, want %d", len(asked), 60-len(done))
	}
}

// taskIDOf finds the task id ("Task NN-x") in a request's last message.
func taskIDOf(req modeltest.ChatRequest) string {
	m := regexp.MustCompile(`Task ([0-9a-z-]+) \(`).FindStringSubmatch(req.Messages[len(req.Messages)-1].Content)
	if m == nil {
		return ""
	}
	return m[1]
}

// TestPanelJudging runs three models with the default cross-vendor panel
// on class A (the judged class): every answer is judged by the two other
// models and never by its own, and the votes reach the report.
func TestPanelJudging(t *testing.T) {
	// The key is TestMain's; the server is passed by --base-url.
	t.Parallel()
	isJudge := func(req modeltest.ChatRequest) bool {
		return strings.HasPrefix(req.Messages[0].Content, "You check whether an answer")
	}
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if isJudge(req) {
			return modeltest.Fenced(`{"faithful": true, "quotes": [], "reason": "cites real content"}`)
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	})
	models := []string{"vendor/a", "vendor/b", "vendor/c"}
	full := []string{"temperature", "seed", "response_format", "structured_outputs"}
	srv.SetModels(
		modeltest.ModelEntry{ID: "vendor/a", SupportedParameters: full},
		modeltest.ModelEntry{ID: "vendor/b", SupportedParameters: full},
		modeltest.ModelEntry{ID: "vendor/c", SupportedParameters: []string{"temperature", "seed"}},
	)
	dir := t.TempDir()
	out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--out", dir, "--reports", dir,
		"--models", strings.Join(models, ","), "--run-id", "p", "--progress", "none", "--classes", "a")
	// Without class B and C answers the gating verdict fails: exit 1.
	if code != 1 {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	// Structured output where the provider supports it, not where it does not.
	for _, req := range srv.Requests() {
		if !isJudge(req) {
			continue
		}
		if structured := len(req.ResponseFormat) > 0; structured != (req.Model != "vendor/c") {
			t.Fatalf("judge request to %s: structured output %v", req.Model, structured)
		}
	}
	trs, err := transcripttest.ReadAll(filepath.Join(dir, "p"))
	if err != nil {
		t.Fatal(err)
	}
	judged := map[string]int{}
	for _, tr := range trs {
		if tr.Kind != transcript.KindJudge {
			continue
		}
		if tr.Model == tr.Judged.Model {
			t.Errorf("%s judged its own answer to %s", tr.Model, tr.TaskID)
		}
		judged[tr.Judged.Model+"/"+tr.TaskID]++
	}
	if len(judged) != 60 {
		t.Errorf("%d class A answers judged, want 60 (3 models × 20)", len(judged))
	}
	for k, n := range judged {
		if n != 2 {
			t.Errorf("%s has %d judges, want 2", k, n)
		}
	}
	rep, _ := os.ReadFile(filepath.Join(dir, "p.json"))
	if !strings.Contains(string(rep), `"class_a_faithfulness": 1`) {
		t.Errorf("unanimous faithful votes did not give faithfulness 1:\n%.2000s", rep)
	}
}
