package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// The files under testdata/openrouter are bodies shaped as OpenRouter's API
// reference documents them (chat completion, usage accounting, reasoning
// tokens, errors and debugging, /models). Each is served by the fake server
// and decoded by the real client, openai-go included.

// serveFixture starts a fake that answers every chat request with the
// named fixture and the given status.
func serveFixture(t *testing.T, name string, status int) *modeltest.Server {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "openrouter", name))
	if err != nil {
		t.Fatal(err)
	}
	return modeltest.NewScripted(t, modeltest.Reply{Status: status, Body: string(b)})
}

// decoded is the part of a Response a fixture pins.
type decoded struct {
	Content, FinishReason, NativeFinishReason, Reasoning string
	Provider, ModelServed, ID                            string
	Prompt, Completion, Cached, Reasoned                 int64
	Cost                                                 string
	Exhausted                                            bool
}

func decodedOf(r *model.Response) decoded {
	u := r.Usage
	return decoded{
		Content: r.Content, FinishReason: r.FinishReason, NativeFinishReason: r.NativeFinishReason, Reasoning: r.Reasoning,
		Provider: r.Provider, ModelServed: r.ModelServed, ID: r.ID,
		Prompt: u.PromptTokens, Completion: u.CompletionTokens, Cached: u.CachedTokens, Reasoned: u.ReasoningTokens,
		Cost: fmtPtr(u.Cost), Exhausted: r.ReasoningExhausted(),
	}
}

func TestFixtureCompletions(t *testing.T) {
	tests := []struct {
		file   string
		want   decoded
		reason string
	}{
		{"completion_reasoning.json", decoded{
			Content: `{"answer": "41 species", "evidence": ["blk-5e6f.spn-01"]}`, FinishReason: "stop", NativeFinishReason: "end_turn",
			Reasoning: "The survey paragraph gives the species count directly.",
			Provider:  "Anthropic", ModelServed: "anthropic/claude-opus-4.8", ID: "gen-1767225600-Qx7vLm2NpR4sT8uW",
			Prompt: 5120, Completion: 180, Cached: 4096, Reasoned: 120, Cost: "0.02973",
		}, "a reasoning model's answer: reasoning, native reason, cached and reasoning tokens, cost, provider"},
		{"completion_reasoning_details_only.json", decoded{
			Content: `{"answer": "Paris and Marseille", "evidence": ["blk-4a90.spn-03"]}`, FinishReason: "stop", NativeFinishReason: "completed",
			Reasoning: "Located the two cities named in the itinerary block.\nChecked that no third city is mentioned.",
			Provider:  "OpenAI", ModelServed: "openai/gpt-5.6-sol", ID: "gen-1767225601-Hk3dVb9TyZ1aQw5E",
			Prompt: 3900, Completion: 640, Cached: 3840, Reasoned: 576, Cost: "0.011275",
		}, "reasoning null: the summary and text details are read, the encrypted one skipped"},
		{"completion_reasoning_exhausted.json", decoded{
			FinishReason: "length", NativeFinishReason: "max_output_tokens",
			Reasoning: "Comparing every span of the document against the instruction list, starting with",
			Provider:  "OpenAI", ModelServed: "openai/gpt-5.6-sol", ID: "gen-1767225602-Pm8nXc4RtY6uIo0L",
			Prompt: 9100, Completion: 4000, Reasoned: 4000, Cost: "0.051375", Exhausted: true,
		}, "null content at the token limit, every completion token spent reasoning"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.file, func(t *testing.T) {
			srv := serveFixture(t, tt.file, 200)
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if err != nil {
				t.Fatalf("Complete: %v (%s)", err, tt.reason)
			}
			if got := decodedOf(resp); got != tt.want {
				t.Errorf("decoded\n%+v\nwant\n%+v\n(%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func TestFixtureErrors(t *testing.T) {
	tests := []struct {
		file           string
		status         int
		code, provider string
		raw            string // exact, or a substring when rawPart
		rawPart        bool
		retried        bool // with one retry allowed, a second request is made
		fatal, context bool
		reason         string
	}{
		{"completion_error_in_200.json", 200, "502", "Google", `"status": "INTERNAL"`, true, true, false, false,
			"a failure after the 200 was sent: choice error with metadata, retried as a 502"},
		{"completion_empty_choices.json", 200, model.CodeNoChoices, "", "", false, true, false, false,
			"an empty choices array is not an answer; it is retried"},
		{"error_429_upstream_raw_string.json", 429, "429", "Google AI Studio",
			"google/gemini-3.1-pro-preview is temporarily rate-limited upstream. Please retry shortly, or add your own key to accumulate your rate limits: https://openrouter.ai/settings/integrations",
			false, true, false, false, "raw as a string is kept as its value"},
		{"error_502_upstream_raw_object.json", 502, "502", "Anthropic",
			`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, false, true, false, false,
			"raw as an object is kept as its JSON text"},
		{"error_400_context_openrouter.json", 400, "400", "", "", false, false, false, true,
			"OpenRouter's own context check fails the job only"},
		{"error_400_context_upstream_raw.json", 400, "400", "Anthropic", "prompt is too long: 215304 tokens > 200000 maximum", true, false, false, true,
			"the upstream's context complaint is found in metadata.raw"},
		{"error_400_context_openai_code.json", 400, "context_length_exceeded", "", "", false, false, false, true,
			"OpenAI's code names the failure whatever the wording"},
		{"error_400_bad_model.json", 400, "400", "", "", false, false, true, false,
			"any other 400 still stops the model"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.file, func(t *testing.T) {
			srv := serveFixture(t, tt.file, tt.status)
			c, _ := newClient(srv, model.WithMaxRetries(1))
			resp, err := c.Complete(context.Background(), request())
			var apiErr *model.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want an APIError (%s)", err, tt.reason)
			}
			if apiErr.Status != tt.status || apiErr.Code != tt.code || apiErr.ProviderName != tt.provider {
				t.Errorf("status, code, provider = %d, %q, %q; want %d, %q, %q (%s)",
					apiErr.Status, apiErr.Code, apiErr.ProviderName, tt.status, tt.code, tt.provider, tt.reason)
			}
			if tt.rawPart && !strings.Contains(apiErr.Raw, tt.raw) || !tt.rawPart && apiErr.Raw != tt.raw {
				t.Errorf("raw = %q, want %q (%s)", apiErr.Raw, tt.raw, tt.reason)
			}
			if want := map[bool]int{true: 2, false: 1}[tt.retried]; srv.Count() != want || apiErr.Retryable != tt.retried {
				t.Errorf("requests, retryable = %d, %v; want %d, %v (%s)", srv.Count(), apiErr.Retryable, want, tt.retried, tt.reason)
			}
			if errors.Is(err, model.ErrFatal) != tt.fatal || errors.Is(err, model.ErrContextLength) != tt.context {
				t.Errorf("fatal, context length = %v, %v; want %v, %v (%s)",
					errors.Is(err, model.ErrFatal), errors.Is(err, model.ErrContextLength), tt.fatal, tt.context, tt.reason)
			}
			if tt.provider != "" && !strings.Contains(err.Error(), "["+tt.provider+": ") {
				t.Errorf("error %q does not name the upstream (%s)", err, tt.reason)
			}
			if resp == nil || !json.Valid(resp.RawBody) {
				t.Errorf("no partial response with the body (%s)", tt.reason)
			}
		})
	}
}

func TestErrorInsideOKKeepsWhatWasRead(t *testing.T) {
	srv := serveFixture(t, "completion_error_in_200.json", 200)
	c, _ := newClient(srv, model.WithMaxRetries(0))
	resp, err := c.Complete(context.Background(), request())
	if err == nil {
		t.Fatal("want the error")
	}
	if resp.Provider != "Google" || resp.FinishReason != "error" || resp.NativeFinishReason != "error" || fmtPtr(resp.Usage.Cost) != "0.0064" {
		t.Errorf("partial response = %+v; a failed call still records provider, reasons and cost", resp)
	}
}

func TestFixtureModelsDeterminism(t *testing.T) {
	// The fake's /models builds its own body; this fixture is a real
	// listing's shape, extra fields and all, so it is served verbatim.
	b, err := os.ReadFile("testdata/openrouter/models.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/models" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	defer ts.Close()
	c := model.NewOpenRouter(model.WithBaseURL(ts.URL+"/api/v1"), model.WithAPIKey(testKey))
	infos, err := c.ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 4 || infos[1].ContextLength != 400000 || fmtPtr(infos[0].PromptPrice) != "1.5e-05" {
		t.Errorf("models = %+v", infos)
	}
	tests := []struct {
		id                string
		honoured, lacking []string
		reason            string
	}{
		{"anthropic/claude-opus-4.8", []string{"temperature"}, []string{"seed"}, "Claude takes no seed"},
		{"openai/gpt-5.6-sol", []string{"seed"}, []string{"temperature"}, "a reasoning GPT-5 takes no temperature"},
		{"google/gemini-3.1-pro-preview", []string{"temperature", "seed"}, nil, "Gemini 3 lists both"},
		{"openrouter/auto", []string{"temperature", "seed"}, nil, "an empty list says nothing, so nothing is lacking"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		i := slices.IndexFunc(infos, func(m model.ModelInfo) bool { return m.ID == tt.id })
		if i < 0 {
			t.Errorf("%s not listed", tt.id)
			continue
		}
		h, l := infos[i].Determinism()
		if !slices.Equal(h, tt.honoured) || !slices.Equal(l, tt.lacking) {
			t.Errorf("%s Determinism = %v, %v; want %v, %v (%s)", tt.id, h, l, tt.honoured, tt.lacking, tt.reason)
		}
	}
}

func TestModelInfoSupports(t *testing.T) {
	tests := []struct {
		params []string
		param  string
		want   bool
		reason string
	}{
		{[]string{"temperature", "seed"}, "seed", true, "a listed parameter is supported"},
		{[]string{"temperature"}, "seed", false, "an unlisted one is not"},
		{[]string{"Seed"}, "seed", false, "names are OpenRouter's, compared exactly"},
		{nil, "seed", true, "no list says nothing; everything counts as supported"},
		{[]string{}, "temperature", true, "an empty list too"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if got := (model.ModelInfo{SupportedParameters: tt.params}).Supports(tt.param); got != tt.want {
			t.Errorf("%v.Supports(%q) = %v, want %v (%s)", tt.params, tt.param, got, tt.want, tt.reason)
		}
	}
}

func TestReasoningExhausted(t *testing.T) {
	tests := []struct {
		name                string
		finish, content     string
		completion, reasons int64
		want                bool
		reason              string
	}{
		{"blank at limit", "length", " \n", 100, 0, true, "no answer at the limit, even without reported reasoning"},
		{"half reasoning", "length", `{"a":`, 100, 50, true, "reasoning_tokens ≥ ½·completion_tokens"},
		{"mostly answer", "length", `{"a":`, 100, 49, false, "an answer cut short by its own length"},
		{"no usage", "length", `{"a":`, 0, 0, false, "nothing says the budget went to reasoning"},
		{"stopped", "stop", "", 100, 100, false, "only finish_reason length counts"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		r := &model.Response{FinishReason: tt.finish, Content: tt.content,
			Usage: model.Usage{CompletionTokens: tt.completion, ReasoningTokens: tt.reasons}}
		if got := r.ReasoningExhausted(); got != tt.want {
			t.Errorf("%s: ReasoningExhausted = %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
	if (*model.Response)(nil).ReasoningExhausted() {
		t.Error("a nil response is not exhausted")
	}
}

// TestRequestWire pins the exact JSON of what OpenRouter's own request
// fields become: content parts with the cache breakpoint, provider and
// reasoning, and parameters left out when nil.
func TestRequestWire(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("ok"))
	c, _ := newClient(srv)
	req := model.Request{
		Model: "anthropic/claude-opus-4.8",
		Messages: []model.Message{
			{Role: "system", Parts: []model.Part{{Text: "You edit BendScript."}, {Text: "<document>", Cache: true}}},
			{Role: "developer", Parts: []model.Part{{Text: "Answer in JSON."}}},
			{Role: "user", Parts: []model.Part{{Text: "Task 01-a", Cache: true}, {Text: "Rename the title."}}},
			{Role: "assistant", Parts: []model.Part{{Text: "{}"}}},
			{Role: "user", Content: "Again."},
		},
		Temperature: ptr(0.0),
		Provider:    &model.ProviderPrefs{Order: []string{"anthropic"}, AllowFallbacks: ptr(false), RequireParameters: ptr(true)},
		Reasoning:   &model.ReasoningPrefs{MaxTokens: 2000, Exclude: true},
	}
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	const eph = `"cache_control":{"type":"ephemeral"}`
	want := map[string]string{
		"messages": `[` +
			`{"role":"system","content":[{"type":"text","text":"You edit BendScript."},{"type":"text","text":"<document>",` + eph + `}]},` +
			`{"role":"developer","content":[{"type":"text","text":"Answer in JSON."}]},` +
			`{"role":"user","content":[{"type":"text","text":"Task 01-a",` + eph + `},{"type":"text","text":"Rename the title."}]},` +
			`{"role":"assistant","content":[{"type":"text","text":"{}"}]},` +
			`{"role":"user","content":"Again."}]`,
		"provider":    `{"order":["anthropic"],"allow_fallbacks":false,"require_parameters":true}`,
		"reasoning":   `{"max_tokens":2000,"exclude":true}`,
		"temperature": `0`,
	}
	for k, w := range want {
		if !jsonEqual(t, body[k], []byte(w)) {
			t.Errorf("%s =\n%s\nwant\n%s", k, body[k], w)
		}
	}
	if _, ok := body["seed"]; ok {
		t.Errorf("seed sent although nil: %s", srv.Requests()[0].Body)
	}
	if got := srv.Requests()[0].Messages[0].Parts[1].CacheControl; string(got) != `{"type":"ephemeral"}` {
		t.Errorf("fake saw cache_control %s on the document part", got)
	}
}

func TestNilParametersNotSent(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("ok"))
	c, _ := newClient(srv)
	req := request()
	req.Temperature, req.Seed = nil, nil
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got := srv.Requests()[0]
	for _, k := range []string{`"temperature"`, `"seed"`, `"provider"`, `"reasoning"`} {
		if strings.Contains(string(got.Body), k) {
			t.Errorf("%s sent although unset: %s", k, got.Body)
		}
	}
}

// TestOddDiagnosticsKeepTheAnswer: reasoning and error metadata are
// diagnostics; a shape the docs do not promise there must not turn an
// answer into a malformed body (which would be retried and then lost).
func TestOddDiagnosticsKeepTheAnswer(t *testing.T) {
	const head = `{"id":"g","model":"m","choices":[{"finish_reason":"stop","message":{"content":"ok",`
	tests := []struct {
		name, body, reasoning, reason string
	}{
		{"reasoning object", head + `"reasoning":{"text":"x"}}}]}`, "", "a non-string reasoning is skipped"},
		{"details not a list", head + `"reasoning_details":"x"}}]}`, "", "details that are not a list are skipped"},
		{"odd detail", head + `"reasoning_details":[7,{"type":"reasoning.text","text":"kept"}]}}]}`, "kept", "one odd entry does not hide the others"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		srv := modeltest.NewScripted(t, modeltest.Reply{Body: tt.body})
		c, _ := newClient(srv)
		resp, err := c.Complete(context.Background(), request())
		if err != nil || resp.Content != "ok" || resp.Reasoning != tt.reasoning {
			t.Errorf("%s: err, content, reasoning = %v, %q, %q (%s)", tt.name, err, resp.Content, resp.Reasoning, tt.reason)
		}
	}
	srv := modeltest.NewScripted(t, modeltest.Reply{Status: 503, Body: `{"error":{"code":503,"message":"down","metadata":"not an object"}}`})
	c, _ := newClient(srv, model.WithMaxRetries(0))
	_, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "down" || apiErr.ProviderName != "" || apiErr.Raw != "" {
		t.Errorf("err = %#v; metadata that is not an object is ignored, the rest kept", apiErr)
	}
}

// TestFakeContextTooLong: the fake's helper must read as the real thing,
// or tests of the runner built on it would test nothing.
func TestFakeContextTooLong(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.ContextTooLong(200000, 236512), modeltest.Text("ok"))
	c, w := newClient(srv)
	_, err := c.Complete(context.Background(), request())
	if !errors.Is(err, model.ErrContextLength) || errors.Is(err, model.ErrFatal) || srv.Count() != 1 || len(w.all()) != 0 {
		t.Errorf("err = %v, requests = %d; want ErrContextLength, not fatal, not retried", err, srv.Count())
	}
}
