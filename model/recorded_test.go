package model_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// midStreamUpstream is OpenRouter's mid-stream error of an upstream that
// failed, in the shape cline/cline#5449 quotes (README "200 mid-stream
// upstream 502"): code 502, the upstream's own error in metadata.raw, the
// provider named.
const midStreamUpstream = ": OPENROUTER PROCESSING\n\n" +
	`data: {"id":"gen-rec-2","provider":"AtlasCloud","model":"vendor/model","object":"chat.completion.chunk","created":1,"choices":[{"index":0,"delta":{"role":"assistant","content":"par"},"finish_reason":null}]}` + "\n\n" +
	`data: {"id":"gen-rec-2","provider":"AtlasCloud","model":"vendor/model","object":"chat.completion.chunk","created":1,"error":{"message":"Upstream error from AtlasCloud: Unexpected token 17 while expecting start token 20","code":502,"metadata":{"raw":{"object":"error","message":"Unexpected token 17 while expecting start token 20","type":"BadRequestError","param":null,"code":400},"provider_name":"AtlasCloud"}},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}` + "\n\n" +
	"data: [DONE]\n\n"

// TestRecordedErrorsClassified: every error body recorded from the live
// API that this project collected (model/testdata/recorded/README.md,
// under the case's name: the source, repository, path and commit or
// thread) goes through the client and the error table. A body that says
// the credit affords nothing stops the model; one that says a smaller
// request would pass, or that no endpoint takes this request's
// parameters, fails that request alone; a token limit reported right
// after a "length" finish is an answer cut off, not a failure.
func TestRecordedErrorsClassified(t *testing.T) {
	const cutOff = model.Scope("cut off")
	status := func(code int, body string) modeltest.Reply { return modeltest.Reply{Status: code, Body: body} }
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		reply  modeltest.Reply
		want   model.Scope
		reason string
	}{
		{"404 no endpoints for model", status(404, `{"error":{"code":404,"message":"No endpoints found for vendor/model:free."},"user_id":"user_abc"}`),
			model.ScopeModel, "no endpoint serves the model at all: every request would meet it"},
		{"200 token limit after length", modeltest.TokenLimitAfterLength("minimax/minimax-m2:free"),
			cutOff, "the error follows a length finish: the answer ran out of budget, the request was not invalid"},
		{"402 afford 0", status(402, `{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 32000 tokens, but can only afford 0. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher monthly limit","code":402,"metadata":{"provider_name":null}},"user_id":"user_abc"}`),
			model.ScopeModel, "the key can afford nothing: no smaller request passes either"},
		{"402 prompt tokens limit", status(402, `{"error":{"message":"Prompt tokens limit exceeded: 64128 > 6964. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null}},"user_id":"user_abc"}`),
			model.ScopeRequest, "a shorter prompt fits the limit left; it stopped the model before"},
		{"402 afford some", status(402, `{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 10114. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null}},"user_id":"user_abc"}`),
			model.ScopeRequest, "fewer max_tokens would pass"},
		{"402 afford some, previous errors", status(402, `{"error":{"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 3395. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account","code":402,"metadata":{"provider_name":null,"previous_errors":[{"code":402,"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 5365."},{"code":402,"message":"This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford 5050."}]}},"user_id":"user_abc"}`),
			model.ScopeRequest, "the earlier providers' errors in metadata change nothing"},
		{"402 token capacity", status(402, `{"error":{"message":"More credits are required to run this request. 128000 token capacity required, 19484 available. To increase, visit https://openrouter.ai/settings/keys and create a key with a higher limit","code":402}}`),
			model.ScopeRequest, "the older wording of the reservation: some capacity is left"},
		{"402 insufficient credits", status(402, `{"error":{"message":"Insufficient credits. Add more using https://openrouter.ai/settings/credits","code":402,"metadata":{"limit_source":"openrouter_credits","remedy_hint":"Add credits at https://openrouter.ai/settings/credits, or lower max_tokens / prompt size to fit your remaining balance."}}}`),
			model.ScopeModel, "no credit: every request fails, whatever the hint says"},
		{"402 never purchased", status(402, `{"error":{"message":"Insufficient credits. This account never purchased credits. Make sure your key is on the correct account or org, and if so, purchase more at https://openrouter.ai/settings/credits","code":402}}`),
			model.ScopeModel, "an account without credit"},
		{"404 no allowed providers", status(404, `{"error":{"message":"No allowed providers are available for the selected model.","code":404,"metadata":{"available_providers":["z-ai"],"requested_providers":["anthropic"]}}}`),
			model.ScopeModel, "the account's provider settings exclude every provider of the model"},
		{"404 data policy", status(404, `{"error":{"message":"No endpoints found matching your data policy","code":404}}`),
			model.ScopeModel, "the account's data policy excludes every endpoint"},
		{"404 tool_choice", status(404, `{"error":{"message":"No endpoints found that support the provided 'tool_choice' value. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}`),
			model.ScopeRequest, "a feature this request asked for; a request without it routes"},
		{"200 mid-stream upstream 502", modeltest.Reply{SSE: midStreamUpstream},
			model.ScopeRetry, "an upstream that failed mid-stream: OpenRouter may route elsewhere next time"},
		{"404 parameters, not retryable", status(404, `{"error":{"code":404,"message":"No endpoints found that can handle the requested parameters.","availability":{"code":"no_endpoints","retryable":false,"fallback_models":[]}},"user_id":"user_abc"}`),
			model.ScopeRequest, "the parameters row decides before the availability row: it ended the model's night (issue 52)"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			srv := modeltest.NewScripted(t, c.reply)
			cl, _ := newClient(srv, model.WithMaxRetries(1))
			resp, err := cl.Complete(context.Background(), request())
			if c.want == cutOff {
				if err != nil || resp == nil || resp.FinishReason != "length" || !resp.ReasoningExhausted() || resp.Usage.ReasoningTokens != 10 {
					t.Fatalf("err %v, response %+v: want an answer cut off at its budget while reasoning (%s)", err, resp, c.reason)
				}
				return
			}
			var ae *model.APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v, want an APIError (%s)", err, c.reason)
			}
			if ae.Scope != c.want {
				t.Errorf("scope %q (%s), want %q: %s", ae.Scope, ae.Reason, c.want, c.reason)
			}
			want := map[model.Scope]int{model.ScopeRetry: 2, model.ScopeRequest: 1, model.ScopeModel: 1}[c.want]
			if srv.Count() != want {
				t.Errorf("%d requests, want %d (%s)", srv.Count(), want, c.reason)
			}
			if outOfCredit := c.want == model.ScopeModel && strings.HasPrefix(c.name, "402"); errors.Is(err, model.ErrOutOfCredit) != outOfCredit {
				t.Errorf("ErrOutOfCredit %v for %q, want %v (%s)", !outOfCredit, ae.Message, outOfCredit, c.reason)
			}
		})
	}
}

// TestPlainJSONBodyNamesItsAttempt: a server that answers a stream
// request with plain JSON (a proxy, or OpenRouter's non-streamed shape)
// names the generation and the provider in the body; the attempt keeps
// both, as it keeps a stream's first chunk's (issue 52: the attempt's
// provider was empty).
func TestPlainJSONBodyNamesItsAttempt(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Body: `{"id":"gen-plain-1","provider":"Google AI Studio","model":"google/gemini-2.5-flash","object":"chat.completion",` +
		`"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop","native_finish_reason":"STOP"}],"usage":{"prompt_tokens":3,"completion_tokens":1}}`})
	cl, _ := newClient(srv)
	resp, err := cl.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(resp.Attempts); n != 1 || resp.Attempts[0].Provider != "Google AI Studio" || resp.Attempts[0].GenerationID != "gen-plain-1" {
		t.Errorf("attempts %+v: want one naming provider Google AI Studio and generation gen-plain-1", resp.Attempts)
	}
	if resp.Provider != "Google AI Studio" || resp.NativeFinishReason != "STOP" {
		t.Errorf("response provider %q, native finish reason %q", resp.Provider, resp.NativeFinishReason)
	}
}
