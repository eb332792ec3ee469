package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// seen is one chat request as the fake server saw it.
type seen struct {
	req             modeltest.ChatRequest
	arrived, served time.Time
}

// exactRun is what the tests read of the exact gating run.
type exactRun struct {
	log      []seen // the requests, in the order they were served
	report   []byte // the JSON report
	manifest []byte // run.json
	code     int    // the exit code
	out      string // the run's stdout (the preflight's estimate)
	billed   float64
}

// exactGating is the default gating run (harness run with the checked-in
// harness.yaml) against a local server whose /models lists the gating
// families' real parameters (Claude without seed, GPT-5 without
// temperature, Gemini with both), sizes and prices, every answer exact
// and every vote faithful, billed as today's OpenRouter bills
// (modeltest's Billing: reasoning, cache reads and writes), its root
// listed in gating.api_roots (§8.6: it stands for OpenRouter), for the
// tests that read it:
// TestGatingRunAgainstRealListing reads its requests,
// TestGatingVerdictCatchesLosses its report.
var exactGating made[exactRun]

// exactGatingRun returns the exact gating run, making it first.
func exactGatingRun(t *testing.T) exactRun {
	t.Helper()
	return exactGating.get(t, "the exact gating run", func(dir string) (exactRun, error) {
		set := tasktest.Set(t)
		var mu sync.Mutex
		var r exactRun
		var srv *modeltest.Server
		srv = modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
			s := seen{req: req, arrived: time.Now()}
			rep := exactReply(set, req)
			u := srv.Bill(req, rep.Content)
			rep.Usage = &u
			time.Sleep(5 * time.Millisecond)
			s.served = time.Now()
			mu.Lock()
			r.log = append(r.log, s)
			mu.Unlock()
			return rep
		})
		srv.SetModels(modeltest.DefaultModels()...)
		yaml, err := os.ReadFile("../../harness.yaml")
		if err != nil {
			return r, err
		}
		cfg := filepath.Join(dir, "harness.yaml")
		yaml = []byte(strings.Replace(string(yaml), "\ngating:\n", "\ngating:\n  api_roots: ["+srv.URL+"]\n", 1))
		if err := os.WriteFile(cfg, yaml, 0o644); err != nil {
			return r, err
		}
		out, errs, code := runBuilt(t, "run", "--base-url", srv.URL, "--config", cfg, "--out", dir, "--reports", dir, "--run-id", "g", "--progress", "none")
		r.code, r.out, r.billed = code, out, srv.Billed()
		if r.report, err = os.ReadFile(filepath.Join(dir, "g.json")); err != nil {
			return r, fmt.Errorf("exit %d, no report: %v\n%s%s", code, err, out, errs)
		}
		r.manifest, err = os.ReadFile(filepath.Join(dir, "g", "run.json"))
		return r, err
	})
}

// exactReply is what an exact model says: the reference answer and its
// evidence (class A), the expected document (B, C), and a faithful vote
// (a judge).
func exactReply(set *task.Set, req modeltest.ChatRequest) modeltest.Reply {
	switch id := taskIDOf(req); {
	case strings.HasPrefix(req.Messages[0].Content, "You check whether an answer"):
		return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "stated"}`)
	case strings.HasSuffix(id, "-a"):
		tk := set.Task(id)
		b, _ := json.Marshal(map[string]any{"answer": tk.ReferenceAnswer, "evidence": tk.Evidence})
		return modeltest.Text(string(b))
	default:
		return modeltest.Text(string(bend.Marshal(set.Task(id).Expected)))
	}
}

// TestGatingRunAgainstRealListing is `make harness` (harness run with the
// checked-in harness.yaml) against a local server whose /models lists the
// gating families' real parameters (exactGatingRun). All 180 answers and
// 120 judge votes are asked; no request carries a parameter its model does
// not support; the report records per model what was not sent. Each
// document's B and C tasks start after its A task was answered and share
// its prefix byte for byte; Anthropic's document part carries
// cache_control.
func TestGatingRunAgainstRealListing(t *testing.T) {
	// The key is TestMain's; the server is passed by --base-url.
	t.Parallel()
	r := exactGatingRun(t)
	log, report := r.log, r.report
	if r.code != 0 && r.code != 1 {
		t.Fatalf("exit %d", r.code)
	}
	answers, votes := 0, 0
	type group struct{ model, doc string }
	byDoc := map[group][]seen{}
	for _, s := range log {
		r := s.req
		judge := strings.HasPrefix(r.Messages[0].Content, "You check whether an answer")
		if judge {
			votes++
		} else {
			answers++
			id := taskIDOf(r)
			byDoc[group{r.Model, id[:2]}] = append(byDoc[group{r.Model, id[:2]}], s)
		}
		listedParameters(t, r, judge)
	}
	if answers != 180 || votes != 120 {
		t.Errorf("%d answers and %d votes asked; want 180 and 120", answers, votes)
	}
	for g, ss := range byDoc {
		if len(ss) != 3 {
			t.Errorf("%s document %s: %d requests, want 3", g.model, g.doc, len(ss))
			continue
		}
		var first seen
		for _, s := range ss {
			if strings.HasSuffix(taskIDOf(s.req), "-a") {
				first = s
			}
		}
		for _, s := range ss {
			if s.req.Messages[0].Content != first.req.Messages[0].Content || prefix(s.req) != prefix(first.req) {
				t.Errorf("%s document %s: the prefix of %s differs from the class A task's", g.model, g.doc, taskIDOf(s.req))
			}
			if s.req.Call != first.req.Call && !s.arrived.After(first.served) {
				t.Errorf("%s document %s: %s started before the class A answer was served", g.model, g.doc, taskIDOf(s.req))
			}
		}
	}
	var rep struct {
		Results map[string]struct {
			Determinism struct{ Honoured, Lacking []string } `json:"determinism"`
		} `json:"results"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatal(err)
	}
	for m, want := range map[string]string{"anthropic/claude-opus-5": "temperature,seed", "openai/gpt-5.6-sol": "temperature", "google/gemini-3.1-pro-preview": ""} {
		if got := strings.Join(rep.Results[m].Determinism.Lacking, ","); got != want {
			t.Errorf("%s: the report records %q as not supported, want %q", m, got, want)
		}
	}
}

// listedParameters: a request carries only the parameters its model's
// listing supports, and an answer request to Anthropic marks its document
// part, and only it, with cache_control.
func listedParameters(t *testing.T, r modeltest.ChatRequest, judge bool) {
	t.Helper()
	switch {
	case strings.HasPrefix(r.Model, "anthropic/") && r.Seed != nil:
		t.Errorf("a request to %s carries seed %d, which its listing does not support", r.Model, *r.Seed)
	case strings.HasPrefix(r.Model, "anthropic/") && r.Temperature != nil:
		t.Errorf("a request to %s carries temperature, which Claude Opus 4.7 and later ignore", r.Model)
	case strings.HasPrefix(r.Model, "google/") && r.Temperature != nil && *r.Temperature != 1:
		t.Errorf("a request to %s carries temperature %v, not Gemini 3's default 1.0", r.Model, *r.Temperature)
	case strings.HasPrefix(r.Model, "openai/") && r.Temperature != nil:
		t.Errorf("a request to %s carries temperature, which its listing does not support", r.Model)
	case strings.HasPrefix(r.Model, "google/") && (r.Temperature == nil || r.Seed == nil):
		t.Errorf("a request to %s lacks temperature or seed, which its listing supports", r.Model)
	}
	if !judge && strings.HasPrefix(r.Model, "anthropic/") {
		u := r.Messages[len(r.Messages)-1]
		if len(u.Parts) != 2 || len(u.Parts[0].CacheControl) == 0 || len(u.Parts[1].CacheControl) != 0 {
			t.Errorf("an answer request to %s does not mark the document part (and only it) with cache_control: %s", r.Model, r.Body)
		}
	}
}

// prefix is the cacheable part of an answer request's user message: the
// document, up to the task.
func prefix(r modeltest.ChatRequest) string {
	u := r.Messages[len(r.Messages)-1].Content
	if i := strings.Index(u, "\n\nTask "); i >= 0 {
		return u[:i]
	}
	return u
}
