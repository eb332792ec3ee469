package model

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// What OpenRouter says about a key and its models beyond the public
// listing: GET /key (the key's credit), GET /models/user (what this
// account can route) and GET /models/{author}/{slug}/endpoints (each
// provider's limits). The preflight reads them before any paid request.

// ReasoningInfo is a listing's reasoning object: what the model does when
// the request says nothing, and what it accepts.
type ReasoningInfo struct {
	// DefaultEnabled is whether the model reasons when the request sends
	// no reasoning object; nil when the listing does not say.
	DefaultEnabled *bool `json:"default_enabled,omitempty"`
	// DefaultEffort is the effort used when none is sent; "" when not said.
	DefaultEffort string `json:"default_effort,omitempty"`
	// Mandatory is true when reasoning cannot be turned off (Gemini 3).
	Mandatory bool `json:"mandatory"`
	// SupportedEfforts are the efforts the model takes, e.g. "low", "high".
	SupportedEfforts []string `json:"supported_efforts,omitempty"`
	// SupportsMaxTokens is whether reasoning.max_tokens is honoured.
	SupportsMaxTokens bool `json:"supports_max_tokens"`
}

// PriceOverride is one entry of pricing.overrides: prices that replace
// the base ones for a request whose prompt is longer than
// MinPromptTokens (Gemini's long-context price above 200k). An override
// with another condition (a time of day) has MinPromptTokens 0 and is
// kept in Raw, recorded but not applied: the harness cannot know the
// hour a request will be served.
type PriceOverride struct {
	MinPromptTokens int64           `json:"min_prompt_tokens,omitempty"`
	PromptPrice     *float64        `json:"prompt_price,omitempty"`
	CompletionPrice *float64        `json:"completion_price,omitempty"`
	Raw             json.RawMessage `json:"raw"`
}

// PricesFor returns the prompt and completion prices (USD per token) of a
// request whose prompt has prompt tokens: those of the last override
// whose MinPromptTokens the prompt exceeds, else the base prices. A
// price an override leaves out stays the base one.
func (m ModelInfo) PricesFor(prompt int64) (in, out *float64) {
	in, out = m.PromptPrice, m.CompletionPrice
	for _, o := range m.PriceOverrides {
		if o.MinPromptTokens <= 0 || prompt <= o.MinPromptTokens {
			continue
		}
		if o.PromptPrice != nil {
			in = o.PromptPrice
		}
		if o.CompletionPrice != nil {
			out = o.CompletionPrice
		}
	}
	return in, out
}

// ExpiresWithin reports whether the model's announced expiration date is
// no later than now+d (a date already past included), and the date.
func (m ModelInfo) ExpiresWithin(now time.Time, d time.Duration) (bool, time.Time) {
	if m.ExpirationDate == "" {
		return false, time.Time{}
	}
	t, err := time.Parse(time.DateOnly, m.ExpirationDate)
	if err != nil {
		t, err = time.Parse(time.RFC3339, m.ExpirationDate)
	}
	if err != nil {
		return false, time.Time{}
	}
	return !t.After(now.Add(d)), t
}

// KeyInfo is GET /key's account of the key (data.*).
type KeyInfo struct {
	Label string `json:"label"`
	// Limit is the key's credit limit in USD; nil when it has none.
	Limit *float64 `json:"limit"`
	// LimitRemaining is what is left of Limit, in USD; nil when the key
	// has no limit (the account's credit then bounds it, which /key does
	// not give).
	LimitRemaining *float64 `json:"limit_remaining"`
	Usage          float64  `json:"usage"`      // USD spent through the key, all time
	BYOKUsage      float64  `json:"byok_usage"` // of which billed by providers to the user's own keys
	IsFreeTier     bool     `json:"is_free_tier"`
}

// Endpoint is one provider's endpoint of a model, from
// /models/{author}/{slug}/endpoints.
type Endpoint struct {
	Provider            string   `json:"provider_name"`
	Tag                 string   `json:"tag"`
	ContextLength       int      `json:"context_length"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
	SupportedParameters []string `json:"supported_parameters"`
	Status              int      `json:"status"`
}

// Slug is the provider slug of e, the form provider pins use ("anthropic",
// "google-vertex"): its tag up to the first '/', else its name lower-cased.
func (e Endpoint) Slug() string {
	if e.Tag != "" {
		s, _, _ := strings.Cut(e.Tag, "/")
		return s
	}
	return strings.ToLower(e.Provider)
}

// Key fetches {base}/key: whether the key is valid (a bad key is a 401,
// an *APIError that is ErrFatal) and its remaining credit.
func (c *OpenRouter) Key(ctx context.Context) (KeyInfo, error) {
	k, err := getJSON(ctx, c, "key", func(b []byte) (KeyInfo, error) {
		var w struct {
			Data *KeyInfo `json:"data"`
		}
		if err := json.Unmarshal(b, &w); err != nil || w.Data == nil {
			return KeyInfo{}, fmt.Errorf("not a key description (want {\"data\": {...}})")
		}
		return *w.Data, nil
	})
	if err != nil {
		return k, fmt.Errorf("checking the key: %w", err)
	}
	return k, nil
}

// ListUserModels fetches {base}/models/user: the models this account can
// route, its privacy and provider settings applied.
func (c *OpenRouter) ListUserModels(ctx context.Context) ([]ModelInfo, error) {
	out, err := getJSON(ctx, c, "models/user", func(b []byte) ([]ModelInfo, error) {
		ms, e := interpretModels(exchange{status: 200, body: b})
		if e != nil {
			return nil, e
		}
		return ms, nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing this account's models: %w", err)
	}
	return out, nil
}

// Endpoints fetches {base}/models/{id}/endpoints: each provider that
// serves model id, with its own limits and parameters.
func (c *OpenRouter) Endpoints(ctx context.Context, id string) ([]Endpoint, error) {
	author, slug, ok := strings.Cut(id, "/")
	if !ok {
		return nil, fmt.Errorf("endpoints of %q: not an author/slug id", id)
	}
	path := "models/" + url.PathEscape(author) + "/" + url.PathEscape(slug) + "/endpoints"
	out, err := getJSON(ctx, c, path, func(b []byte) ([]Endpoint, error) {
		var w struct {
			Data struct {
				Endpoints []Endpoint `json:"endpoints"`
			} `json:"data"`
		}
		if err := json.Unmarshal(b, &w); err != nil {
			return nil, fmt.Errorf("not an endpoint list: %v", err)
		}
		return w.Data.Endpoints, nil
	})
	if err != nil {
		return nil, fmt.Errorf("endpoints of %s: %w", id, err)
	}
	return out, nil
}

// getJSON GETs {base}/path with the client's key and headers, a
// bookkeeping call (bookkept: its own deadline, few retries), and decodes the body with decode; a body decode
// refuses is a bad response, retried.
func getJSON[T any](ctx context.Context, c *OpenRouter, path string, decode func([]byte) (T, error)) (T, error) {
	var zero T
	if c.urlErr != nil {
		return zero, c.urlErr
	}
	api := openai.Client{Options: c.models.Options}
	call := func(ctx context.Context, opts ...option.RequestOption) error {
		return api.Get(ctx, path, nil, nil, opts...)
	}
	interpret := func(ex exchange) (T, *APIError) {
		v, err := decode(ex.body)
		if err != nil {
			var ae *APIError
			if asAPIError(err, &ae) {
				return zero, ae
			}
			return zero, &APIError{Status: ex.status, Code: CodeBadResponse, Message: "GET " + path + ": " + err.Error(), Retryable: true}
		}
		return v, nil
	}
	return bookkept(ctx, &c.cfg, call, interpret)
}

// asAPIError is errors.As for a decode error that already is one.
func asAPIError(err error, target **APIError) bool {
	ae, ok := err.(*APIError)
	if ok {
		*target = ae
	}
	return ok
}

// MetadataHeader asks OpenRouter to add its routing details (the provider
// that served, and any fallback tried) to every response, so that the
// transcript archives them per attempt.
const MetadataHeader = "X-OpenRouter-Metadata"

// DefaultHeaders returns the headers every request carries unless
// WithHeaders replaces them (the key aside), as run.json records them.
func DefaultHeaders() map[string]string { return defaultHeaders() }

// SessionScheme is how the harness makes a request's session_id, the key
// of OpenRouter's sticky routing, as run.json records it: one session per
// run, model (answering or judging) and document, so that a document's
// requests go to the provider that cached its prefix (SessionID).
const SessionScheme = "<run id>:<model>:<document>"

// SessionID is the session_id of run runID's requests to model m about
// document doc (SessionScheme).
func SessionID(runID, m, doc string) string { return runID + ":" + m + ":" + doc }

// defaultHeaders are the headers every request carries unless
// WithHeaders replaces them: the attribution headers and the routing
// metadata request.
func defaultHeaders() map[string]string {
	return map[string]string{"HTTP-Referer": DefaultReferer, "X-Title": DefaultTitle, http.CanonicalHeaderKey(MetadataHeader): "enabled"}
}
