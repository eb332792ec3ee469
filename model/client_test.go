package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

const testKey = "sk-or-v1-test-SECRET-0123456789"

// waits records the waits the client asks for instead of sleeping, so retry
// tests run in milliseconds and can assert the exact durations.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

func newClient(srv *modeltest.Server, opts ...model.Option) (*model.OpenRouter, *waits) {
	w := &waits{}
	base := []model.Option{
		model.WithBaseURL(srv.URL),
		model.WithAPIKey(testKey),
		model.WithSleep(w.sleep),
	}
	return model.NewOpenRouter(append(base, opts...)...), w
}

func request() model.Request {
	return model.Request{
		Model: "test/model",
		Messages: []model.Message{
			{Role: "system", Content: "You edit BendScript documents."},
			{Role: "user", Content: "Rename the title."},
		},
		Temperature: ptr(0.0),
		Seed:        ptr(int64(7)),
		TaskID:      "01-a",
	}
}

func ptr[T any](v T) *T { return &v }

func TestCompleteSuccess(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{
		Content:  `{"ok":true}`,
		Provider: "Anthropic",
		Model:    "anthropic/claude-test-20250101",
		ID:       "gen-abc",
		Usage:    &modeltest.Usage{PromptTokens: 100, CompletionTokens: 20, CachedTokens: 30, ReasoningTokens: 5, Cost: ptr(0.0012)},
	})
	c, w := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	checkSuccess(t, resp)
	if len(w.all()) != 0 {
		t.Errorf("waited %v on success", w.all())
	}
	checkSentRequest(t, srv.Requests()[0])
}

// checkSuccess checks a successful answer as the fake sent it: content
// and finish reason, who served it, usage and cost, one attempt, the raw
// body.
func checkSuccess(t *testing.T, resp *model.Response) {
	t.Helper()
	if resp.Content != `{"ok":true}` || resp.FinishReason != "stop" {
		t.Errorf("content, finish = %q, %q", resp.Content, resp.FinishReason)
	}
	if resp.Provider != "Anthropic" || resp.ModelServed != "anthropic/claude-test-20250101" || resp.ID != "gen-abc" {
		t.Errorf("provider, model, id = %q, %q, %q", resp.Provider, resp.ModelServed, resp.ID)
	}
	u := resp.Usage
	if u.PromptTokens != 100 || u.CompletionTokens != 20 || u.CachedTokens != 30 || u.ReasoningTokens != 5 {
		t.Errorf("usage = %+v", u)
	}
	if u.Cost == nil || *u.Cost != 0.0012 {
		t.Errorf("cost = %v, want 0.0012", u.Cost)
	}
	if len(resp.Attempts) != 1 || resp.Attempts[0].Status != 200 || resp.Attempts[0].Error != "" || resp.Attempts[0].Number != 1 {
		t.Errorf("attempts = %+v, want one successful", resp.Attempts)
	}
	if !json.Valid(resp.RawBody) || !strings.Contains(string(resp.RawBody), `"provider":"Anthropic"`) {
		t.Errorf("RawBody = %s, want the response body", resp.RawBody)
	}
}

// checkSentRequest checks what the client sent for request(): temperature
// 0 and the seed explicitly, no budget or schema, the model and messages
// and no task id, and OpenRouter's headers with the key.
func checkSentRequest(t *testing.T, got modeltest.ChatRequest) {
	t.Helper()
	if got.Temperature == nil || *got.Temperature != 0 {
		t.Errorf("temperature = %v, want 0 sent explicitly", got.Temperature)
	}
	if got.Seed == nil || *got.Seed != 7 {
		t.Errorf("seed = %v, want 7", got.Seed)
	}
	if got.MaxTokens != nil || got.ResponseFormat != nil {
		t.Errorf("max_tokens, response_format = %v, %s; want both omitted", got.MaxTokens, got.ResponseFormat)
	}
	if got.Model != "test/model" || len(got.Messages) != 2 || got.Messages[0].Role != "system" || got.Messages[1].Content != "Rename the title." {
		t.Errorf("model, messages = %q, %+v", got.Model, got.Messages)
	}
	if strings.Contains(string(got.Body), "01-a") {
		t.Errorf("TaskID was sent: %s", got.Body)
	}
	for k, want := range map[string]string{
		"Authorization": "Bearer " + testKey,
		"HTTP-Referer":  model.DefaultReferer,
		"X-Title":       model.DefaultTitle,
	} {
		if v := got.Header.Get(k); v != want {
			t.Errorf("header %s = %q, want %q", k, v, want)
		}
	}
}

func TestCompleteOptionalFields(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("{}"))
	c, _ := newClient(srv)
	req := request()
	req.MaxTokens = 512
	req.JSONSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}`)
	if _, err := c.Complete(context.Background(), req); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	got := srv.Requests()[0]
	if got.MaxTokens == nil || *got.MaxTokens != 512 {
		t.Errorf("max_tokens = %v, want 512", got.MaxTokens)
	}
	want := `{"type":"json_schema","json_schema":{"name":"response","strict":true,"schema":` + string(req.JSONSchema) + `}}`
	if !jsonEqual(t, got.ResponseFormat, []byte(want)) {
		t.Errorf("response_format = %s\nwant %s", got.ResponseFormat, want)
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("unmarshal %s: %v", a, err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

func TestUsageCost(t *testing.T) {
	const head = `{"id":"g","model":"m","choices":[{"message":{"content":"x"},"finish_reason":"stop"}]`
	tests := []struct {
		name   string
		body   string
		want   *float64
		reason string
	}{
		{"number", head + `,"usage":{"prompt_tokens":1,"cost":0.5}}`, ptr(0.5), "OpenRouter's usage.cost is read"},
		{"zero", head + `,"usage":{"prompt_tokens":1,"cost":0}}`, ptr(0.0), "a reported zero is known, not unknown"},
		{"absent", head + `,"usage":{"prompt_tokens":1}}`, nil, "a missing cost is unknown, never 0"},
		{"null", head + `,"usage":{"prompt_tokens":1,"cost":null}}`, nil, "null is unknown"},
		{"string", head + `,"usage":{"prompt_tokens":1,"cost":"0.5"}}`, nil, "only a JSON number counts; the call must not fail over it"},
		{"no usage", head + `}`, nil, "a response without usage is not an error"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, modeltest.Reply{Body: tt.body})
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if err != nil {
				t.Fatalf("Complete: %v (%s)", err, tt.reason)
			}
			got := resp.Usage.Cost
			if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
				t.Errorf("cost = %v, want %v (%s)", fmtPtr(got), fmtPtr(tt.want), tt.reason)
			}
		})
	}
}

func fmtPtr(p *float64) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}

func TestRetryAfterHonoured(t *testing.T) {
	future := time.Now().Add(24 * time.Hour).UTC().Format(http.TimeFormat)
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name      string
		headers   map[string]string
		wantWait  time.Duration
		wantAsked int64 // Attempt.RetryAfterMS; -1 means "negative"
		reason    string
	}{
		{"seconds", map[string]string{"Retry-After": "1"}, time.Second, 1000, "Retry-After in seconds is waited exactly"},
		{"fraction", map[string]string{"Retry-After": "0.25"}, 250 * time.Millisecond, 250, "fractional seconds are not rounded away"},
		{"ms", map[string]string{"retry-after-ms": "1500"}, 1500 * time.Millisecond, 1500, "retry-after-ms is honoured"},
		{"ms preferred", map[string]string{"retry-after-ms": "200", "Retry-After": "1"}, 200 * time.Millisecond, 200, "the precise header wins"},
		{"capped", map[string]string{"Retry-After": "3600"}, 60 * time.Second, 3600000, "a server wait is capped at 2 × max backoff"},
		{"date", map[string]string{"Retry-After": future}, 60 * time.Second, -2, "an HTTP date is honoured (and capped)"},
		{"past date", map[string]string{"Retry-After": past}, 0, -1, "a date already past means retry now"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			limited := modeltest.StatusError(http.StatusTooManyRequests)
			limited.Headers = tt.headers
			srv := modeltest.NewScripted(t, limited, modeltest.Text("ok"))
			c, w := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if err != nil {
				t.Fatalf("Complete: %v", err)
			}
			if srv.Count() != 2 || len(resp.Attempts) != 2 {
				t.Fatalf("requests, attempts = %d, %d; want 2, 2", srv.Count(), len(resp.Attempts))
			}
			if got := w.all(); len(got) != 1 || got[0] != tt.wantWait {
				t.Errorf("waits = %v, want [%v] (%s)", got, tt.wantWait, tt.reason)
			}
			a := resp.Attempts[0]
			switch {
			case tt.wantAsked == -1 && a.RetryAfterMS >= 0,
				tt.wantAsked == -2 && a.RetryAfterMS < 23*3600*1000,
				tt.wantAsked >= 0 && a.RetryAfterMS != tt.wantAsked:
				t.Errorf("RetryAfterMS = %d, want %d (%s)", a.RetryAfterMS, tt.wantAsked, tt.reason)
			}
			if a.Status != 429 || a.WaitMS != tt.wantWait.Milliseconds() {
				t.Errorf("attempt 1 = %+v", a)
			}
		})
	}
}

func TestRetriesServerErrors(t *testing.T) {
	srv := modeltest.NewScripted(t,
		modeltest.StatusError(500), modeltest.StatusError(502), modeltest.StatusError(503),
		modeltest.Text("ok"))
	c, w := newClient(srv, model.WithBackoff(time.Second, 3*time.Second))
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if resp.Content != "ok" {
		t.Errorf("content = %q", resp.Content)
	}
	var statuses []int
	for _, a := range resp.Attempts {
		statuses = append(statuses, a.Status)
	}
	if fmt.Sprint(statuses) != "[500 502 503 200]" {
		t.Errorf("statuses = %v", statuses)
	}
	// Full jitter: the wait before retry n is in [0, min(max, base·2ⁿ)].
	ceil := []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}
	got := w.all()
	if len(got) != 3 {
		t.Fatalf("waits = %v, want 3", got)
	}
	for i, d := range got {
		if d < 0 || d > ceil[i] {
			t.Errorf("wait %d = %v, want within [0, %v]", i, d, ceil[i])
		}
		if resp.Attempts[i].WaitMS != d.Milliseconds() {
			t.Errorf("attempt %d WaitMS = %d, slept %v", i+1, resp.Attempts[i].WaitMS, d)
		}
	}
}

func TestStatusClassification(t *testing.T) {
	tests := []struct {
		status  int
		retried bool
		fatal   bool
		reason  string
	}{
		{408, true, false, "request timeout is transient"},
		{409, true, false, "conflict is transient"},
		{429, true, false, "rate limits pass"},
		{500, true, false, "server errors pass"},
		{504, true, false, "gateway timeouts pass"},
		{400, false, false, "a bad request is about this request: the model's other jobs go on"},
		{401, false, true, "a bad key stops every job"},
		{402, false, true, "no credit stops every job"},
		{403, false, true, "forbidden stops every job"},
		{404, false, true, "a missing model stops its jobs"},
		{422, false, false, "other 4xx are this request's problem only"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			srv := modeltest.NewScripted(t, modeltest.StatusError(tt.status), modeltest.Text("ok"))
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if tt.retried {
				if err != nil || srv.Count() != 2 {
					t.Errorf("err, requests = %v, %d; want nil, 2 (%s)", err, srv.Count(), tt.reason)
				}
				return
			}
			var apiErr *model.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != tt.status || apiErr.Retryable {
				t.Fatalf("err = %v, want a non-retryable APIError %d (%s)", err, tt.status, tt.reason)
			}
			if errors.Is(err, model.ErrFatal) != tt.fatal {
				t.Errorf("errors.Is(ErrFatal) = %v, want %v (%s)", !tt.fatal, tt.fatal, tt.reason)
			}
			if srv.Count() != 1 || len(resp.Attempts) != 1 {
				t.Errorf("requests, attempts = %d, %d; want 1, 1 (%s)", srv.Count(), len(resp.Attempts), tt.reason)
			}
		})
	}
}

func TestUnauthorizedIsFatal(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Unauthorized())
	c, w := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if !errors.Is(err, model.ErrFatal) {
		t.Fatalf("err = %v, want ErrFatal", err)
	}
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 401 || apiErr.Code != "401" || apiErr.Message != "No auth credentials found" {
		t.Errorf("APIError = %+v", apiErr)
	}
	if srv.Count() != 1 || len(w.all()) != 0 {
		t.Errorf("requests, waits = %d, %v; want exactly one request, no wait", srv.Count(), w.all())
	}
	if resp == nil || len(resp.Attempts) != 1 || resp.Attempts[0].Status != 401 || !strings.Contains(string(resp.RawBody), "No auth") {
		t.Errorf("partial response = %+v", resp)
	}
}

func TestIdleTimeoutThenSuccess(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Hang(), modeltest.Text("ok"))
	// The idle timeout also bounds the answer's first byte: at 100 ms a
	// loaded machine (-race) could cut the second attempt too, and a
	// starved core stalled a stream past 600 ms (see
	// TestStreamLongerThanAnIdleTimeout).
	c, _ := newClient(srv, model.WithIdleTimeout(3*time.Second))
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	if resp.Content != "ok" || len(resp.Attempts) != 2 {
		t.Fatalf("content, attempts = %q, %+v", resp.Content, resp.Attempts)
	}
	a := resp.Attempts[0]
	if a.Status != 0 || !strings.Contains(a.Error, model.CodeIdle) {
		t.Errorf("attempt 1 = %+v, want an idle timeout", a)
	}
}

func TestRetriesExhausted(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.StatusError(503))
	c, w := newClient(srv, model.WithMaxRetries(2))
	resp, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 503 || !apiErr.Retryable {
		t.Fatalf("err = %v, want a retryable APIError 503", err)
	}
	if errors.Is(err, model.ErrFatal) {
		t.Errorf("503 must not be fatal")
	}
	if srv.Count() != 3 || len(resp.Attempts) != 3 || len(w.all()) != 2 {
		t.Errorf("requests, attempts, waits = %d, %d, %d; want 3, 3, 2", srv.Count(), len(resp.Attempts), len(w.all()))
	}
	for i, a := range resp.Attempts {
		if a.Number != i+1 || a.Status != 503 || a.Error == "" {
			t.Errorf("attempt %d = %+v", i+1, a)
		}
	}
	if last := resp.Attempts[2]; last.WaitMS != 0 {
		t.Errorf("last attempt WaitMS = %d, want 0", last.WaitMS)
	}
	if !strings.Contains(string(resp.RawBody), "Service Unavailable") {
		t.Errorf("RawBody = %s, want the final error body", resp.RawBody)
	}
}

func TestMalformedBodies(t *testing.T) {
	tests := []struct {
		name     string
		replies  []modeltest.Reply
		wantCode string // "" means success
		wantReqs int
		reason   string
	}{
		{"not JSON then ok", []modeltest.Reply{modeltest.NotJSON(), modeltest.Text("ok")}, "", 2, "one garbled body is retried"},
		{"never JSON", []modeltest.Reply{modeltest.NotJSON()}, model.CodeBadResponse, 3, "garbled bodies get 2 retries, not the full budget of 4"},
		{"no choices", []modeltest.Reply{{Body: `{"id":"x","choices":[]}`}}, model.CodeNoChoices, 3, "an empty choice list is not an answer"},
		{"choices not a list", []modeltest.Reply{{Body: `{"choices":{}}`}}, model.CodeBadResponse, 3, "a wrong shape is garbled, not a panic"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, tt.replies...)
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if srv.Count() != tt.wantReqs {
				t.Errorf("requests = %d, want %d (%s)", srv.Count(), tt.wantReqs, tt.reason)
			}
			if !json.Valid(resp.RawBody) {
				t.Errorf("RawBody is not valid JSON: %s", resp.RawBody)
			}
			if tt.wantCode == "" {
				if err != nil {
					t.Errorf("err = %v (%s)", err, tt.reason)
				}
				return
			}
			var apiErr *model.APIError
			if !errors.As(err, &apiErr) || apiErr.Code != tt.wantCode || apiErr.Status != 200 {
				t.Errorf("err = %v, want APIError code %s (%s)", err, tt.wantCode, tt.reason)
			}
		})
	}
}

func TestContentReturnedAsIs(t *testing.T) {
	tests := []struct {
		name       string
		reply      modeltest.Reply
		wantFinish string
		reason     string
	}{
		{"fenced", modeltest.Fenced(`{"a":1}`), "stop", "fence extraction belongs to the caller, which records that it happened"},
		{"truncated", modeltest.Truncated(`{"a":`), "length", "a truncated answer is data, not an error"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, tt.reply)
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if err != nil {
				t.Fatalf("Complete: %v (%s)", err, tt.reason)
			}
			if resp.Content != tt.reply.Content || resp.FinishReason != tt.wantFinish {
				t.Errorf("content, finish = %q, %q; want %q, %q (%s)", resp.Content, resp.FinishReason, tt.reply.Content, tt.wantFinish, tt.reason)
			}
		})
	}
}

func TestErrorInsideOK(t *testing.T) {
	tests := []struct {
		name     string
		first    modeltest.Reply
		retried  bool
		wantCode string
		reason   string
	}{
		{"upstream 502", modeltest.MidGenerationError(502, "Provider returned error"), true, "502", "an upstream failure mid-generation is transient"},
		{"rate limit", modeltest.MidGenerationError(429, "rate limited"), true, "429", "so is a rate limit"},
		{"no code", modeltest.Reply{FinishReason: "error"}, true, "", "finish_reason error alone is a failure of unknown kind, retried"},
		{"choice error", modeltest.Reply{Body: `{"choices":[{"message":{"content":""},"finish_reason":"error","error":{"code":503,"message":"down"}}]}`}, true, "503", "an error object in the choice counts too"},
		{"bad request", modeltest.MidGenerationError(400, "context too long"), false, "400", "a 4xx code in the body is not retried"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, tt.first, modeltest.Text("ok"))
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if !strings.Contains(resp.Attempts[0].Error, tt.wantCode) || resp.Attempts[0].Status != 200 || resp.Attempts[0].Error == "" {
				t.Errorf("attempt 1 = %+v, want the error recorded (%s)", resp.Attempts[0], tt.reason)
			}
			if tt.retried {
				if err != nil || resp.Content != "ok" || srv.Count() != 2 {
					t.Errorf("err, content, requests = %v, %q, %d (%s)", err, resp.Content, srv.Count(), tt.reason)
				}
				return
			}
			var apiErr *model.APIError
			if !errors.As(err, &apiErr) || apiErr.Code != tt.wantCode || apiErr.Status != 200 || srv.Count() != 1 {
				t.Errorf("err = %v, requests = %d (%s)", err, srv.Count(), tt.reason)
			}
			if errors.Is(err, model.ErrFatal) {
				t.Errorf("an error inside a 200 must not stop the model's other jobs (%s)", tt.reason)
			}
		})
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		// Cancel once the first attempt is in; the client is then either
		// still reading it or already waiting out Retry-After.
		cancel()
		return modeltest.RateLimited(3600)
	})
	// The real sleep, with a one-hour cap: if cancellation were ignored,
	// the test would hang until go test's timeout.
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(testKey), model.WithBackoff(time.Second, time.Hour))
	resp, err := c.Complete(ctx, request())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if srv.Count() != 1 || resp == nil || len(resp.Attempts) != 1 {
		t.Errorf("requests = %d, response = %+v; want one attempt", srv.Count(), resp)
	}
}

func TestCancelDuringAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		cancel()
		return modeltest.Hang()
	})
	c, w := newClient(srv)
	resp, err := c.Complete(ctx, request())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if srv.Count() != 1 || len(w.all()) != 0 || len(resp.Attempts) != 1 || resp.Attempts[0].Error != "interrupted: "+context.Canceled.Error() || !resp.Attempts[0].Interrupted {
		t.Errorf("requests, waits, attempts = %d, %v, %+v", srv.Count(), w.all(), resp.Attempts)
	}
}

func TestAPIKeyNeverLeaks(t *testing.T) {
	// A hostile or buggy server echoes the Authorization header everywhere
	// it can: error messages, completion content, custom fields.
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		auth := req.Header.Get("Authorization")
		switch call {
		case 1:
			return modeltest.Reply{Status: 500, Error: &modeltest.ErrorObject{Code: 500, Message: "bad " + auth}}
		case 2:
			return modeltest.Reply{Status: 200, Body: "not json " + auth}
		case 3:
			return modeltest.Reply{Content: auth, Provider: auth}
		}
		return modeltest.Reply{Status: 401, Error: &modeltest.ErrorObject{Code: 401, Message: "key " + auth + " rejected"}}
	})
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatalf("Complete: %v", err)
	}
	dump, _ := json.Marshal(resp)
	if strings.Contains(string(dump), testKey) {
		t.Errorf("key in response: %s", dump)
	}
	if !strings.Contains(string(dump), "[REDACTED]") {
		t.Errorf("echoed key not marked as redacted: %s", dump)
	}

	resp, err = c.Complete(context.Background(), request())
	if err == nil {
		t.Fatal("want the 401")
	}
	dump, _ = json.Marshal(resp)
	for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), string(dump)} {
		if strings.Contains(s, testKey) {
			t.Errorf("key leaked: %s", s)
		}
	}
}

func TestIgnoresOpenAIEnvironment(t *testing.T) {
	// openai.NewClient would pick these up; an OpenAI admin key or org id
	// must never reach OpenRouter.
	t.Setenv("OPENAI_API_KEY", "openai-user-key-should-not-be-sent")
	t.Setenv("OPENAI_ADMIN_KEY", "openai-admin-key-should-not-be-sent")
	t.Setenv("OPENAI_ORG_ID", "org-should-not-be-sent")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/not-here")
	srv := modeltest.NewScripted(t, modeltest.Text("ok"))
	c, _ := newClient(srv)
	if _, err := c.Complete(context.Background(), request()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	h := srv.Requests()[0].Header
	if h.Get("Authorization") != "Bearer "+testKey || h.Get("OpenAI-Organization") != "" {
		t.Errorf("headers = %v", h)
	}
}

func TestHeaders(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("ok"))
	c, _ := newClient(srv, model.WithHeaders(map[string]string{"x-title": "", "X-Run": "r1"}))
	if _, err := c.Complete(context.Background(), request()); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	h := srv.Requests()[0].Header
	if h.Get("X-Title") != "" || h.Get("X-Run") != "r1" || h.Get("HTTP-Referer") != model.DefaultReferer {
		t.Errorf("headers = %v; want X-Title removed (whatever its case), X-Run added, HTTP-Referer kept", h)
	}
}

func TestInvalidRequest(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*model.Request)
		reason string
	}{
		{"no model", func(r *model.Request) { r.Model = "" }, "every request needs a model"},
		{"bad role", func(r *model.Request) { r.Messages[0].Role = "tool" }, "only plain chat roles are sent"},
		{"bad schema", func(r *model.Request) { r.JSONSchema = json.RawMessage(`{`) }, "an unparsable schema is a bug, not a server error"},
		{"content and parts", func(r *model.Request) { r.Messages[0].Parts = []model.Part{{Text: "x"}} }, "a message is text or parts, never both"},
		{"parts with bad role", func(r *model.Request) { r.Messages[0] = model.Message{Role: "tool", Parts: []model.Part{{Text: "x"}}} }, "parts do not widen the roles"},
		{"effort and budget", func(r *model.Request) { r.Reasoning = &model.ReasoningPrefs{Effort: "high", MaxTokens: 100} }, "OpenRouter takes one or the other"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, modeltest.Text("ok"))
			c, _ := newClient(srv)
			req := request()
			tt.edit(&req)
			resp, err := c.Complete(context.Background(), req)
			if !errors.Is(err, model.ErrFatal) || resp != nil || srv.Count() != 0 {
				t.Errorf("err, resp, requests = %v, %v, %d; want ErrFatal, nil, 0 (%s)", err, resp, srv.Count(), tt.reason)
			}
		})
	}
}

func TestListModels(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Text("unused"))
	srv.SetModels(
		modeltest.ModelEntry{ID: "anthropic/claude-test", PromptPrice: "0.000003", CompletionPrice: "0.000015",
			SupportedParameters: []string{"temperature", "seed", "response_format"}, ContextLength: 200000},
		modeltest.ModelEntry{ID: "openrouter/auto", PromptPrice: "-1", CompletionPrice: "-1"},
		modeltest.ModelEntry{ID: "odd/free", PromptPrice: "0", CompletionPrice: ""},
	)
	c, _ := newClient(srv)
	got, err := c.ListModels(context.Background())
	if err != nil {
		t.Fatalf("ListModels: %v", err)
	}
	if len(got) != 3 {
		t.Fatalf("got %d models", len(got))
	}
	tests := []struct {
		i                  int
		prompt, completion string
		reason             string
	}{
		{0, "3e-06", "1.5e-05", "decimal strings are parsed"},
		{1, "nil", "nil", `"-1" (variable price) is unknown`},
		{2, "0", "nil", "a free model is 0; an empty price is unknown"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		m := got[tt.i]
		if fmtPtr(m.PromptPrice) != tt.prompt || fmtPtr(m.CompletionPrice) != tt.completion {
			t.Errorf("%s prices = %s, %s; want %s, %s (%s)", m.ID, fmtPtr(m.PromptPrice), fmtPtr(m.CompletionPrice), tt.prompt, tt.completion, tt.reason)
		}
	}
	if m := got[0]; m.ID != "anthropic/claude-test" || m.ContextLength != 200000 || fmt.Sprint(m.SupportedParameters) != "[temperature seed response_format]" {
		t.Errorf("model 0 = %+v", m)
	}
	if h := srv.ModelsRequests(); len(h) != 1 || h[0].Get("Authorization") != "Bearer "+testKey {
		t.Errorf("models requests = %v", h)
	}
}

func TestBaseURLFromEnv(t *testing.T) {
	tests := []struct {
		env, want, reason string
	}{
		{"", model.DefaultBaseURL, "unset or empty falls back to OpenRouter"},
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1", "the variable points the harness at a proxy or fake"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Setenv(model.EnvBaseURL, tt.env)
		if got := model.BaseURLFromEnv(); got != tt.want {
			t.Errorf("BaseURLFromEnv with %q = %q, want %q (%s)", tt.env, got, tt.want, tt.reason)
		}
	}
}

func TestConcurrentCalls(t *testing.T) {
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text(req.Messages[1].Content)
	})
	c, _ := newClient(srv)
	const n = 32
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			req := request()
			req.Model = fmt.Sprintf("m/%d", i%4)
			req.Messages[1].Content = fmt.Sprint(i)
			resp, err := c.Complete(context.Background(), req)
			if err == nil && resp.Content != fmt.Sprint(i) {
				err = fmt.Errorf("call %d got %q", i, resp.Content)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Error(err)
	}
	if srv.Count() != n || srv.CountModel("m/0") != n/4 {
		t.Errorf("requests = %d, for m/0 = %d", srv.Count(), srv.CountModel("m/0"))
	}
}

func TestBadBaseURL(t *testing.T) {
	for _, base := range []string{"openrouter.ai/api/v1", "ftp://example.invalid/", "http://%zz"} {
		c := model.NewOpenRouter(model.WithBaseURL(base), model.WithSleep(func(context.Context, time.Duration) error {
			t.Errorf("%q: retried a configuration error", base)
			return nil
		}))
		if _, err := c.Complete(context.Background(), request()); !errors.Is(err, model.ErrFatal) {
			t.Errorf("Complete with base %q: err = %v, want ErrFatal at once", base, err)
		}
		if _, err := c.ListModels(context.Background()); !errors.Is(err, model.ErrFatal) {
			t.Errorf("ListModels with base %q: err = %v, want ErrFatal at once", base, err)
		}
	}
}

func TestErrorStatusWithoutJSONBody(t *testing.T) {
	// Gateways in front of a provider answer with HTML; the status alone
	// must drive the retry, and the message must still say something.
	page := modeltest.Reply{Status: 502, Body: "<html><body>Bad gateway</body></html>"}
	srv := modeltest.NewScripted(t, page)
	c, _ := newClient(srv, model.WithMaxRetries(1))
	resp, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 502 || !apiErr.Retryable || !strings.Contains(apiErr.Message, "Bad gateway") {
		t.Fatalf("err = %v, want a retryable APIError 502 quoting the page", err)
	}
	if srv.Count() != 2 || !json.Valid(resp.RawBody) {
		t.Errorf("requests = %d, RawBody = %s; want 2 and valid JSON", srv.Count(), resp.RawBody)
	}
}

// TestOddUsageKeepsTheAnswer: a usage count of the wrong type
// ("prompt_tokens": 12.5, or 1e400) failed the decoding of the whole body:
// the good answer was thrown away, the call paid three times and recorded
// as an API error. The answer is kept, the unreadable counts named.
func TestOddUsageKeepsTheAnswer(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct{ name, usage, want, reason string }{
		{"fraction", `{"prompt_tokens": 12.5, "completion_tokens": 3}`, "prompt_tokens: 12.5", "a fractional token count is not an integer, and naming it must not cost the answer"},
		{"beyond int64", `{"prompt_tokens": 7, "completion_tokens": 1e400}`, "completion_tokens: 1e400", "a count beyond int64 overflows the field, and is named rather than failing the body"},
		{"string count", `{"prompt_tokens": "7", "completion_tokens": 3, "cost": "free"}`, `cost: "free"`, "a count or cost sent as a string is named, each member on its own"},
		{"details not an object", `{"prompt_tokens": 7, "prompt_tokens_details": 5}`, "prompt_tokens_details: 5", "a details member that is not an object is named, not decoded into the details"},
		{"usage not an object", `"lots"`, `usage: "lots"`, "a usage that is not an object at all is named whole, and the answer still kept"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, modeltest.OddUsage("the answer", tc.usage))
			c, _ := newClient(srv)
			resp, err := c.Complete(context.Background(), request())
			if err != nil || resp.Content != "the answer" || srv.Count() != 1 {
				t.Fatalf("err %v, content %q, %d requests; want the answer kept from one request", err, resp.Content, srv.Count())
			}
			if !slices.Contains(resp.Usage.Unread, tc.want) {
				t.Errorf("unread = %q, want it to name %q (%s)", resp.Usage.Unread, tc.want, tc.reason)
			}
		})
	}
}

// TestEscapedKeyEchoIsRedacted: a body that spelled the key with JSON
// escapes (sk\u002dor…) passed the byte-wise redaction, and the decoded
// key landed in transcripts and the HTML report.
func TestEscapedKeyEchoIsRedacted(t *testing.T) {
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply { return modeltest.EscapedKeyEcho(req) })
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(resp.Content, "[REDACTED]") || strings.Contains(resp.Content, testKey) {
		t.Errorf("content %q: want the key redacted", resp.Content)
	}
	var decoded any
	if err := json.Unmarshal(resp.RawBody, &decoded); err != nil {
		t.Fatalf("raw body no longer JSON: %v", err)
	}
	if b, _ := json.Marshal(decoded); strings.Contains(string(b), testKey) || strings.Contains(string(resp.RawBody), `\u002d`) && strings.Contains(string(resp.RawBody), "your key is sk") {
		t.Errorf("raw body %s still spells the key", resp.RawBody)
	}
}

// TestFatalCodeInsideOKStopsTheModel: a 402 in the body of a 200 did not
// match ErrFatal, so all 60 jobs of the model were sent although 400–404
// stop the model.
func TestFatalCodeInsideOKStopsTheModel(t *testing.T) {
	for _, code := range []int{401, 402, 403, 404} {
		srv := modeltest.NewScripted(t, modeltest.ErrorInsideOK(code, "Insufficient credits"))
		c, _ := newClient(srv)
		_, err := c.Complete(context.Background(), request())
		if !errors.Is(err, model.ErrFatal) || srv.Count() != 1 {
			t.Errorf("code %d inside a 200: err %v after %d requests; want ErrFatal at once", code, err, srv.Count())
		}
	}
}
