package model_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

func listingClient(srv *modeltest.Server) *model.OpenRouter {
	return model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("sk-or-test-123456"), model.WithMaxRetries(0))
}

// TestListingFields: the listing's maximum output, reasoning defaults,
// full pricing (cache writes, reasoning, request, overrides) and
// expiration date are read (issue 43: top_provider.max_completion_tokens
// was never read, and the 512k rung asked for more than any model gives).
func TestListingFields(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	e := modeltest.Entry("google/gemini-3.1-pro-preview")
	e.ExpirationDate, e.InternalReasoningPrice, e.RequestPrice = "2026-12-15", "0.000013", "0.001"
	srv.SetModel(e)
	infos, err := listingClient(srv).ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]model.ModelInfo{}
	for _, m := range infos {
		byID[m.ID] = m
	}
	g := byID["google/gemini-3.1-pro-preview"]
	if g.MaxCompletionTokens != 65536 || g.ContextLength != 1048576 || g.ExpirationDate != "2026-12-15" {
		t.Errorf("gemini: max output %d, context %d, expiry %q; want 65536, 1048576, 2026-12-15", g.MaxCompletionTokens, g.ContextLength, g.ExpirationDate)
	}
	if r := g.Reasoning; r == nil || !r.Mandatory || r.DefaultEffort != "high" || strings.Join(r.SupportedEfforts, ",") != "low,high" {
		t.Errorf("gemini reasoning %+v, want mandatory, default effort high, efforts low,high", r)
	}
	if g.InternalReasoningPrice == nil || *g.InternalReasoningPrice != 0.000013 || g.RequestPrice == nil || *g.RequestPrice != 0.001 {
		t.Errorf("gemini reasoning and request prices %v %v", g.InternalReasoningPrice, g.RequestPrice)
	}
	in, out := g.PricesFor(250000)
	if in == nil || out == nil || *in != 0.000004 || *out != 0.000018 {
		t.Errorf("gemini prices above 200k prompt tokens: %v %v, want the override 4e-6 and 1.8e-5", in, out)
	}
	if in, _ := g.PricesFor(1000); *in != 0.000002 {
		t.Errorf("gemini prompt price of a short prompt %v, want the base 2e-6", *in)
	}
	c := byID["anthropic/claude-opus-5"]
	if c.CacheWritePrice == nil || *c.CacheWritePrice != 0.00000625 || c.MaxCompletionTokens != 128000 {
		t.Errorf("claude: cache write %v, max output %d; want 6.25e-6 (1.25× input) and 128000", c.CacheWritePrice, c.MaxCompletionTokens)
	}
	if soon, _ := g.ExpiresWithin(time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC), 30*24*time.Hour); !soon {
		t.Error("a model expiring on 2026-12-15 does not count as expiring within 30 days of 2026-11-27")
	}
	if soon, _ := g.ExpiresWithin(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), 30*24*time.Hour); soon {
		t.Error("a model expiring on 2026-12-15 counts as expiring within 30 days of 2026-10-01")
	}
}

// TestKeyAndAccount: /key gives the key's remaining credit, a key the API
// refuses is a fatal 401, /models/user leaves out what the account cannot
// route, and /endpoints names each provider with its limits.
func TestKeyAndAccount(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	left := 12.5
	srv.SetKey(modeltest.Key{Label: "nightly", LimitRemaining: &left, Limit: new(20.0), Usage: 7.5})
	hidden := modeltest.Entry("openai/gpt-5.6-sol")
	hidden.NotForUser = true
	srv.SetModel(hidden)
	c := listingClient(srv)
	ctx := context.Background()
	k, err := c.Key(ctx)
	if err != nil || k.LimitRemaining == nil || *k.LimitRemaining != 12.5 || k.Usage != 7.5 {
		t.Errorf("key: %+v, %v; want 12.5 remaining, 7.5 used", k, err)
	}
	user, err := c.ListUserModels(ctx)
	if err != nil || len(user) != 2 {
		t.Errorf("/models/user: %d models (%v), want the 2 this account can route", len(user), err)
	}
	eps, err := c.Endpoints(ctx, "anthropic/claude-opus-5")
	if err != nil || len(eps) != 1 || eps[0].Slug() != "anthropic" || eps[0].MaxCompletionTokens != 128000 {
		t.Errorf("endpoints: %+v, %v", eps, err)
	}
	srv.SetKey(modeltest.Key{Invalid: true})
	_, err = c.Key(ctx)
	var ae *model.APIError
	if !errors.As(err, &ae) || ae.Status != 401 || !errors.Is(err, model.ErrFatal) {
		t.Errorf("a refused key: %v, want a fatal HTTP 401", err)
	}
}

// TestRequestCarriesSessionAndMetadata: a request carries its session_id
// and asks for the routing metadata (X-OpenRouter-Metadata: enabled), so
// that the provider that served it is archived.
func TestRequestCarriesSessionAndMetadata(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "ok"))
	only := &model.ProviderPrefs{Only: []string{"anthropic"}, RequireParameters: new(true)}
	_, err := listingClient(srv).Complete(context.Background(), model.Request{Model: "m", SessionID: "run:m:doc", Provider: only,
		Messages: []model.Message{{Role: "user", Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	req := srv.Requests()[0]
	var body struct {
		SessionID string          `json:"session_id"`
		Provider  json.RawMessage `json:"provider"`
	}
	json.Unmarshal(req.Body, &body)
	if body.SessionID != "run:m:doc" || req.Header.Get(model.MetadataHeader) != "enabled" || string(body.Provider) != `{"only":["anthropic"],"require_parameters":true}` {
		t.Errorf("session_id %q, metadata header %q, provider %s", body.SessionID, req.Header.Get(model.MetadataHeader), body.Provider)
	}
}

// TestDecide: one policy per model, from the configuration, the vendor's
// rules and the listing; each decision with its reason.
func TestDecide(t *testing.T) {
	t.Parallel()
	entry := func(id string) model.ModelInfo {
		srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
		srv.SetModels(modeltest.Entry(id))
		infos, err := listingClient(srv).ListModels(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return infos[0]
	}
	want := model.Wanted{Temperature: 0, Seed: 7, MaxTokens: 32000}
	for _, c := range tabletest.Cases(t, []struct {
		id, temperature, seed, reasoning string
		maxTokens                        int
		wanted                           func(*model.Wanted)
		reason                           string
	}{
		{"anthropic/claude-opus-4.8", "none", "none", `{"enabled":false}`, 32000, nil,
			"Claude Opus 4.7+ ignores temperature (not sent); its listing lacks seed; reasoning off by default, sent off explicitly"},
		{"anthropic/claude-opus-4.6", "0", "none", `{"enabled":false}`, 32000, nil,
			"before 4.7 Claude honours temperature"},
		{"openai/gpt-5.6-sol", "none", "7", `{"effort":"medium"}`, 32000, nil,
			"GPT-5's listing lacks temperature; its default effort medium is sent explicitly"},
		{"google/gemini-3.1-pro-preview", "1", "7", `{"effort":"high"}`, 32000, nil,
			"Gemini 3 runs at its default temperature 1.0; reasoning is mandatory at effort high"},
		{"google/gemini-3.1-pro-preview", "1", "7", `{"effort":"low"}`, 65536, func(w *model.Wanted) {
			w.MaxTokens, w.Reasoning = 200000, &model.ReasoningPrefs{Effort: "low"}
		}, "a configured reasoning object is sent as configured; a budget above the maximum output is capped to it"},
	}) {
		w := want
		if c.wanted != nil {
			c.wanted(&w)
		}
		p := model.Decide(c.id, w, entry(c.id))
		got := func(f *float64) string {
			if f == nil {
				return "none"
			}
			return strings.TrimSuffix(strings.TrimSuffix(json.Number(jsonNum(*f)).String(), ".0"), ".00")
		}
		seed := "none"
		if p.Seed != nil {
			seed = json.Number(jsonNum(float64(*p.Seed))).String()
		}
		r, _ := json.Marshal(p.Reasoning)
		if got(p.Temperature) != c.temperature || seed != c.seed || string(r) != c.reasoning || p.MaxTokens != c.maxTokens {
			t.Errorf("%s: temperature %s, seed %s, reasoning %s, max_tokens %d; want %s, %s, %s, %d (%s)", c.id, got(p.Temperature), seed, r, p.MaxTokens, c.temperature, c.seed, c.reasoning, c.maxTokens, c.reason)
		}
		if p.Temperature == nil && p.TemperatureNote == "" || p.Seed == nil && p.SeedNote == "" {
			t.Errorf("%s: a control not sent has no reason recorded: %+v", c.id, p)
		}
		if p.JudgeMaxTokens <= model.JudgeAnswerTokens && p.ReasoningAllowance > 0 || p.MaxOutput > 0 && p.JudgeMaxTokens > p.MaxOutput {
			t.Errorf("%s: judge budget %d does not leave room for reasoning (%d) within the maximum %d", c.id, p.JudgeMaxTokens, p.ReasoningAllowance, p.MaxOutput)
		}
	}
}

func jsonNum(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

// TestBYOKCostIncludesUpstream: with BYOK, usage.cost is only
// OpenRouter's fee; the provider's charge
// (cost_details.upstream_inference_cost) is added to the call's cost and
// kept apart, and an unreadable one makes the cost unknown, never the fee
// alone.
func TestBYOKCostIncludesUpstream(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name, usage string
		cost        float64 // -1: unknown
		reason      string
	}{
		{"byok", `{"prompt_tokens":10,"completion_tokens":5,"cost":0.001,"is_byok":true,"cost_details":{"upstream_inference_cost":0.02}}`, 0.021,
			"the fee and the provider's charge"},
		{"not byok", `{"prompt_tokens":10,"completion_tokens":5,"cost":0.021,"cost_details":{"upstream_inference_cost":0.021}}`, 0.021,
			"without BYOK usage.cost already holds the upstream cost"},
		{"byok unreadable", `{"prompt_tokens":10,"completion_tokens":5,"cost":0.001,"is_byok":true,"cost_details":{"upstream_inference_cost":"x"}}`, -1,
			"an upstream charge that cannot be read leaves the cost unknown"},
	}) {
		srv := modeltest.NewScripted(t, modeltest.OddUsage("ok", c.usage))
		resp, err := listingClient(srv).Complete(context.Background(), model.Request{Model: "m", Messages: []model.Message{{Role: "user", Content: "hi"}}})
		if err != nil {
			t.Fatal(err)
		}
		got := -1.0
		if resp.Usage.Cost != nil {
			got = *resp.Usage.Cost
		}
		if diff := got - c.cost; diff > 1e-12 || diff < -1e-12 {
			t.Errorf("%s: cost %v, want %v (%s)", c.name, got, c.cost, c.reason)
		}
	}
}

// TestListingAsRecorded: what listings recorded from the live API carry
// is read as meant: canonical_slug is kept (it names the model served),
// and an internal_reasoning price of "0", which listings have carried on
// reasoning models, is no separate price: reasoning tokens are then
// priced as completion tokens, as OpenRouter bills them (issue 52). A
// positive internal_reasoning is a separate price.
func TestListingAsRecorded(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	zero := modeltest.Entry("anthropic/claude-opus-4.7")
	zero.InternalReasoningPrice, zero.RequestPrice = "0", "0"
	apart := modeltest.Entry("vendor/apart")
	apart.PromptPrice, apart.CompletionPrice, apart.InternalReasoningPrice = "0.000001", "0.000002", "0.000003"
	srv.SetModels(zero, apart)
	infos, err := listingClient(srv).ListModels(context.Background())
	if err != nil || len(infos) != 2 {
		t.Fatalf("%v %+v", err, infos)
	}
	if infos[0].CanonicalSlug != "anthropic/claude-4.7-opus-20260416" || infos[1].CanonicalSlug != "vendor/apart" {
		t.Errorf("canonical slugs %q, %q: want the listing's", infos[0].CanonicalSlug, infos[1].CanonicalSlug)
	}
	if infos[0].InternalReasoningPrice != nil {
		t.Errorf("internal_reasoning \"0\" read as a price of %v: reasoning would be priced free", *infos[0].InternalReasoningPrice)
	}
	if p := infos[1].InternalReasoningPrice; p == nil || *p != 0.000003 {
		t.Errorf("a positive internal_reasoning is %v, want 0.000003", p)
	}
}
