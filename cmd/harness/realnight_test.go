package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/transcript"
)

// TestEstimateMatchesTheBill: the preflight's estimate of the default
// gating run is within 20% of what the fake bills for it, with today's
// prices, reasoning per each model's policy, judge votes and cache reads
// and writes (issue 43: the estimate ignored reasoning, counted a vote as
// 200 tokens and never priced a cache write: several times low).
func TestEstimateMatchesTheBill(t *testing.T) {
	t.Parallel()
	r := exactGatingRun(t)
	m := regexp.MustCompile(`estimated cost: \$([0-9.]+) \(answers`).FindStringSubmatch(r.out)
	if m == nil {
		t.Fatalf("no estimate in the run's output:\n%s", r.out)
	}
	est, _ := strconv.ParseFloat(m[1], 64)
	t.Logf("estimate $%.2f, billed $%.2f (%+.0f%%)\n%s", est, r.billed, 100*(est-r.billed)/r.billed, r.out)
	if r.billed <= 0 || math.Abs(est-r.billed) > 0.2*r.billed {
		t.Errorf("estimate $%.2f, billed $%.2f: not within 20%%\n%s", est, r.billed, r.out)
	}
}

// TestRunJSONRecordsThePolicy: run.json records per model the policy
// sent (reasoning, temperature or why not, budgets) and the listing's
// limits, reasoning defaults and prices; every request carried it.
func TestRunJSONRecordsThePolicy(t *testing.T) {
	t.Parallel()
	r := exactGatingRun(t)
	var m transcript.Manifest
	if err := json.Unmarshal(r.manifest, &m); err != nil {
		t.Fatal(err)
	}
	for _, c := range tabletest.Cases(t, []struct {
		model, reasoning, temperature string
		maxOutput                     int
		reason                        string
	}{
		{"anthropic/claude-opus-5", `{"enabled":true}`, "Claude Opus 4.7 and later", 128000, "reasoning on as Opus 5's listing default, sent explicitly; temperature ignored, not sent"},
		{"openai/gpt-5.6-sol", `{"effort":"medium"}`, "not supported, not sent", 128000, "its listing's default effort sent explicitly; no temperature in its listing"},
		{"google/gemini-3.1-pro-preview", `{"effort":"high"}`, "Gemini 3's default", 65536, "mandatory reasoning at its default effort; temperature 1.0 as Google asks"},
	}) {
		p, ok := m.Policies[c.model]
		if !ok {
			t.Errorf("run.json has no policy for %s", c.model)
			continue
		}
		b, _ := json.Marshal(p.Sent.Reasoning)
		if string(b) != c.reasoning || !strings.Contains(p.Sent.TemperatureNote, c.temperature) || p.Listing.MaxCompletionTokens != c.maxOutput ||
			p.Sent.MaxOutput != c.maxOutput || p.Listing.Reasoning == nil || p.Sent.JudgeMaxTokens == 0 || p.Listing.PromptPrice == nil {
			t.Errorf("%s: policy %+v, listing %+v (%s)", c.model, p.Sent, p.Listing, c.reason)
		}
	}
	for _, s := range r.log {
		var body struct {
			Reasoning json.RawMessage `json:"reasoning"`
			SessionID string          `json:"session_id"`
			MaxTokens int             `json:"max_tokens"`
		}
		json.Unmarshal(s.req.Body, &body)
		want, _ := json.Marshal(m.Policies[s.req.Model].Sent.Reasoning)
		if string(body.Reasoning) != string(want) || body.MaxTokens == 0 || body.MaxTokens > m.Policies[s.req.Model].Sent.MaxOutput {
			t.Errorf("a request to %s carries reasoning %s and max_tokens %d; its policy sends %s within %d", s.req.Model, body.Reasoning, body.MaxTokens, want, m.Policies[s.req.Model].Sent.MaxOutput)
			break
		}
	}
}

// TestSizeBudgetsCappedByMaxOutput: a size run whose rungs exceed a
// model's maximum output: the preflight names the jobs it caps and those
// it does not send, and why; no request asks for more than the listed
// maximum (issue 43: the 512k rung sent max_tokens ≈ 181,000 to models
// whose maxima are 128,000 and 65,536, and the 404 stopped the model).
func TestSizeBudgetsCappedByMaxOutput(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	e := modeltest.Entry("vendor/short")
	e.ContextLength, e.MaxCompletionTokens, e.PromptPrice, e.CompletionPrice = 1000000, 10000, "0.000001", "0.000002"
	srv.SetModels(e)
	dir := t.TempDir()
	out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--suite", "size", "--rungs", "8k,128k", "--models", "vendor/short", "--judges", "offline/judge",
		"--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--run-id", "c", "--progress", "none")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (incomplete: requests not sent)\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "the answers' max_tokens capped from 32000 to the model's maximum output of 10000") ||
		!regexp.MustCompile(`vendor/short +128k-\S+: not sent: re-emitting the document needs about \d+ output tokens, above the model's maximum output of 10000`).MatchString(out) {
		t.Errorf("the preflight does not name the capped and the unsent jobs:\n%s", out)
	}
	for _, req := range srv.Requests() {
		if req.MaxTokens == nil || *req.MaxTokens > 10000 {
			t.Errorf("%s: max_tokens %v, above the listed maximum of 10000", taskIDOf(req), req.MaxTokens)
		}
		if strings.HasPrefix(taskIDOf(req), "128k") {
			t.Errorf("%s was sent although re-emitting it needs more than the maximum output", taskIDOf(req))
		}
	}
	if srv.Count() == 0 {
		t.Error("nothing was sent: the 8k rung fits once capped")
	}
}

// TestPreflightChecksTheKey: --dry-run with a key whose remaining credit
// is below the estimate exits 2 naming both; a key the API refuses exits
// 2 in the preflight; neither sends a paid request.
func TestPreflightChecksTheKey(t *testing.T) {
	t.Parallel()
	low := 0.10
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		key    modeltest.Key
		code   int
		want   []string
		reason string
	}{
		{"credit below the estimate", modeltest.Key{LimitRemaining: &low, Limit: new(5.0)}, 2,
			[]string{"exceeds the key's remaining credit $0.10", "the estimated cost $"}, "a run the key cannot pay for is refused before it starts"},
		{"bad key", modeltest.Key{Invalid: true}, 2,
			[]string{"refused the key", "HTTP 401"}, "a bad key is found before any request, not as 180 failed jobs"},
		{"byok", modeltest.Key{BYOKUsage: 3}, 0,
			[]string{"(BYOK, $3.00): OpenRouter tries them first, ahead of any provider pin"}, "a BYOK key overrides provider pins: said before the run"},
		{"no /key", modeltest.Key{Missing: true}, 0,
			[]string{"the API has no /key: the key and its credit are not checked"}, "a server that is not OpenRouter's may lack /key: said, not fatal"},
	}) {
		srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
		srv.SetKey(c.key)
		out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--out", filepath.Join(t.TempDir(), "runs"), "--dry-run")
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (%s)\n%s%s", c.name, code, c.code, c.reason, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out+errs, w) {
				t.Errorf("%s: stderr lacks %q (%s):\n%s", c.name, w, c.reason, errs)
			}
		}
		if srv.Count() != 0 {
			t.Errorf("%s: %d chat requests sent", c.name, srv.Count())
		}
	}
}

// TestPreflightReadsTheAccount: the preflight refuses a model this
// account cannot route (/models/user) and a provider pin that names no
// endpoint of its model, and notes what the listing says of the future: a
// model expiring within 30 days, a newer model of a gating family.
func TestPreflightReadsTheAccount(t *testing.T) {
	t.Parallel()
	soon := time.Now().UTC().AddDate(0, 0, 10).Format(time.DateOnly)
	for _, c := range tabletest.Cases(t, []struct {
		name     string
		settings string
		change   func(*modeltest.Server)
		code     int
		want     []string
		reason   string
	}{
		{"not routable", "", func(s *modeltest.Server) {
			e := modeltest.Entry("openai/gpt-5.6-sol")
			e.NotForUser = true
			s.SetModel(e)
		}, 2, []string{`model "openai/gpt-5.6-sol" is listed, but this account cannot route it`}, "a model the account cannot route would fail every request"},
		{"pin names no endpoint", "model_settings:\n  anthropic/claude-opus-5:\n    provider: {only: [nosuch], require_parameters: true}\n", nil, 2,
			[]string{`the pinned provider "nosuch" is not among its endpoints (anthropic)`}, "a pin that matches no provider would route nowhere"},
		{"expiring and superseded", "", func(s *modeltest.Server) {
			e := modeltest.Entry("google/gemini-3.1-pro-preview")
			e.ExpirationDate = soon
			s.SetModel(e)
			s.SetModel(modeltest.Entry("anthropic/claude-opus-5.5"))
			s.SetModel(modeltest.Entry("anthropic/claude-haiku-6"))
		}, 0, []string{"warning: google/gemini-3.1-pro-preview expires on " + soon, "note: the listing has a newer model of anthropic/claude-opus-5's family: anthropic/claude-opus-5.5 ("},
			"a preview's end and a vendor's new frontier model are told before the night, not after"},
	}) {
		srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
		if c.change != nil {
			c.change(srv)
		}
		dir := t.TempDir()
		cfg := filepath.Join(dir, "harness.yaml")
		if err := os.WriteFile(cfg, []byte(c.settings), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--config", cfg, "--out", filepath.Join(dir, "runs"), "--dry-run")
		if code != c.code {
			t.Errorf("%s: exit %d, want %d (%s)\n%s%s", c.name, code, c.code, c.reason, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(out+errs, w) {
				t.Errorf("%s: the output lacks %q (%s):\n%s%s", c.name, w, c.reason, out, errs)
			}
		}
		if strings.Contains(out, "claude-haiku-6") {
			t.Errorf("%s: a tier-down model is noted as a newer gating model:\n%s", c.name, out)
		}
	}
}

// TestEveryReportNamesTheAPIRoot: the JSON, Markdown, HTML and JUnit
// reports and `harness runs` name the API root the run was asked through
// (§8.6: only OpenRouter gates, so where the answers came from is part of
// the result).
func TestEveryReportNamesTheAPIRoot(t *testing.T) {
	t.Parallel()
	r := exactGatingRun(t)
	var m transcript.Manifest
	if err := json.Unmarshal(r.manifest, &m); err != nil {
		t.Fatal(err)
	}
	root := m.Inputs.BaseURL
	if root == "" {
		t.Fatal("run.json records no base_url")
	}
	for _, name := range []string{"g.json", "g.md", "g.html", "g.junit.xml"} {
		b, err := os.ReadFile(filepath.Join(exactGating.dir, name))
		if err != nil || !strings.Contains(string(b), root) {
			t.Errorf("%s does not name the API root %s (%v)", name, root, err)
		}
	}
	out, errs, code := runCLI(t, "runs", exactGating.dir)
	if code != 0 || !strings.Contains(out, root) {
		t.Errorf("harness runs does not name the API root %s: exit %d\n%s%s", root, code, out, errs)
	}
}

// TestJudgeVotesHaveABudgetWithoutPreflight: with --no-preflight no
// listing is read and no policy decided, and judge votes were sent with
// no output budget at all (issue 43: "judges are sent with no output
// budget"); they now carry pipeline.NoPolicyJudgeTokens.
func TestJudgeVotesHaveABudgetWithoutPreflight(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if req.Model == "vendor/judge" {
			return modeltest.Text(`{"faithful": true, "reason": "x"}`)
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	})
	dir := t.TempDir()
	_, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--models", "vendor/a", "--judges", "vendor/judge", "--no-preflight",
		"--docs", "01", "--classes", "a", "--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"),
		"--run-id", "j", "--progress", "none", "--base-url", srv.URL)
	if code > 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	votes := 0
	for _, req := range srv.Requests() {
		if req.Model != "vendor/judge" {
			continue
		}
		votes++
		if req.MaxTokens == nil || *req.MaxTokens != pipeline.NoPolicyJudgeTokens {
			t.Errorf("a judge vote was sent with max_tokens %v; want %d", req.MaxTokens, pipeline.NoPolicyJudgeTokens)
		}
	}
	if votes == 0 {
		t.Fatal("no judge vote was asked")
	}
}

// TestDelegateBudgetsFollowTheRung: the delegate suite on a large rung
// asks each whole-document answer for an output budget that fits the
// document it re-emits, as the size suite does: with the configured
// 32,000 tokens, every answer on the 128k rung (about 43,000 tokens of
// document) was cut off and read as drift.
func TestDelegateBudgetsFollowTheRung(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	e := modeltest.Entry("vendor/long")
	e.ContextLength, e.MaxCompletionTokens, e.PromptPrice, e.CompletionPrice = 1000000, 200000, "0.000001", "0.000002"
	srv.SetModels(e)
	dir := t.TempDir()
	out, errs, code := runCLI(t, "run", "--base-url", srv.URL, "--suite", "delegate", "--rungs", "128k", "--round-trips", "1", "--models", "vendor/long", "--judges", "offline/judge",
		"--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--run-id", "d", "--progress", "none")
	if code == 2 {
		t.Fatalf("exit 2\n%s%s", out, errs)
	}
	sent := 0
	for _, req := range srv.Requests() {
		if !strings.HasPrefix(taskIDOf(req), "128k") {
			continue
		}
		sent++
		if req.MaxTokens == nil || *req.MaxTokens <= 40000 {
			t.Errorf("%s: max_tokens %s; want a budget that fits re-emitting the 128k document (over 40,000 tokens)", taskIDOf(req), maxTokensOf(req))
		}
	}
	if sent == 0 {
		t.Fatalf("no request of the 128k rung was sent\n%s%s", out, errs)
	}
}

// maxTokensOf is a request's max_tokens as text, "none" when unset.
func maxTokensOf(req modeltest.ChatRequest) string {
	if req.MaxTokens == nil {
		return "none"
	}
	return fmt.Sprint(*req.MaxTokens)
}
