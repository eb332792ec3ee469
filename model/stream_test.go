package model_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestDocumentedErrorsClassified: every error body of OpenRouter's errors
// page, as the fake sends it, is classified by what it is about: the
// model (its other jobs are skipped), the request (that job fails with its
// reason) or the moment (retried).
func TestDocumentedErrorsClassified(t *testing.T) {
	tests := []struct {
		name   string
		scope  model.Scope
		reason string
	}{
		{"400 context_length_exceeded", model.ScopeRequest, "a prompt too long fails its job; shorter ones fit"},
		{"400 max_tokens_exceeded", model.ScopeRequest, "an output budget is the request's"},
		{"400 token_limit_exceeded", model.ScopeRequest, "a budget of this request"},
		{"400 string_too_long", model.ScopeRequest, "one message too long"},
		{"401 authentication", model.ScopeModel, "a bad key fails every request"},
		{"403 permission_denied", model.ScopeModel, "a key without the permission fails every request"},
		{"402 payment_required", model.ScopeModel, "no credit fails every request"},
		{"429 rate_limit_exceeded", model.ScopeRetry, "rate limits pass"},
		{"503 provider_overloaded", model.ScopeRetry, "overload passes"},
		{"502 provider_unavailable", model.ScopeRetry, "OpenRouter may route elsewhere next time"},
		{"400 invalid_request", model.ScopeRequest, "a malformed parameter is this request's"},
		{"400 invalid_prompt", model.ScopeRequest, "a bad message is this request's"},
		{"404 not_found", model.ScopeModel, "an unknown or retired model"},
		{"412 precondition_failed", model.ScopeRequest, "a header of this request"},
		{"413 payload_too_large", model.ScopeRequest, "this request's size"},
		{"422 unprocessable", model.ScopeRequest, "this request's content"},
		{"400 content_policy_violation", model.ScopeRequest, "a content filter flags one input"},
		{"400 refusal", model.ScopeRequest, "the model refused one request"},
		{"400 invalid_image", model.ScopeRequest, "an image of the request"},
		{"400 image_too_large", model.ScopeRequest, "an image of the request"},
		{"400 image_too_small", model.ScopeRequest, "an image of the request"},
		{"400 unsupported_image_format", model.ScopeRequest, "an image of the request"},
		{"404 image_not_found", model.ScopeRequest, "an image of the request, not the model: the type decides before the status"},
		{"400 image_download_failed", model.ScopeRequest, "an image of the request"},
		{"500 server", model.ScopeRetry, "a masked server error passes"},
		{"504 timeout", model.ScopeRetry, "a provider timeout passes"},
		{"500 unmapped", model.ScopeRetry, "an unknown upstream error is tried again"},
		{"400 untyped", model.ScopeRequest, "an untyped 400 is about the request (it ended the model's night before)"},
		{"400 unknown model", model.ScopeModel, "a model id OpenRouter does not know"},
		{"401 untyped", model.ScopeModel, "a bad key"},
		{"402 reservation", model.ScopeRequest, "this request's max_tokens cannot be reserved; smaller ones can"},
		{"402 untyped", model.ScopeModel, "no credit"},
		{"403 moderation", model.ScopeRequest, "moderation flags one input"},
		{"403 guardrail", model.ScopeRequest, "a guardrail blocks one input"},
		{"403 untyped", model.ScopeModel, "insufficient permissions fail every request"},
		{"404 no endpoint for the parameters", model.ScopeRequest, "no endpoint for this request's parameters; others route"},
		{"404 untyped", model.ScopeModel, "a missing model"},
		{"408 untyped", model.ScopeRetry, "a request timeout passes"},
		{"429 untyped", model.ScopeRetry, "rate limits pass"},
		{"502 untyped", model.ScopeRetry, "a model down now may be up later"},
		{"503 untyped", model.ScopeRetry, "no provider now may be one later"},
		{"503 availability retryable", model.ScopeRetry, "availability.retryable says so"},
		{"503 availability not retryable", model.ScopeModel, "availability.retryable false: the model cannot be routed, whatever the type"},
		{"200 mid-stream rate_limit_exceeded", model.ScopeRetry, "a mid-stream error is handled as one in a 200"},
		{"200 mid-stream provider_unavailable", model.ScopeRetry, "a provider that disconnected mid-stream"},
		{"200 mid-stream content_policy_violation", model.ScopeRequest, "an output filter on one answer"},
		{"200 mid-stream server (masked)", model.ScopeRetry, "a masked server error mid-stream"},
	}
	docs := map[string]modeltest.DocumentedError{}
	for _, d := range modeltest.DocumentedErrors() {
		docs[d.Name] = d
	}
	seen := map[string]bool{}
	for _, tt := range tabletest.Cases(t, tests) {
		seen[tt.name] = true
		t.Run(tt.name, func(t *testing.T) {
			d, ok := docs[tt.name]
			if !ok {
				t.Fatalf("no fixture %q", tt.name)
			}
			srv := modeltest.NewScripted(t, d.Reply)
			c, _ := newClient(srv, model.WithMaxRetries(1))
			_, err := c.Complete(context.Background(), request())
			var apiErr *model.APIError
			if !errors.As(err, &apiErr) {
				t.Fatalf("err = %v, want an APIError (%s)", err, tt.reason)
			}
			if apiErr.Scope != tt.scope || apiErr.Reason == "" {
				t.Errorf("scope %q (%s), want %q: %s [%s]", apiErr.Scope, apiErr.Reason, tt.scope, tt.reason, d.Source)
			}
			want := map[model.Scope]int{model.ScopeRetry: 2, model.ScopeRequest: 1, model.ScopeModel: 1}[tt.scope]
			if srv.Count() != want {
				t.Errorf("%d requests, want %d (%s)", srv.Count(), want, tt.reason)
			}
			if errors.Is(err, model.ErrFatal) != (tt.scope == model.ScopeModel) || errors.Is(err, model.ErrRequest) != (tt.scope == model.ScopeRequest) {
				t.Errorf("ErrFatal %v, ErrRequest %v for scope %q (%s)", errors.Is(err, model.ErrFatal), errors.Is(err, model.ErrRequest), tt.scope, tt.reason)
			}
		})
	}
	for name := range docs {
		if !seen[name] {
			t.Errorf("fixture %q is not classified by this table", name)
		}
	}
}

// TestTypedErrorRead: a typed error keeps its error_type, provider_code,
// and a moderation error its reasons and flagged input, for the transcript.
func TestTypedErrorRead(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Moderation("some text"))
	c, _ := newClient(srv)
	_, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || len(apiErr.Reasons) != 1 || apiErr.Reasons[0] != "violence" || apiErr.FlaggedInput != "some text" || apiErr.ProviderName != "OpenAI" {
		t.Errorf("moderation error = %+v", apiErr)
	}
	srv = modeltest.NewScripted(t, modeltest.Refusal())
	c, _ = newClient(srv)
	_, err = c.Complete(context.Background(), request())
	if !errors.As(err, &apiErr) || apiErr.Type != "refusal" || apiErr.ProviderCode != "refusal" || !strings.Contains(err.Error(), "refusal") {
		t.Errorf("refusal error = %v %+v", err, apiErr)
	}
}

// TestStreamLongerThanAnIdleTimeout: an answer that keeps arriving in
// steady chunks for several idle timeouts completes: the idle timeout
// bounds silence, not length. So does one kept alive only by keep-alive
// comments while the model thinks.
func TestStreamLongerThanAnIdleTimeout(t *testing.T) {
	for _, tt := range tabletest.Cases(t, []struct {
		name   string
		reply  modeltest.Reply
		reason string
	}{
		{"chunks", modeltest.Reply{Content: "0123456789abcdefghi", Chunks: 18, ChunkDelay: 250 * time.Millisecond}, "18 chunks 250 ms apart take one and a half idle timeouts"},
		{"keep-alives", modeltest.Reply{Content: "done", Delay: 4500 * time.Millisecond, KeepAlive: 100 * time.Millisecond}, "one and a half idle timeouts of keep-alive comments and no chunk"},
	}) {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := modeltest.NewScripted(t, tt.reply)
			// Each gap is a twelfth of the idle timeout or less, so that a
			// loaded machine does not stretch one past it: with gaps of a
			// sixth of 600 ms, -race on a starved core (-cpu 1, two CPU
			// burners) failed 2 of 20 runs with a gap past 600 ms.
			c, _ := newClient(srv, model.WithIdleTimeout(3*time.Second), model.WithMaxRetries(0))
			// The context only bounds a hang: the answer takes 4.5 s.
			ctx, cancel := context.WithTimeout(context.Background(), modeltest.SettleLimit)
			defer cancel()
			resp, err := c.Complete(ctx, request())
			if err != nil || resp.Content != tt.reply.Content || len(resp.Attempts) != 1 {
				t.Fatalf("err %v, content %q, attempts %d; want the whole answer at once (%s)", err, resp.Content, len(resp.Attempts), tt.reason)
			}
			if resp.LatencyMS < 3000 || resp.Attempts[0].GenerationID != "gen-1" {
				t.Errorf("latency %d ms, generation %q; want over the 3 s idle timeout and gen-1 (%s)", resp.LatencyMS, resp.Attempts[0].GenerationID, tt.reason)
			}
			srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Completed == 1 }, "one completed generation: "+tt.reason)
		})
	}
}

// TestSilentStreamClosed: a stream that goes silent past the idle timeout
// is closed, its attempt keeps the generation id of its first chunk and
// what arrived, and the fake records that billing stopped.
func TestSilentStreamClosed(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "first second", Chunks: 2, SilentAfter: 1, ID: "gen-silent", Provider: "Anthropic"})
	// The idle timeout also runs while the first chunk comes: at 100 ms
	// a loaded machine (-race) could close the stream before it, and a
	// starved core stalled a stream past 600 ms (see
	// TestStreamLongerThanAnIdleTimeout).
	c, _ := newClient(srv, model.WithIdleTimeout(3*time.Second), model.WithMaxRetries(0))
	resp, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != model.CodeIdle || apiErr.Scope != model.ScopeRetry {
		t.Fatalf("err = %v, want an idle timeout", err)
	}
	a := resp.Attempts[0]
	if a.GenerationID != "gen-silent" || a.Provider != "Anthropic" || a.Status != 200 || !strings.Contains(string(resp.RawBody), "first ") {
		t.Errorf("attempt %+v, raw %s; want the generation id, provider and the chunk that arrived", a, resp.RawBody)
	}
	srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Closed == 1 && b.Completed == 0 }, "the closed stream stopped billing")
}

// TestStreamedAnswerRead: a streamed answer is assembled from its chunks:
// content, reasoning, finish reasons, usage (with BYOK's upstream cost
// and cache writes) and the first chunk's id, model and provider.
func TestStreamedAnswerRead(t *testing.T) {
	fee, upstream := 0.01, 0.5
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: `{"a": 1}`, Chunks: 3, Reasoning: "think", FinishReason: "stop", NativeFinishReason: "end_turn",
		Provider: "Anthropic", ID: "gen-x", Usage: &modeltest.Usage{PromptTokens: 9, CompletionTokens: 4, CacheWriteTokens: 7, Cost: &fee, BYOK: true, UpstreamCost: &upstream}})
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	u := resp.Usage
	if resp.Content != `{"a": 1}` || resp.Reasoning != "think" || resp.FinishReason != "stop" || resp.NativeFinishReason != "end_turn" ||
		resp.ID != "gen-x" || resp.Provider != "Anthropic" || resp.ModelServed != "test/model" {
		t.Errorf("response = %+v", resp)
	}
	if u.PromptTokens != 9 || u.CompletionTokens != 4 || u.CacheWriteTokens != 7 || u.Cost == nil || *u.Cost != 0.51 || u.UpstreamCost == nil || *u.UpstreamCost != 0.5 {
		t.Errorf("usage = %+v; want BYOK's fee and upstream cost summed, cache writes counted", u)
	}
	if !srv.Requests()[0].Stream {
		t.Error("the request did not ask for a stream")
	}
}

// TestBlankCompletionRetried: no content and no finish reason is not an
// answer (OpenRouter does not bill it and advises a retry).
func TestBlankCompletionRetried(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Blank: true}, modeltest.Text("ok"))
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil || resp.Content != "ok" || len(resp.Attempts) != 2 || !strings.Contains(resp.Attempts[0].Error, model.CodeBlank) {
		t.Fatalf("err %v, resp %+v; want a retry after the blank completion", err, resp)
	}
	srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Blank == 1 && b.Completed == 1 }, "one blank (unbilled) and one completed")
}

// TestContentFilterIsTheRequests: finish_reason content_filter is recorded
// as such, a failure of this request, not as the model's bad JSON.
func TestContentFilterIsTheRequests(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: `{"title": "x`, FinishReason: "content_filter"})
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != model.CodeContentFilter || !errors.Is(err, model.ErrRequest) || srv.Count() != 1 {
		t.Fatalf("err = %v after %d requests; want content_filter, a request error, not retried", err, srv.Count())
	}
	if resp.Content != `{"title": "x` {
		t.Errorf("content %q: what arrived is kept", resp.Content)
	}
}

// TestCancelClosesTheStream: a caller that gives up mid-stream closes it
// (the fake stops billing), and the attempt is marked interrupted with its
// generation id.
//
// The caller gives up once the client has read the first chunk: a
// deadline of 200 ms instead let a loaded machine end the call before
// the chunk came, and with it the generation id.
func TestCancelClosesTheStream(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "ab", Chunks: 2, SilentAfter: 1})
	reads := modeltest.WatchReads(t)
	c, _ := newClient(srv)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		reads.Wait(t, 1, `"content":"a"`)
		cancel()
	}()
	resp, err := c.Complete(ctx, request())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the caller's cancel", err)
	}
	if a := resp.Attempts[0]; !a.Interrupted || a.GenerationID != "gen-1" {
		t.Errorf("attempt %+v, want interrupted with its generation id", a)
	}
	srv.WaitBilling(t, func(b modeltest.Billing) bool { return b.Closed == 1 }, "the closed stream stopped billing")
}
