package main

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestMaxCostStopsAtTheCapAndResumes: with --max-cost below the dry run's
// estimate, the run stops before its cap, no request started that its
// estimate said would cross it (exit 2, the --resume command printed),
// and a resume with the printed cap, the known cost plus the estimate of
// the work left, finishes the run without asking any request twice
// (counted at the fake server). Issue 23: there was no spending cap;
// issue 46: the cap was overshot ($0.5245 against $0.50), and the printed
// cap doubled the old one whatever was left, so that each printed command
// stopped again.
func TestMaxCostStopsAtTheCapAndResumes(t *testing.T) {
	// The key is TestMain's; the server is passed by --base-url, to the
	// run and to its resume.
	t.Parallel()
	const perCall = 0.01
	cost := perCall
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Reply{Content: `{"answer": "I do not know", "evidence": []}`, Usage: &modeltest.Usage{PromptTokens: 1000, CompletionTokens: 100, Cost: &cost}}
	})
	srv.SetModels(modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed"}})
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	args := []string{"run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--out", runs, "--reports", reports,
		"--models", "vendor/a", "--judges", "offline/judge", "--progress", "none", "--per-model", "1", "--global", "1"}

	out, errs, code := runCLI(t, append(args, "--dry-run", "--max-cost", "0.25")...)
	if code != 0 || !strings.Contains(out, "spending cap: $0.25 against the estimate of $") || !strings.Contains(out, "the estimate reaches the cap") {
		t.Fatalf("dry run with a cap below the estimate: exit %d\n%s%s", code, out, errs)
	}

	const maxCost = 0.25
	out, errs, code = runCLI(t, append(args, "--run-id", "capped", "--max-cost", "0.25")...)
	if code != 2 {
		t.Fatalf("capped run: exit %d, want 2\n%s%s", code, out, errs)
	}
	paid := float64(srv.Count()) * perCall
	if paid < maxCost/2 || paid > maxCost {
		t.Errorf("capped run paid $%.2f (%d requests), want no more than the cap $%.2f (and not stopped long before it)", paid, srv.Count(), maxCost)
	}
	resume := "harness run --resume " + filepath.Join(runs, "capped")
	m := regexp.MustCompile(`known cost against the cap of \$0\.2500; .* The work left is estimated at \$([0-9.]+): .*\n  .* --max-cost ([0-9.]+)\n`).FindStringSubmatch(errs)
	if !strings.Contains(errs, "spending cap reached") || !strings.Contains(errs, resume) || m == nil {
		t.Fatalf("capped run: stderr does not say the cap was reached, the work left, or how to resume (%q):\n%s", resume, errs)
	}
	left, _ := strconv.ParseFloat(m[1], 64)
	suggested, _ := strconv.ParseFloat(m[2], 64)
	if want := math.Ceil((paid+left)*100) / 100; suggested != want {
		t.Errorf("the printed cap is $%v, want the known cost $%.2f plus the estimate left $%v, rounded up to the cent: $%v", suggested, paid, left, want)
	}
	if _, err := os.Stat(filepath.Join(reports, "capped.json")); err == nil {
		t.Errorf("a capped run wrote a report; it is incomplete and resumable")
	}
	first := srv.Count()
	t.Logf("capped after %d requests; %s", first, strings.TrimSpace(errs))

	out, errs, code = runCLI(t, "run", "--resume", filepath.Join(runs, "capped"), "--base-url", srv.URL, "--max-cost", m[2], "--progress", "none")
	if code != 1 {
		t.Fatalf("resume with the printed cap: exit %d, want 1 (the run finishes; the model answers nothing)\n%s%s", code, out, errs)
	}
	if n := srv.Count(); n != 60 {
		t.Errorf("%d requests in all (%d before the resume), want 60: a request was paid twice or never", n, first)
	}
	seen := map[string]int{}
	for _, req := range srv.Requests() {
		seen[taskIDOf(req)]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("task %s asked %d times", id, n)
		}
	}
}

// TestDryRunEstimatesJudgeVotes: the dry run's estimate includes the judge
// votes, priced at the judge's listing (issue 23: it left judges out); a
// judge that answers nothing is not listed as an answering model with 0
// jobs (issue 46).
func TestDryRunEstimatesJudgeVotes(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	srv.SetModels(
		modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed"}},
		modeltest.ModelEntry{ID: "vendor/j", PromptPrice: "0.000004", CompletionPrice: "0.00002", SupportedParameters: []string{"temperature", "seed", "response_format"}},
	)
	t.Setenv("OPENROUTER_API_KEY", "sk-test-key-12345678")
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", t.TempDir(), "--models", "vendor/a", "--judges", "vendor/j", "--dry-run")
	if code != 0 || !strings.Contains(out, " 20 judge votes") || !strings.Contains(out, "judge votes $0.") || strings.Contains(out, "judges not included") {
		t.Errorf("dry run with an online judge: exit %d\n%s%s", code, out, errs)
	}
	if regexp.MustCompile(`vendor/j +0 jobs`).MatchString(out) {
		t.Errorf("the judge is listed as an answering model with 0 jobs:\n%s", out)
	}
	if srv.Count() != 0 {
		t.Errorf("a dry run sent %d requests", srv.Count())
	}
}

// TestKeyFromDotEnv: the key may come from .env in the working directory;
// the environment wins over it (the preflight's model listing carries the
// key it used).
func TestKeyFromDotEnv(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	srv.SetModels(modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001"})
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	dir := t.TempDir()
	writeFile(t, dir, ".env", "OPENROUTER_API_KEY='sk-or-from-dotenv'\n")
	t.Chdir(dir)
	for _, c := range tabletest.Cases(t, []struct{ env, want, reason string }{
		{"", "Bearer sk-or-from-dotenv", "with no key in the environment, the one in .env is used"},
		{"sk-or-from-env", "Bearer sk-or-from-env", "the environment wins over .env"},
	}) {
		t.Setenv("OPENROUTER_API_KEY", c.env)
		out, errs, code := runCLI(t, "run", "--models", "vendor/a", "--judges", "offline/judge", "--dry-run")
		hs := srv.ModelsRequests()
		if code != 0 || len(hs) == 0 || hs[len(hs)-1].Get("Authorization") != c.want {
			t.Errorf("environment %q: exit %d, want the listing asked with %q (%s)\n%s%s", c.env, code, c.want, c.reason, out, errs)
		}
	}
}

// TestCalibrateKeyFromDotEnv: judge calibrate reads the key as run does,
// from .env when the environment has none; it read the environment alone
// (noticed in issue 36's move of the CLI out of pipeline).
func TestCalibrateKeyFromDotEnv(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"faithful": true, "quotes": [], "reason": "fine"}`))
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	t.Setenv("OPENROUTER_API_KEY", "")
	dir := t.TempDir()
	writeFile(t, dir, ".env", "OPENROUTER_API_KEY=sk-or-from-dotenv\n")
	t.Chdir(dir)
	_, errs, code := runCLI(t, "judge", "calibrate", "--models", "vendor/judge")
	reqs := srv.Requests()
	if code > 1 || len(reqs) == 0 || reqs[0].Header.Get("Authorization") != "Bearer sk-or-from-dotenv" {
		t.Fatalf("exit %d, %d requests; want them sent with the key in .env\n%s", code, len(reqs), errs)
	}
}

// TestOfflineRunIgnoresDotEnvFolder: an offline run (and a calibration of
// the offline judge) reads no key, so a .env that is a folder (a Python
// virtualenv's) cannot stop it; an online run still reads it, and says
// why it cannot (review of issue 36: both exited 2 on it).
func TestOfflineRunIgnoresDotEnvFolder(t *testing.T) {
	t.Setenv("OPENROUTER_API_KEY", "")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".env"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if _, errs, code := runCLI(t, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--docs", "1", "--progress", "none"); code > 1 {
		t.Errorf("offline run: exit %d, want a verdict (0 or 1): %s", code, errs)
	}
	if _, errs, code := runCLI(t, "judge", "calibrate", "--models", "offline/judge"); code > 1 {
		t.Errorf("calibrating the offline judge: exit %d: %s", code, errs)
	}
	_, errs, code := runCLI(t, "run", "--models", "vendor/a", "--judges", "offline/judge", "--dry-run", "--base-url", "http://127.0.0.1:1")
	if code != 2 || !strings.Contains(errs, ".env") {
		t.Errorf("online run: exit %d, %q; want 2 naming .env", code, errs)
	}
}
