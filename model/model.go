package model

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Message is one chat message of a request: plain text in Content, or
// text content parts in Parts (never both).
type Message struct {
	Role    string `json:"role"`    // "system", "developer", "user" or "assistant"
	Content string `json:"content"` // plain text; "" when Parts is set

	// Parts, when set, is sent as an array of text content parts instead of
	// Content. It exists for the cacheable prefix: see [Part.Cache].
	Parts []Part `json:"parts,omitempty"`
}

// Part is one text content part of a message.
type Part struct {
	Text string `json:"text"`
	// Cache marks the end of a cacheable prefix: the part is sent with
	// "cache_control": {"type": "ephemeral"}, Anthropic's explicit cache
	// breakpoint, so the prompt up to and including it is cached for about
	// five minutes. OpenAI and Gemini cache long prefixes by themselves and
	// ignore the marker.
	Cache bool `json:"cache,omitempty"`
}

// Text returns the message's text: Content, or the texts of its parts
// joined without separator, which is what the model reads.
func (m Message) Text() string {
	if len(m.Parts) == 0 {
		return m.Content
	}
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Request is one chat-completion call. The harness fills every field that
// affects the answer, so a transcript of the Request is enough to replay it.
type Request struct {
	Model    string    `json:"model"`    // OpenRouter model id, e.g. "anthropic/claude-sonnet-4"
	Messages []Message `json:"messages"` // the conversation, oldest first

	// Temperature and Seed are sent when non-nil, zero included, and left
	// out when nil. A model whose listing lacks the parameter (see
	// [ModelInfo.Determinism]) should get nil: OpenRouter would drop it
	// silently, and the transcript would claim a control that was not
	// applied.
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int64   `json:"seed,omitempty"`

	MaxTokens int `json:"max_tokens,omitempty"` // sent as max_tokens; 0 omits it

	// JSONSchema, when set, asks for structured output:
	// response_format {type: json_schema, json_schema: {name, strict: true, schema}}.
	JSONSchema json.RawMessage `json:"json_schema,omitempty"`
	// SchemaName names the schema in response_format; "" means "response".
	SchemaName string `json:"schema_name,omitempty"`

	// Provider, when set, is sent as OpenRouter's "provider" routing object,
	// e.g. to pin the upstream that serves the model.
	Provider *ProviderPrefs `json:"provider,omitempty"`
	// Reasoning, when set, is sent as OpenRouter's "reasoning" object.
	Reasoning *ReasoningPrefs `json:"reasoning,omitempty"`
	// SessionID, when set, is sent as OpenRouter's "session_id": the key
	// of its sticky routing, so that the requests of one document go to
	// the provider that cached its prefix.
	SessionID string `json:"session_id,omitempty"`

	// TaskID is never sent. It lets offline models (which answer from the
	// task rather than the prompt) know which task is being asked.
	TaskID string `json:"task_id,omitempty"`
	// Document is never sent or recorded: the document the prompt carries,
	// for offline models that work on what they are given (a relay step
	// carries the model's own previous answer, not the task's source).
	Document []byte `json:"-"`
}

// ProviderPrefs is OpenRouter's provider routing object, sent as
// "provider". A model may be served by several upstreams (Anthropic's own
// API, Bedrock, Vertex, ...) that differ in what they honour; pinning one
// with Order and AllowFallbacks false makes repeated runs comparable.
type ProviderPrefs struct {
	// Only restricts routing to these provider slugs.
	Only []string `json:"only,omitempty"`
	// Ignore excludes these provider slugs.
	Ignore []string `json:"ignore,omitempty"`
	// Order lists provider slugs to try first, in order, e.g. ["anthropic"].
	Order []string `json:"order,omitempty"`
	// AllowFallbacks false forbids other providers when those in Order fail;
	// nil leaves OpenRouter's default (true).
	AllowFallbacks *bool `json:"allow_fallbacks,omitempty"`
	// RequireParameters true routes only to providers that support every
	// parameter sent, instead of dropping unsupported ones silently; nil
	// leaves OpenRouter's default (false).
	RequireParameters *bool `json:"require_parameters,omitempty"`
}

// ReasoningPrefs is OpenRouter's reasoning object, sent as "reasoning".
// Effort and MaxTokens are alternatives: a request that sets both is
// refused before it is sent.
type ReasoningPrefs struct {
	// Effort is "xhigh", "high", "medium", "low", "minimal" or "none"
	// (OpenAI style); "" leaves it out.
	Effort string `json:"effort,omitempty"`
	// MaxTokens caps the reasoning tokens (Anthropic style); 0 leaves it
	// out. Reasoning tokens count against the request's MaxTokens too.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Exclude asks that the reasoning text be left out of the response; the
	// model still reasons, and the tokens are still billed.
	Exclude bool `json:"exclude,omitempty"`
	// Enabled turns reasoning on with default settings (true) or off
	// (false); nil lets OpenRouter infer it from Effort or MaxTokens.
	Enabled *bool `json:"enabled,omitempty"`
}

// Usage is the token accounting of one response.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`     // usage.prompt_tokens
	CompletionTokens int64 `json:"completion_tokens"` // usage.completion_tokens
	CachedTokens     int64 `json:"cached_tokens"`     // usage.prompt_tokens_details.cached_tokens
	ReasoningTokens  int64 `json:"reasoning_tokens"`  // usage.completion_tokens_details.reasoning_tokens
	// CacheWriteTokens is usage.prompt_tokens_details.cache_write_tokens:
	// prompt tokens written to the provider's cache (priced above input).
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
	// UpstreamCost is usage.cost_details.upstream_inference_cost when the
	// call was BYOK (usage.is_byok): the provider's charge to the user's
	// own key, which usage.cost (OpenRouter's fee alone) leaves out. Cost
	// includes it, so that every sum counts what the call cost.
	UpstreamCost *float64 `json:"upstream_cost,omitempty"`

	// Cost is usage.cost in USD as OpenRouter reports it, summed over
	// every attempt of the call that reported one (a retried 200 without
	// choices was paid too). It is nil when no attempt says, never 0, so
	// that an unknown cost cannot be summed as a free call; a cost outside
	// ValidCost is never taken (it is named in Unread).
	Cost *float64 `json:"cost"`

	// Unread names the usage fields the response held in a shape that
	// could not be read (a count that is not a whole number, a cost that
	// is not a number), with the value as sent: they are left 0 (nil for
	// Cost) and the answer is kept, since usage is accounting, not the
	// answer.
	Unread []string `json:"unread,omitempty"`

	// Estimated is set when the token counts are estimates from the
	// text's length (Tokens), not counted by a provider: the offline
	// models' (Response.Estimate).
	Estimated bool `json:"estimated,omitempty"`
}

// MaxCallCost bounds the cost of one call (every attempt), in USD. No honest
// call costs that much (a million output tokens at $100 per million is
// $100), and a bound per call keeps every sum of costs finite: a server
// that reported 1e308 made the run's total +Inf, which no report can hold
// (issue 32).
const MaxCallCost = 1000

// MaxTokenCount bounds a token count one response may report (2^40, a
// million times any context window): with at most 2,000,000 calls of at
// most four counts each, no sum of counts can overflow an int64.
const MaxTokenCount = 1 << 40

// ValidCost reports whether c is a cost the harness takes: finite, not
// negative, at most MaxCallCost. A negative cost would let requests past
// --max-cost and show as a refund.
func ValidCost(c float64) bool { return c >= 0 && c <= MaxCallCost }

// Attempt is one HTTP attempt of a call, kept in the transcript so that
// retries, rate limits and timeouts are visible after the fact.
type Attempt struct {
	Number     int       `json:"number"`      // 1-based
	StartedAt  time.Time `json:"started_at"`  // when the request was sent
	DurationMS int64     `json:"duration_ms"` // until the body was read or the attempt failed
	Status     int       `json:"status"`      // HTTP status; 0 when no response arrived
	Error      string    `json:"error"`       // why the attempt failed; "" for the attempt that succeeded

	// RetryAfterMS is the wait the server asked for in Retry-After or
	// retry-after-ms, before any cap; 0 when it asked for none.
	RetryAfterMS int64 `json:"retry_after_ms"`
	// WaitMS is how long the client waited after this attempt before the
	// next one; 0 for the last attempt.
	WaitMS int64 `json:"wait_ms"`

	// GenerationID is the attempt's generation id, from its first chunk
	// (or its body's id): what GET /generation?id= prices afterwards. ""
	// when no chunk arrived.
	GenerationID string `json:"generation_id,omitempty"`
	// Provider is the upstream that served the attempt, as its chunks name it.
	Provider string `json:"provider,omitempty"`
	// Cost is the usage.cost this attempt reported; nil when it reported
	// none (an interrupted stream reports none: see GenerationID).
	Cost *float64 `json:"cost,omitempty"`
	// Interrupted says the caller gave up (a job deadline, a cancelled run,
	// a signal) with the attempt in flight: its stream was closed as sent.
	Interrupted bool `json:"interrupted,omitempty"`
	// Changed names what changed mid-stream: a chunk that named another
	// served model or generation id than the first chunk ("model a → b",
	// "generation id x → y"). The attempt keeps the first chunk's; the
	// answer may be another model's, or two generations' (issue 53).
	Changed []string `json:"changed,omitempty"`
}

// Response is the outcome of a call: the answer when there is one, and
// everything the transcript needs either way.
type Response struct {
	Content      string `json:"content"`       // choices[0].message.content, exactly as returned
	FinishReason string `json:"finish_reason"` // choices[0].finish_reason, e.g. "stop", "length"
	// NativeFinishReason is choices[0].native_finish_reason, the upstream's
	// own reason before OpenRouter normalised it (e.g. "end_turn",
	// "max_tokens", "MAX_TOKENS"); "" if absent.
	NativeFinishReason string `json:"native_finish_reason,omitempty"`
	// Reasoning is choices[0].message.reasoning, the reasoning text of a
	// reasoning model; when that is absent, the text and summary entries of
	// message.reasoning_details joined by newlines. "" when the model
	// returned none (or was asked to exclude it).
	Reasoning   string `json:"reasoning,omitempty"`
	Usage       Usage  `json:"usage"`
	Provider    string `json:"provider"`     // top-level "provider" (OpenRouter's upstream), "" if absent
	ModelServed string `json:"model_served"` // top-level "model": what actually answered
	ID          string `json:"id"`           // top-level "id"

	// RawBody is the response body of the final attempt. A body that is not
	// JSON is kept as a JSON string, so a transcript holding it is still
	// valid JSON.
	RawBody json.RawMessage `json:"raw_body"`

	LatencyMS int64     `json:"latency_ms"` // duration of the final attempt
	Attempts  []Attempt `json:"attempts"`   // every attempt, failed ones included

	// streamChanged is what changed mid-stream (Attempt.Changed), for
	// the attempt that read this response.
	streamChanged []string
}

// ReasoningExhausted reports whether the model ran out of its token budget
// while reasoning, so that the answer is missing or cut short because the
// budget went to thinking rather than to the answer. It is true when
//
//	finish_reason = "length"  and  (content is blank  or  reasoning_tokens ≥ ½·completion_tokens)
//
// Blank content counts even when no reasoning tokens are reported, since
// some providers do not report them. A nil Response is not exhausted.
func (r *Response) ReasoningExhausted() bool {
	if r == nil || r.FinishReason != "length" {
		return false
	}
	if strings.TrimSpace(r.Content) == "" {
		return true
	}
	u := r.Usage
	return u.CompletionTokens > 0 && 2*u.ReasoningTokens >= u.CompletionTokens
}

// Client is anything that answers chat requests: the OpenRouter client and
// the offline models alike.
type Client interface {
	// Complete sends req and returns the response. On failure it still
	// returns the partial Response (with its Attempts) when at least one
	// attempt was made, so the failure can be recorded.
	Complete(ctx context.Context, req Request) (*Response, error)
}

// ErrFatal marks failures that every further request to the same model
// would meet (a bad key, exhausted credit, an unknown, retired or
// unroutable model, an API that cannot be reached: [ScopeModel]): callers
// stop the model's jobs not yet started instead of sending them.
// Test with errors.Is(err, ErrFatal).
var ErrFatal = errors.New("fatal API error")

// ErrRequest marks a failure of one request ([ScopeRequest]): a refusal, a
// content policy, moderation or guardrail block, a prompt or output too
// long, the max_tokens reservation of 402, no endpoint for the request's
// parameters. That job fails with its reason; the model's other jobs go
// on. Test with errors.Is(err, ErrRequest).
var ErrRequest = errors.New("request refused")

// ErrContextLength marks a request refused because its prompt (plus
// max_tokens) does not fit the model's context. It fails that request
// only: it is neither retried nor fatal for the model, whose shorter
// prompts still fit. Test with errors.Is(err, ErrContextLength).
var ErrContextLength = errors.New("prompt exceeds the model's context length")

// ErrOutOfCredit marks the exhausted credit of 402 (not the reservation
// of one request's max_tokens): the run cannot go on until credit is
// added. It also matches ErrFatal.
var ErrOutOfCredit = errors.New("out of credit")

// ErrRateLimited marks a rate limit (429, or error_type
// rate_limit_exceeded) that outlasted the retries.
var ErrRateLimited = errors.New("rate limited")

// APIError is a failure that outlasted the retries or was not retryable.
type APIError struct {
	// Status is the HTTP status of the final attempt; 0 when no response
	// arrived (transport failure or attempt timeout). A failure reported
	// inside an HTTP 200 body keeps Status 200 and its code in Code.
	Status int
	// Code is the error code from the body's error object (OpenRouter sends
	// the HTTP status as a number; it is kept in decimal), or one of
	// the client's own codes (CodeTimeout, CodeIdle, CodeTransport, ...).
	Code    string
	Message string
	// Type is error.metadata.error_type, OpenRouter's stable typed code
	// ("refusal", "rate_limit_exceeded", ...); "" when absent.
	Type string
	// ProviderCode is error.metadata.provider_code, the upstream's own code.
	ProviderCode string
	// ProviderName is error.metadata.provider_name: the upstream that
	// failed, when OpenRouter names it.
	ProviderName string
	// Raw is error.metadata.raw, the upstream's own error, as text: a JSON
	// string as its value, anything else (often an object) as its JSON.
	Raw string
	// Reasons and FlaggedInput are a moderation error's metadata.reasons
	// and metadata.flagged_input.
	Reasons      []string
	FlaggedInput string
	// Availability is error.availability, when the failure says whether a
	// provider may serve the model later.
	Availability *Availability

	// Scope says what the failure is about (see [Scope]) and Reason why,
	// from the classification table of the package comment.
	Scope  Scope
	Reason string
	// Retryable is Scope == ScopeRetry: the failure was of a kind that is
	// retried.
	Retryable bool

	guardrail bool // metadata.patterns was present: a guardrail block
}

// Availability is OpenRouter's error.availability object.
type Availability struct {
	Code           string   `json:"code"`
	Retryable      bool     `json:"retryable"`
	RetryAfter     float64  `json:"retry_after"`
	FallbackModels []string `json:"fallback_models"`
}

// classified sets e's Scope, Reason and Retryable from its fields and
// returns e.
func (e *APIError) classified() *APIError {
	e.Scope, e.Reason = classify(e)
	e.Retryable = e.Scope == ScopeRetry
	return e
}

// Codes that the client assigns itself when the server sent none.
const (
	CodeTimeout       = "attempt_timeout" // no answer within the attempt timeout (listing calls)
	CodeIdle          = "idle_timeout"    // no byte of the stream, keep-alives included, within the idle timeout
	CodeTransport     = "transport"       // connection failed or broke
	CodeUnreachable   = "unreachable"     // connection refused, unknown host or bad TLS: not retried, fatal
	CodeBadResponse   = "bad_response"    // HTTP 200 whose body is not JSON
	CodeNoChoices     = "no_choices"      // HTTP 200 JSON without choices
	CodeTooLarge      = "too_large"       // a body over MaxResponseSize, not retried
	CodeBlank         = "blank"           // no content and no finish reason: not billed, retried
	CodeCutShort      = "cut_short"       // a stream that ended before its finish reason, retried
	CodeContentFilter = "content_filter"  // finish_reason content_filter: the provider's filter stopped the output
)

// Error prints as "HTTP 429: message", "HTTP 200 (502): message" or
// "no response (attempt_timeout): message", followed by
// " [provider: raw]" when the body named the upstream or quoted its error,
// and " {error_type}" when the body typed it.
func (e *APIError) Error() string {
	var b strings.Builder
	if e.Status == 0 {
		b.WriteString("no response")
	} else {
		b.WriteString("HTTP ")
		b.WriteString(strconv.Itoa(e.Status))
	}
	if e.Code != "" && e.Code != strconv.Itoa(e.Status) {
		b.WriteString(" (")
		b.WriteString(e.Code)
		b.WriteString(")")
	}
	if e.Type != "" {
		b.WriteString(" ")
		b.WriteString(e.Type)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.ProviderName != "" || e.Raw != "" {
		b.WriteString(" [")
		b.WriteString(e.ProviderName)
		if e.ProviderName != "" && e.Raw != "" {
			b.WriteString(": ")
		}
		b.WriteString(snippet([]byte(e.Raw)))
		b.WriteString("]")
	}
	return b.String()
}

// Is reports whether target is
//   - ErrFatal, and the scope is ScopeModel;
//   - ErrRequest, and the scope is ScopeRequest;
//   - ErrContextLength, and the error is a context-length one (see the
//     package comment for how it is recognised);
//   - ErrOutOfCredit, and it is the exhausted credit of 402;
//   - ErrRateLimited, and it is a rate limit.
func (e *APIError) Is(target error) bool {
	if e.Scope == "" {
		e.classified()
	}
	switch target {
	case ErrFatal:
		return e.Scope == ScopeModel
	case ErrRequest:
		return e.Scope == ScopeRequest
	case ErrContextLength:
		return e.contextLength()
	case ErrOutOfCredit:
		return e.Scope == ScopeModel && (e.effectiveStatus() == 402 || e.Type == "payment_required")
	case ErrRateLimited:
		return e.effectiveStatus() == 429 || e.Type == "rate_limit_exceeded"
	}
	return false
}

// contextPhrases are what OpenRouter and the upstreams say when a prompt
// does not fit, lower-cased: OpenRouter's own check ("This endpoint's
// maximum context length is N tokens. However, you requested about M
// tokens ..."), OpenAI's code and message, Anthropic's "prompt is too
// long: N tokens > M maximum", Gemini's "input token count ... exceeds the
// maximum number of tokens allowed", and the generic "too many tokens".
var contextPhrases = []string{
	"context length", "context_length", "maximum context", "context window",
	"prompt is too long", "too many tokens", "exceeds the maximum number of tokens",
}

// contextLength reports whether e is a prompt too long for the model: a
// 400 (as the HTTP status or, inside a 200, as the code), or the code
// "context_length_exceeded" whatever the status, whose message or raw
// upstream error contains one of contextPhrases.
func (e *APIError) contextLength() bool {
	if e.Code == "context_length_exceeded" || e.Type == "context_length_exceeded" {
		return true
	}
	if e.Status != 400 && e.Code != "400" {
		return false
	}
	text := strings.ToLower(e.Message + "\n" + e.Raw)
	for _, p := range contextPhrases {
		if strings.Contains(text, p) {
			return true
		}
	}
	return false
}

// ModelInfo is one entry of the provider's model list (/models,
// /models/user), as the preflight reads it and run.json records it.
type ModelInfo struct {
	ID string `json:"id"`
	// CanonicalSlug is the listing's canonical_slug: the name OpenRouter
	// gives the model it served ("anthropic/claude-4.7-opus-20260416" for
	// "anthropic/claude-opus-4.7"), read by [ServedAsAsked]; "" when the
	// listing gives none.
	CanonicalSlug string `json:"canonical_slug,omitempty"`
	// PromptPrice and CompletionPrice are USD per token; nil when the list
	// gives no fixed price (missing, unparsable, or OpenRouter's "-1" for
	// variable-price routers).
	PromptPrice     *float64 `json:"prompt_price"`
	CompletionPrice *float64 `json:"completion_price"`
	// CacheReadPrice and CacheWritePrice are USD per prompt token read
	// from or written to the provider's prompt cache
	// (pricing.input_cache_read, input_cache_write); nil when not listed.
	CacheReadPrice  *float64 `json:"cache_read_price,omitempty"`
	CacheWritePrice *float64 `json:"cache_write_price,omitempty"`
	// InternalReasoningPrice is pricing.internal_reasoning, USD per
	// reasoning token when it differs from the completion price; nil
	// when not listed or listed as "0" (reasoning tokens are then
	// completion tokens, as OpenRouter bills them: listings have carried
	// "0" on reasoning models, issue 52).
	InternalReasoningPrice *float64 `json:"internal_reasoning_price,omitempty"`
	// RequestPrice is pricing.request, USD per request; nil when not
	// listed.
	RequestPrice *float64 `json:"request_price,omitempty"`
	// PriceOverrides are pricing.overrides: other prices for long prompts
	// (or times of day), in the listing's order. See [ModelInfo.PricesFor].
	PriceOverrides []PriceOverride `json:"price_overrides,omitempty"`
	// PriceWarnings name the listed prices read as unknown because no
	// estimate could use them (not finite, above MaxTokenPrice).
	PriceWarnings []string `json:"price_warnings,omitempty"`

	SupportedParameters []string `json:"supported_parameters,omitempty"` // e.g. "temperature", "seed", "response_format"
	ContextLength       int      `json:"context_length"`                 // tokens; 0 when unknown
	// MaxCompletionTokens is top_provider.max_completion_tokens, the most
	// output tokens one request may ask for (reasoning included); 0 when
	// unknown. A budget above it finds no endpoint (OpenRouter's 404).
	MaxCompletionTokens int `json:"max_completion_tokens"`
	// Reasoning is the listing's reasoning object: the model's defaults and
	// the efforts it takes; nil when the listing has none.
	Reasoning *ReasoningInfo `json:"reasoning,omitempty"`
	// ExpirationDate is expiration_date ("2026-12-31"), the day the model
	// leaves the listing; "" when none is announced.
	ExpirationDate string `json:"expiration_date,omitempty"`
}

// Supports reports whether the listing says the model takes param (an
// OpenRouter request parameter name such as "temperature" or "seed";
// case matters). A listing without supported_parameters (nil or empty)
// says nothing, and every parameter counts as supported: OpenRouter lists
// them for every model, so only proxies and fakes leave them out, and
// refusing every parameter there would stop runs that work.
func (m ModelInfo) Supports(param string) bool {
	return len(m.SupportedParameters) == 0 || slices.Contains(m.SupportedParameters, param)
}

// determinismParams are the request parameters that make a model's answer
// repeatable, in the order Determinism reports them.
var determinismParams = []string{"temperature", "seed"}

// Determinism splits the determinism controls, "temperature" and "seed" in
// that order, into those the model honours and those it lacks, by
// [ModelInfo.Supports]. A request should send only the honoured ones, and
// a report should say which were lacking: OpenRouter drops an unsupported
// parameter silently, so sending it proves nothing.
func (m ModelInfo) Determinism() (honoured, lacking []string) {
	for _, p := range determinismParams {
		if m.Supports(p) {
			honoured = append(honoured, p)
		} else {
			lacking = append(lacking, p)
		}
	}
	return honoured, lacking
}

// LocalResponse is the response of a model answered in-process (the offline
// reference models and judge): one successful attempt, a chat-completion
// body around content, provider "offline", and a known cost of 0.
func LocalResponse(modelName, id, content string) *Response {
	zero := 0.0
	body, _ := json.Marshal(map[string]any{
		"id": id, "model": modelName,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
	})
	return &Response{
		Content:      content,
		FinishReason: "stop",
		Usage:        Usage{Cost: &zero},
		Provider:     "offline",
		ModelServed:  modelName,
		ID:           id,
		RawBody:      body,
		Attempts:     []Attempt{{Number: 1, StartedAt: time.Now().UTC(), Status: 200}},
	}
}

// Estimate fills r's token counts for a local model, which counts none,
// with estimates from the text's length (Tokens): the prompt's (every
// message and part of req) and the answer's, marked Estimated, so that
// reports of offline runs show sizes rather than zeros.
func (r *Response) Estimate(req Request) *Response {
	n := 0
	for _, m := range req.Messages {
		n += len(m.Content)
		for _, p := range m.Parts {
			n += len(p.Text)
		}
	}
	r.Usage.PromptTokens, r.Usage.CompletionTokens = int64(Tokens(n)), int64(Tokens(len(r.Content)))
	r.Usage.Estimated = true
	return r
}

// Tokens estimates the tokens of n bytes of prompt or document text: one
// token per three bytes (integer division). It is deliberately generous (JSON
// tokenizes at three to four bytes a token), so that an output budget
// fits, a context check refuses rather than truncates, and a cost
// estimate or a spending cap errs on the side of more. It is the harness's
// one token estimate.
func Tokens(n int) int { return n / 3 }
