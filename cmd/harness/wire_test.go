package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// The wire as recorded (issue 52): nights against a fake that answers as
// the live API was recorded answering (model/testdata/recorded/README.md).

// recordedModels are a night's models whose served names were recorded:
// Anthropic under its canonical slug, version first; OpenAI and Google
// with a date after the id.
var recordedModels = []string{"anthropic/claude-opus-4.7", "openai/gpt-5.5", "google/gemini-3.1-pro-preview"}

// recordedConfig writes to dir the shipped harness.yaml with
// recordedModels as its models and srv's API root among the gating roots,
// and returns its path.
func recordedConfig(t *testing.T, dir string, srv *modeltest.Server) string {
	t.Helper()
	yaml, err := os.ReadFile("../../harness.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(yaml), "\ngating:\n", "\ngating:\n  api_roots: ["+srv.URL+"]\n", 1)
	y = strings.Replace(y, "  - anthropic/claude-opus-5\n  - openai/gpt-5.6-sol\n  - google/gemini-3.1-pro-preview\n",
		"  - "+strings.Join(recordedModels, "\n  - ")+"\n", 1)
	cfg := filepath.Join(dir, "harness.yaml")
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// wireNight runs the gating suite's class B answers of two documents with
// recordedModels (configured, so the run is theirs) against srv, and
// returns the report's eligibility reasons and run.json.
func wireNight(t *testing.T, srv *modeltest.Server, extra ...string) ([]string, *transcript.Manifest, string) {
	t.Helper()
	dir, rep, md := recordedNight(t, srv, "w", "b", extra...)
	m, err := transcript.ReadManifest(filepath.Join(dir, "w"))
	if err != nil {
		t.Fatal(err)
	}
	return rep.Eligibility.Reasons, m, md
}

// nightReport is what the recorded nights' tests read of a report.
type nightReport struct {
	Eligibility struct {
		Reasons []string `json:"reasons"`
	} `json:"eligibility"`
	Warnings []json.RawMessage `json:"warnings"`
}

// recordedNight runs run id's answers of class of two documents of the
// gating suite with recordedModels (recordedConfig) against srv, and
// returns its directory (runs and reports), its JSON report and its
// Markdown.
func recordedNight(t *testing.T, srv *modeltest.Server, id, class string, extra ...string) (string, nightReport, string) {
	t.Helper()
	dir := t.TempDir()
	cfg := recordedConfig(t, dir, srv)
	args := append([]string{"run", "--base-url", srv.URL, "--config", cfg, "--out", dir, "--reports", dir, "--run-id", id,
		"--progress", "none", "--docs", "01,02", "--classes", class}, extra...)
	out, errs, _ := runCLI(t, args...)
	var rep nightReport
	b, err := os.ReadFile(filepath.Join(dir, id+".json"))
	if err != nil {
		t.Fatalf("no report: %v\n%s%s", err, out, errs)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(dir, id+".md"))
	return dir, rep, string(md)
}

// recordedServer is a fake whose listing gives recordedModels their
// recorded canonical slugs, and which serves every answer exactly, under
// the name served returns for the request (the listing's slug, as
// recorded, when served returns "").
func recordedServer(t *testing.T, served func(req modeltest.ChatRequest) string) *modeltest.Server {
	set := tasktest.Set(t)
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		rep := exactReply(set, req)
		rep.Model = served(req)
		return rep
	})
	var entries []modeltest.ModelEntry
	for _, id := range recordedModels {
		entries = append(entries, modeltest.Entry(id))
	}
	srv.SetModels(entries...)
	srv.ServeAsRecorded()
	return srv
}

// servedOtherReason is the eligibility reason of answers served by another model.
func servedOtherReason(reasons []string) string {
	for _, r := range reasons {
		if strings.Contains(r, "served by another model") {
			return r
		}
	}
	return ""
}

// TestRecordedServedNamesAreTheModelsAsked: a night whose answers come
// back under the names recorded from the live API (Claude as
// anthropic/claude-4.7-opus-20260416, GPT-5.5 and Gemini with a date) is
// not made ineligible by who served it: the listing's canonical_slug,
// recorded in run.json, names them; a fallback to x-ai/grok-4 for the
// Google model is another model and is; and without a listing
// (--no-preflight) the reason says the check was made on the id alone.
func TestRecordedServedNamesAreTheModelsAsked(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		served func(req modeltest.ChatRequest) string
		flags  []string
		want   string // "" when no served reason is wanted, else a word it must hold
		reason string
	}{
		{"as recorded", func(modeltest.ChatRequest) string { return "" }, nil, "",
			"the canonical slugs served are the models asked: the night is not ineligible by who served it"},
		{"grok fallback", func(req modeltest.ChatRequest) string {
			if strings.HasPrefix(req.Model, "google/") {
				return "x-ai/grok-4"
			}
			return ""
		}, nil, "x-ai/grok-4 for google/gemini-3.1-pro-preview", "a real fallback is another model, whatever the listing"},
		{"no listing", func(modeltest.ChatRequest) string { return "" }, []string{"--no-preflight"}, "checked on the asked id alone",
			"without a listing Claude's slug is not the id asked, and the reason says the check had the id alone"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := recordedServer(t, c.served)
			reasons, m, md := wireNight(t, srv, c.flags...)
			got := servedOtherReason(reasons)
			switch {
			case c.want == "" && got != "":
				t.Errorf("eligibility says %q (%s)", got, c.reason)
			case c.want != "" && !strings.Contains(got, c.want):
				t.Errorf("eligibility reasons %q lack %q (%s)", reasons, c.want, c.reason)
			}
			served := map[string]bool{}
			for _, r := range srv.Requests() {
				served[r.Model] = true
			}
			if len(served) != len(recordedModels) {
				t.Fatalf("requests to %v, want the three models", served)
			}
			if c.flags != nil {
				if !strings.Contains(md, "checked on the asked id alone: no listing gave the model's canonical slug") {
					t.Errorf("the Markdown report's served warning does not say the check was on the id alone:\n%s", md)
				}
				return
			}
			if p := m.Policies["anthropic/claude-opus-4.7"]; p.Listing.CanonicalSlug != "anthropic/claude-4.7-opus-20260416" {
				t.Errorf("run.json records canonical slug %q for Claude", p.Listing.CanonicalSlug)
			}
			if m.Wire == nil || m.Wire.Headers[http.CanonicalHeaderKey(model.MetadataHeader)] != "enabled" || m.Wire.Session != model.SessionScheme {
				t.Errorf("run.json wire %+v: want the metadata header and the session scheme", m.Wire)
			}
		})
	}
}

// errorNight runs class B and C answers of ten documents with one model
// against a fake answering with reply, without a preflight, and returns
// the run's transcripts and the report's warning kinds (none when no
// report was written).
func errorNight(t *testing.T, dir string, reply func(call int, req modeltest.ChatRequest) (modeltest.Reply, bool)) (*modeltest.Server, []*transcript.Transcript, []string) {
	t.Helper()
	set := tasktest.Set(t)
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		if rep, ok := reply(call, req); ok {
			return rep
		}
		return exactReply(set, req)
	})
	out, errs, _ := runCLI(t, "run", "--base-url", srv.URL, "--models", "vendor/x", "--no-preflight", "--config", "../../harness.yaml",
		"--out", dir, "--reports", dir, "--run-id", "e", "--progress", "none", "--docs", "01,02,03,04,05,06,07,08,09,10", "--classes", "b,c")
	files, _ := filepath.Glob(filepath.Join(dir, "e", transcript.Slug("vendor/x"), "*.json"))
	var trs []*transcript.Transcript
	for _, f := range files {
		tr, err := transcript.Read(f)
		if err != nil {
			t.Fatalf("%s: %v\n%s%s", f, err, out, errs)
		}
		trs = append(trs, tr)
	}
	var rep struct {
		Warnings []struct {
			Kind string `json:"kind"`
		} `json:"warnings"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "e.json"))
	if err != nil {
		// A run stopped out of credit writes none: it is resumed.
		t.Logf("no report: %v\n%s%s", err, out, errs)
		return srv, trs, nil
	}
	json.Unmarshal(b, &rep)
	var kinds []string
	for _, w := range rep.Warnings {
		kinds = append(kinds, w.Kind)
	}
	return srv, trs, kinds
}

// TestRecordedErrorsAtTheirScope: against the fake, errors recorded from
// the live API end what they are about. One parameters 404 (whose
// availability says not retryable) fails its job and the model goes on;
// one 402 "can only afford 0" stops the model within the requests
// already in flight; a "Token limit reached" right after a length finish
// is an answer cut off, not a failure.
func TestRecordedErrorsAtTheirScope(t *testing.T) {
	t.Parallel()
	t.Run("parameters 404", testParameters404FailsOneJob)
	t.Run("afford 0", testAffordZeroStopsTheModel)
	t.Run("token limit after length", testTokenLimitAfterLengthIsACut)
}

// errorNightJobs is how many jobs an errorNight has: ten documents,
// classes B and C.
const errorNightJobs = 20

// testParameters404FailsOneJob: a parameters 404 whose availability says
// not retryable fails its job as the request's error, and the model goes
// on to send every other job.
func testParameters404FailsOneJob(t *testing.T) {
	t.Parallel()
	srv, trs, _ := errorNight(t, t.TempDir(), func(call int, _ modeltest.ChatRequest) (modeltest.Reply, bool) {
		return modeltest.Reply{Status: 404, Body: `{"error":{"code":404,"message":"No endpoints found that can handle the requested parameters.","availability":{"code":"no_endpoints","retryable":false}},"user_id":"user_abc"}`}, call == 1
	})
	failed, fatal := 0, 0
	for _, tr := range trs {
		if tr.Error != nil {
			failed++
			if tr.Error.Fatal || tr.Error.Scope != "request" {
				fatal++
			}
		}
	}
	if len(trs) != errorNightJobs || failed != 1 || fatal != 0 || srv.Count() != errorNightJobs {
		t.Errorf("%d transcripts, %d failed (%d not as the request's), %d requests: want %d, 1, 0, %d (one job fails, the model goes on)", len(trs), failed, fatal, srv.Count(), errorNightJobs, errorNightJobs)
	}
}

// testAffordZeroStopsTheModel: a 402 "can only afford 0" fails its job
// out of credit and stops the model within the requests in flight.
//
// The requests in flight beside the 402 are held until the harness shows
// it has read the 402: a job archived as skipped (a job is skipped only
// once the model's fatal failure is noted). A harness that goes on
// sending shows it by a request past the first six, which releases them
// too. Answering them after a fixed sleep instead let a loaded machine
// read one of them before the 402 and start a seventh job, as it may
// (CI failed so).
func testAffordZeroStopsTheModel(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	go func() {
		for {
			select {
			case <-release:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if skippedTranscript(dir) {
				free()
			}
		}
	}()
	t.Cleanup(free)
	srv, trs, _ := errorNight(t, dir, func(call int, _ modeltest.ChatRequest) (modeltest.Reply, bool) {
		switch {
		case call == 1:
			return modeltest.Reply{Status: 402, Body: `{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 32000 tokens, but can only afford 0. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher monthly limit","code":402,"metadata":{"provider_name":null}},"user_id":"user_abc"}`}, true
		case call > 6:
			free()
		default:
			select {
			case <-release:
			case <-time.After(time.Minute): // a harness that neither sends nor skips: the count below says so
			}
		}
		return modeltest.Reply{}, false
	})
	outOfCredit := 0
	for _, tr := range trs {
		if tr.Error != nil && tr.Error.Resumable() == "out of credit" && len(tr.Attempts) > 0 {
			outOfCredit++
		}
	}
	if srv.Count() > 6 || srv.Count() >= errorNightJobs || outOfCredit != 1 {
		t.Errorf("%d requests sent, %d out of credit: want at most the 6 in flight per model, one out of credit, and the rest not sent", srv.Count(), outOfCredit)
	}
}

// skippedTranscript reports whether run "e" below dir has archived a
// job as skipped after its model's fatal failure.
func skippedTranscript(dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "e", transcript.Slug("vendor/x"), "*.json"))
	for _, f := range files {
		if tr, err := transcript.Read(f); err == nil && tr.Error != nil && tr.Error.Code == transcript.CodeSkipped {
			return true
		}
	}
	return false
}

// testTokenLimitAfterLengthIsACut: a "Token limit reached" right after a
// length finish is an answer cut off with its reasoning kept and warned
// of, not a failure.
func testTokenLimitAfterLengthIsACut(t *testing.T) {
	t.Parallel()
	_, trs, kinds := errorNight(t, t.TempDir(), func(call int, _ modeltest.ChatRequest) (modeltest.Reply, bool) {
		return modeltest.TokenLimitAfterLength("vendor/x"), call == 1
	})
	cut, failed := 0, 0
	for _, tr := range trs {
		if tr.Error != nil {
			failed++
		} else if tr.Response.FinishReason == "length" && tr.Response.NativeFinishReason == "length" && tr.Response.Reasoning == "First I read the title" {
			cut++
		}
	}
	found := false
	for _, k := range kinds {
		found = found || k == "cut_off_reasoning"
	}
	if cut != 1 || failed != 0 || !found {
		t.Errorf("%d answers cut off with their reasoning kept, %d failed, warnings %v: want 1, 0 and cut_off_reasoning", cut, failed, kinds)
	}
}
