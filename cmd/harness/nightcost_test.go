package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
)

// TestReportCostIsTheRunsCost: a night of two answering models and an
// online judge against the fake, billed as its listing bills, where one
// model is served with the account's own provider key (BYOK: usage.cost is
// OpenRouter's fee, cost_details.upstream_inference_cost the provider's
// charge), one answer's stream breaks mid-way (an abandoned attempt that
// GET /generation prices at the run's end), and the night is interrupted
// (Ctrl-C) while a stream is open and resumed. The report states the
// night's whole cost (answers, judge votes, abandoned attempts), equal to
// the cent to what `harness runs` prints for the run, says it is a BYOK
// night with OpenRouter's charge and the provider's apart, and the
// Markdown says it in its first screen (issue 52: the report showed the
// answers' cost alone).
func TestReportCostIsTheRunsCost(t *testing.T) {
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	srv := nightCostServer(t)
	t.Setenv("OPENROUTER_API_KEY", "sk-test-key-12345678")
	t.Setenv("OPENROUTER_BASE_URL", srv.URL)
	runInterruptedThenResumed(t, runs, reports, modeltest.WatchReads(t))
	c := reportedCost(t, filepath.Join(reports, "n.json"))
	listed, _, code := runCLI(t, "runs", runs)
	m := regexp.MustCompile(`\$([0-9]+\.[0-9]{4})(\+\?)?`).FindStringSubmatch(listed)
	if code != 0 || m == nil {
		t.Fatalf("harness runs: exit %d, no cost:\n%s", code, listed)
	}
	t.Logf("report: %+v (BYOK %+v)\nharness runs: %s", *c, c.BYOK, strings.TrimSpace(listed))
	if got := fmt.Sprintf("%.4f", c.USD); got != m[1] {
		t.Errorf("the report's cost $%s is not harness runs' $%s", got, m[1])
	}
	checkCostHasEveryPart(t, c)
	checkBYOKSplit(t, c)
	checkReportsSayTheCost(t, reports, fmt.Sprintf("Cost of the night: $%s", m[1]))
}

// nightCostServer is the fake for TestReportCostIsTheRunsCost: it bills
// as its listing bills, serves vendor/b with BYOK usage, breaks the first
// answer to 01-b mid-stream (an abandoned attempt costing $0.125) and
// hangs the first answer to 02-b (generation gen-hung) after its first
// chunk.
func nightCostServer(t *testing.T) *modeltest.Server {
	var (
		mu               sync.Mutex
		broke, hung      bool
		srv              *modeltest.Server
		brokenID, hangID = "01-b", "02-b"
	)
	srv = modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		id := taskIDOf(req)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case req.Model == "vendor/a" && id == brokenID && !broke && len(req.ResponseFormat) == 0:
			broke = true
			cost := 0.125
			return modeltest.Reply{Content: "partial", ID: "gen-cut", FinishReason: "error", Usage: &modeltest.Usage{Cost: &cost},
				Error: &modeltest.ErrorObject{Code: 502, Message: "Provider disconnected mid-stream", Metadata: map[string]any{"error_type": "provider_unavailable"}}}
		case req.Model == "vendor/a" && id == hangID && !hung && len(req.ResponseFormat) == 0:
			hung = true
			return modeltest.Reply{Content: "a stream that never ends", ID: "gen-hung", Chunks: 4, SilentAfter: 1}
		}
		content := `{"answer": "x", "evidence": []}`
		if len(req.ResponseFormat) > 0 {
			content = `{"faithful": true, "quotes": [], "reason": "stated"}`
		}
		u := srv.Bill(req, content)
		if req.Model == "vendor/b" {
			fee, upstream := *u.Cost/20, *u.Cost
			u.BYOK, u.Cost, u.UpstreamCost = true, &fee, &upstream
		}
		return modeltest.Reply{Content: content, Usage: &u}
	})
	srv.SetModels(
		modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed"}},
		modeltest.ModelEntry{ID: "vendor/b", PromptPrice: "0.000003", CompletionPrice: "0.000015", SupportedParameters: []string{"temperature", "seed"}},
		modeltest.ModelEntry{ID: "vendor/j", PromptPrice: "0.000004", CompletionPrice: "0.00002", SupportedParameters: []string{"temperature", "seed", "response_format"}},
	)
	return srv
}

// runInterruptedThenResumed runs night "n", cancels it once the client
// has read the first chunk of the hanging stream and the error that
// breaks the other (wanting exit 2), and resumes it to the end.
// (Cancelled 200 ms after the fake had the hanging request, a loaded
// machine could cancel before the chunk was read, or before the broken
// stream had broken, and the archive had no generation id to price, or
// an attempt closed by the interrupt, unbilled, where the test wants one
// billed and abandoned.)
func runInterruptedThenResumed(t *testing.T, runs, reports string, reads *modeltest.Reads) {
	t.Helper()
	args := []string{"run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports, "--models", "vendor/a,vendor/b",
		"--judges", "vendor/j", "--run-id", "n", "--progress", "none", "--tasks", "01-a,01-b,02-a,02-b,03-a,03-c"}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		reads.Wait(t, 1, `"id":"gen-hung"`)
		reads.Wait(t, 1, `"finish_reason":"error"`)
		cancel()
	}()
	var out, errb bytes.Buffer
	if err := run(ctx, args, &out, &errb); exitCode(err) != 2 {
		t.Fatalf("the interrupted night: exit %d, want 2\n%s%s", exitCode(err), out.String(), errb.String())
	}
	runDir := filepath.Join(runs, "n")
	resumed, errs, code := runCLI(t, "run", "--resume", runDir, "--reports", reports, "--progress", "none")
	if code > 1 {
		t.Fatalf("resume: exit %d\n%s%s", code, resumed, errs)
	}
}

// reportedCost reads the JSON report at path and returns the cost it
// states, failing the test when it states none.
func reportedCost(t *testing.T, path string) *report.NightCost {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Cost == nil {
		t.Fatalf("the report states no cost:\n%s", b)
	}
	return rep.Cost
}

// checkCostHasEveryPart checks that the cost counts answers, judge votes
// and the abandoned attempts priced afterwards, and that its parts sum to
// the whole.
func checkCostHasEveryPart(t *testing.T, c *report.NightCost) {
	t.Helper()
	if c.Answers.Calls == 0 || c.JudgeVotes.Calls == 0 || c.JudgeVotes.USD <= 0 || c.Reconciled.Calls < 2 || c.Reconciled.USD != 0.125 {
		t.Errorf("the report's cost leaves out answers, judge votes or the abandoned attempts priced afterwards: %+v", *c)
	}
	sum := c.Answers.USD + c.FeedbackRounds.USD + c.JudgeVotes.USD + c.Superseded.USD + c.Reconciled.USD
	if fmt.Sprintf("%.6f", sum) != fmt.Sprintf("%.6f", c.USD) {
		t.Errorf("the parts sum to $%.6f, the whole is $%.6f", sum, c.USD)
	}
}

// checkBYOKSplit checks that a BYOK night states OpenRouter's charge and
// the provider's apart, summing to the whole.
func checkBYOKSplit(t *testing.T, c *report.NightCost) {
	t.Helper()
	if c.BYOK == nil || c.BYOK.ProviderUSD <= 0 || c.BYOK.OpenRouterUSD <= 0 || fmt.Sprintf("%.6f", c.BYOK.ProviderUSD+c.BYOK.OpenRouterUSD) != fmt.Sprintf("%.6f", c.USD) {
		t.Errorf("a BYOK night does not split OpenRouter's charge from the provider's: %+v", c.BYOK)
	}
}

// checkReportsSayTheCost checks that the Markdown report's first screen
// says want and that the night was BYOK, and that the HTML says want.
func checkReportsSayTheCost(t *testing.T, reports, want string) {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(reports, "n.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(md), "\n")
	firstScreen := strings.Join(lines[:min(len(lines), 25)], "\n")
	if !strings.Contains(firstScreen, want) || !strings.Contains(firstScreen, "A BYOK night") {
		t.Errorf("the Markdown's first screen does not say %q and that the night was BYOK:\n%s", want, firstScreen)
	}
	html, err := os.ReadFile(filepath.Join(reports, "n.html"))
	if err != nil || !strings.Contains(string(html), want) {
		t.Errorf("the HTML report does not say %q (%v)", want, err)
	}
}
