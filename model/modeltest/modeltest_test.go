package modeltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// post sends a minimal chat request and returns status, headers and body.
func post(t *testing.T, srv *modeltest.Server, model string) (int, http.Header, string) {
	t.Helper()
	body := `{"model":"` + model + `","messages":[{"role":"user","content":"hi"}],"temperature":0,"seed":1}`
	res, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header, string(b)
}

func TestScriptRepeatsLastReply(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.RateLimited(2), modeltest.Text("a"), modeltest.Text("b"))
	var got []string
	for range 4 {
		status, h, body := post(t, srv, "m")
		var c struct {
			Choices []struct {
				Message struct{ Content string }
			}
		}
		json.Unmarshal([]byte(body), &c)
		s := http.StatusText(status)
		if len(c.Choices) > 0 {
			s = c.Choices[0].Message.Content
		}
		if ra := h.Get("Retry-After"); ra != "" {
			s += " after " + ra
		}
		got = append(got, s)
	}
	want := []string{"Too Many Requests after 2", "a", "b", "b"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("replies = %q, want %q: the script is followed, then its last reply repeats", got, want)
	}
}

func TestCompletionBody(t *testing.T) {
	cost := 0.25
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "x", Provider: "P", Usage: &modeltest.Usage{PromptTokens: 3, CompletionTokens: 4, CachedTokens: 1, ReasoningTokens: 2, Cost: &cost}})
	_, _, body := post(t, srv, "vendor/m")
	want := `{"id":"gen-1","object":"chat.completion","created":1700000000,"model":"vendor/m","provider":"P",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"x"},"finish_reason":"stop"}],` +
		`"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7,"prompt_tokens_details":{"cached_tokens":1},` +
		`"completion_tokens_details":{"reasoning_tokens":2},"cost":0.25}}`
	if body != want {
		t.Errorf("body =\n%s\nwant\n%s", body, want)
	}
}

func TestErrorBodies(t *testing.T) {
	tests := []struct {
		reply      modeltest.Reply
		wantStatus int
		wantBody   string
		reason     string
	}{
		{modeltest.StatusError(503), 503, `{"error":{"code":503,"message":"Service Unavailable"}}`, "OpenRouter's error shape"},
		{modeltest.Reply{Status: 502}, 502, `{"error":{"code":502,"message":"Bad Gateway"}}`, "a bare status still gets an error body"},
		{modeltest.NotJSON(), 200, `<html><body>502 Bad Gateway</body></html>`, "Body is sent verbatim"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		srv := modeltest.NewScripted(t, tt.reply)
		status, _, body := post(t, srv, "m")
		if status != tt.wantStatus || body != tt.wantBody {
			t.Errorf("got %d %s, want %d %s (%s)", status, body, tt.wantStatus, tt.wantBody, tt.reason)
		}
	}
}

func TestRecordsRequests(t *testing.T) {
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text(req.Model)
	})
	for _, m := range []string{"a", "b", "a"} {
		post(t, srv, m)
	}
	reqs := srv.Requests()
	if srv.Count() != 3 || srv.CountModel("a") != 2 || srv.CountModel("b") != 1 {
		t.Errorf("counts = %d, a %d, b %d", srv.Count(), srv.CountModel("a"), srv.CountModel("b"))
	}
	if r := reqs[2]; r.Call != 3 || r.ModelCall != 2 || *r.Temperature != 0 || *r.Seed != 1 || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("third request = %+v", r)
	}
}

// listModels fetches GET /models and returns each id's supported
// parameters as sent (nil for null).
func listModels(t *testing.T, srv *modeltest.Server) map[string][]string {
	t.Helper()
	res, err := http.Get(srv.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var list struct {
		Data []struct {
			ID                  string   `json:"id"`
			SupportedParameters []string `json:"supported_parameters"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range list.Data {
		out[m.ID] = m.SupportedParameters
	}
	return out
}

func TestDefaultModelsMirrorFamilies(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("unused"))
	got := listModels(t, srv)
	if len(got) != len(config.Default().Models) {
		t.Errorf("default list %v; want one entry per default gating model %v", got, config.Default().Models)
	}
	tests := []struct {
		id                string
		temperature, seed bool
		reason            string
	}{
		{"anthropic/claude-opus-5", true, false, "Claude's listing has temperature but no seed"},
		{"openai/gpt-5.6-sol", false, true, "GPT-5 is a reasoning model: seed, no temperature"},
		{"google/gemini-3.1-pro-preview", true, true, "Gemini 3 lists both"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		params, ok := got[tt.id]
		if !ok {
			t.Errorf("%s not listed; the default list mirrors config.Default().Models", tt.id)
			continue
		}
		if slices.Contains(params, "temperature") != tt.temperature || slices.Contains(params, "seed") != tt.seed {
			t.Errorf("%s parameters %v (%s)", tt.id, params, tt.reason)
		}
		for _, p := range []string{"max_tokens", "reasoning", "response_format", "structured_outputs"} {
			if !slices.Contains(params, p) {
				t.Errorf("%s lacks %q: %v", tt.id, p, params)
			}
		}
	}
}

func TestSetModelsFillsFamilies(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("unused"))
	srv.SetModels(
		modeltest.ModelEntry{ID: "anthropic/claude-sonnet-4.6"},
		modeltest.ModelEntry{ID: "fake/any"},
		modeltest.ModelEntry{ID: "openai/gpt-5.2", SupportedParameters: []string{"temperature"}},
	)
	srv.SetModel(modeltest.ModelEntry{ID: "anthropic/claude-sonnet-4.6", SupportedParameters: []string{}})
	srv.SetModel(modeltest.ModelEntry{ID: "google/gemini-3-flash-preview"})
	got := listModels(t, srv)
	tests := []struct {
		id     string
		want   []string
		reason string
	}{
		{"anthropic/claude-sonnet-4.6", []string{}, "SetModel replaces an entry; an empty list overrides the family"},
		{"fake/any", nil, "other ids keep a null list, which clients read as 'everything supported'"},
		{"openai/gpt-5.2", []string{"temperature"}, "an explicit list wins over the family"},
		{"google/gemini-3-flash-preview", modeltest.FamilyParameters("google/gemini-3"), "SetModel appends a missing id, filled from its family"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if p, ok := got[tt.id]; !ok || (p == nil) != (tt.want == nil) || !slices.Equal(p, tt.want) {
			t.Errorf("%s parameters = %v, want %v (%s)", tt.id, p, tt.want, tt.reason)
		}
	}
	if len(got) != 4 {
		t.Errorf("list = %v; SetModels replaces the defaults", got)
	}
}

func TestContentParts(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("ok"))
	body := `{"model":"m","messages":[{"role":"system","content":[{"type":"text","text":"doc ","cache_control":{"type":"ephemeral"}},{"type":"text","text":"rules"}]},{"role":"user","content":"q"}]}`
	res, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	m := srv.Requests()[0].Messages
	if m[0].Content != "doc rules" || len(m[0].Parts) != 2 || string(m[0].Parts[0].CacheControl) != `{"type":"ephemeral"}` || m[0].Parts[1].CacheControl != nil {
		t.Errorf("system message = %+v; want the parts, their joined text, and the breakpoint on the first", m[0])
	}
	if m[1].Content != "q" || m[1].Parts != nil {
		t.Errorf("user message = %+v; string content has no parts", m[1])
	}
}

// TestBillingAsOpenRouterBills: a non-streaming request whose client left
// before the answer is billed in full ("abandoned"); a stream the client
// closed stops billing ("closed"); GET /generation reports each as billed.
//
// The client leaves once the fake has the request, while the answer is
// still a minute away: a deadline of 100 ms instead let a loaded machine
// end a request before the fake read it (then nothing was asked, nor
// billed).
func TestBillingAsOpenRouterBills(t *testing.T) {
	cost := 0.5
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "long answer", Delay: modeltest.SettleLimit, Usage: &modeltest.Usage{Cost: &cost}})
	for i, stream := range []bool{false, true} {
		body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":%v}`, stream)
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			for deadline := time.Now().Add(modeltest.SettleLimit); srv.Count() <= i && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL+"/chat/completions", strings.NewReader(body))
		if res, err := http.DefaultClient.Do(req); err == nil {
			io.Copy(io.Discard, res.Body) // the stream's headers come at once; its body is cut by the cancel
			res.Body.Close()
		}
		cancel()
	}
	srv.WaitBilling(t, func(b modeltest.Billing) bool { return b == modeltest.Billing{Abandoned: 1, Closed: 1} },
		"one abandoned (billed) and one closed (not billed)")
	for _, tc := range tabletest.Cases(t, []struct{ id, want, reason string }{
		{"gen-1", `"total_cost":0.5`, "the abandoned non-streaming request is billed in full"},
		{"gen-2", `"total_cost":0`, "the closed stream is not billed"},
	}) {
		res, err := http.Get(srv.URL + "/generation?id=" + tc.id)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("GET /generation?id=%s = %s; want %s (%s)", tc.id, b, tc.want, tc.reason)
		}
	}
}

// TestStreamShape: a stream request is answered with keep-alive comments,
// content chunks, a finish chunk, usage last, then [DONE].
func TestStreamShape(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "abcd", Chunks: 2, Delay: 30 * time.Millisecond, KeepAlive: 10 * time.Millisecond})
	res, err := http.Post(srv.URL+"/chat/completions", "application/json", strings.NewReader(`{"model":"m","messages":[],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	s := string(b)
	if res.Header.Get("Content-Type") != "text/event-stream" || !strings.HasPrefix(s, modeltest.KeepAliveComment+"\n\n") ||
		!strings.Contains(s, `"delta":{"role":"assistant","content":"ab"}`) || !strings.Contains(s, `"delta":{"content":"cd"}`) ||
		!strings.Contains(s, `"finish_reason":"stop"`) || !strings.HasSuffix(s, "data: [DONE]\n\n") {
		t.Errorf("stream =\n%s", s)
	}
}
