package model

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// DefaultBaseURL is OpenRouter's OpenAI-compatible API root.
const DefaultBaseURL = "https://openrouter.ai/api/v1"

// Environment variables the command reads; the package reads none by itself
// except through [BaseURLFromEnv] and [APIKeyFromEnv], which the caller
// chooses to call.
const (
	EnvAPIKey  = "OPENROUTER_API_KEY"
	EnvBaseURL = "OPENROUTER_BASE_URL"
)

// Attribution headers OpenRouter uses to credit the calling app.
const (
	DefaultReferer = "https://bendscript.com/round-trip-harness"
	DefaultTitle   = "BendScript round-trip harness"
)

// BaseURLFromEnv returns $OPENROUTER_BASE_URL when it is set and non-empty,
// else [DefaultBaseURL].
func BaseURLFromEnv() string {
	if u := os.Getenv(EnvBaseURL); u != "" {
		return u
	}
	return DefaultBaseURL
}

// OpenRouter is a [Client] for OpenRouter's OpenAI-compatible chat API. It
// does its own retries so that every attempt is recorded and Retry-After is
// honoured exactly. It is safe for concurrent use.
type OpenRouter struct {
	cfg    config
	urlErr error // a bad base URL, reported by every call
	chat   openai.ChatCompletionService
	models openai.ModelService
	// api makes the calls the SDK has no service for (GET /generation):
	// a client value built from the same options, never openai.NewClient,
	// which would read OPENAI_* variables.
	api openai.Client
}

var _ Client = (*OpenRouter)(nil)

type config struct {
	baseURL        string
	apiKey         string
	httpClient     *http.Client
	maxRetries     int
	attemptTimeout time.Duration // bounds a listing call
	idleTimeout    time.Duration // bounds a chat stream's silence
	backoffBase    time.Duration
	backoffMax     time.Duration
	// bookkeeping bounds each bookkeeping call (a GET: /generation, /key,
	// the listings, the endpoints), all its attempts and waits included,
	// and bookkeepingRetries are its retries.
	bookkeeping        time.Duration
	bookkeepingRetries int
	headers            map[string]string
	sleep              func(context.Context, time.Duration) error
}

// Option configures an [OpenRouter] client, in the manner of openai-go's
// option package.
type Option func(*config)

// WithBaseURL sets the API root (default [DefaultBaseURL]); requests go to
// {base}/chat/completions and {base}/models.
func WithBaseURL(u string) Option { return func(c *config) { c.baseURL = u } }

// WithAPIKey sets the key sent as "Authorization: Bearer KEY".
func WithAPIKey(key string) Option { return func(c *config) { c.apiKey = key } }

// WithMaxRetries sets how many times a failed attempt is retried (default 4,
// so at most 5 attempts). Negative counts as 0.
func WithMaxRetries(n int) Option { return func(c *config) { c.maxRetries = max(n, 0) } }

// WithAttemptTimeout bounds each attempt of a listing call (GET), body
// included (default 120s). Chat calls stream and are bounded by
// [WithIdleTimeout] instead. The caller's context bounds the whole call.
func WithAttemptTimeout(d time.Duration) Option { return func(c *config) { c.attemptTimeout = d } }

// WithIdleTimeout closes a chat stream when no byte (keep-alive comments
// included) has arrived for d (default 120s), and retries it. An answer
// that keeps arriving is never cut, however long it takes: the caller's
// context (the job's timeout) is the outer bound. 0 or less disables it.
func WithIdleTimeout(d time.Duration) Option { return func(c *config) { c.idleTimeout = d } }

// WithBookkeeping bounds each call the harness makes for its own
// accounting (GET /generation, /key, /models, /models/user, a model's
// endpoints): d bounds the whole call, every attempt and wait included
// (default 20s), and retries are its retries (default 2; negative counts
// as 0), whatever [WithMaxRetries] says. Chat calls are not bookkeeping.
func WithBookkeeping(d time.Duration, retries int) Option {
	return func(c *config) { c.bookkeeping, c.bookkeepingRetries = d, max(retries, 0) }
}

// WithBackoff sets the exponential backoff: the wait before retry n (0-based)
// is uniform in [0, min(max, base·2ⁿ)] (full jitter). Defaults: 1s, 30s.
// A server-requested wait is used instead, capped at 2·max.
func WithBackoff(base, max time.Duration) Option {
	return func(c *config) { c.backoffBase, c.backoffMax = base, max }
}

// WithHeaders sets extra request headers, replacing defaults of the same
// name; an empty value removes the header. The defaults are OpenRouter's
// attribution headers HTTP-Referer and X-Title, and
// X-OpenRouter-Metadata: enabled (MetadataHeader).
func WithHeaders(h map[string]string) Option {
	return func(c *config) {
		for k, v := range h {
			c.headers[http.CanonicalHeaderKey(k)] = v
		}
	}
}

// WithSleep replaces the wait between attempts. Tests use it to record the
// waits instead of sleeping; sleep must return ctx.Err() if ctx ends first.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) { c.sleep = sleep }
}

// NewOpenRouter returns a client configured by opts.
func NewOpenRouter(opts ...Option) *OpenRouter {
	cfg := config{
		baseURL:        DefaultBaseURL,
		maxRetries:     4,
		attemptTimeout: 120 * time.Second,
		idleTimeout:    120 * time.Second,
		backoffBase:    time.Second,
		backoffMax:     30 * time.Second,
		bookkeeping:    20 * time.Second,
		headers:        defaultHeaders(),
		sleep:          sleepCtx,

		bookkeepingRetries: 2,
	}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.httpClient = defaultHTTPClient()
	// The per-service constructors, unlike openai.NewClient, read no
	// OPENAI_* variables: an admin key or organisation id from the
	// environment must never be sent to OpenRouter.
	sdk := []option.RequestOption{
		option.WithBaseURL(cfg.baseURL),
		option.WithHTTPClient(cfg.httpClient),
		option.WithMaxRetries(0),
	}
	if cfg.apiKey != "" {
		sdk = append(sdk, option.WithAPIKey(cfg.apiKey))
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.headers)) {
		if v := cfg.headers[k]; v != "" {
			sdk = append(sdk, option.WithHeader(k, v))
		}
	}
	return &OpenRouter{
		cfg:    cfg,
		urlErr: checkBaseURL(cfg.baseURL),
		chat:   openai.NewChatCompletionService(sdk...),
		models: openai.NewModelService(sdk...),
		api:    openai.Client{Options: sdk},
	}
}

// checkBaseURL rejects a base URL that no request could use, so that a
// typo fails at once instead of being retried as a transport error.
func checkBaseURL(base string) error {
	if err := CheckBaseURL(base); err != nil {
		return fmt.Errorf("%w: %w", err, ErrFatal)
	}
	return nil
}

// CheckBaseURL reports why base cannot be an API root: not http(s)://host,
// or carrying a user, a password, a query or a fragment. Credentials
// belong in OPENROUTER_API_KEY: a base URL is written to run.json and
// printed in the resume command, and the client sends no query (issue 32:
// "http://user:PASS@host" and "?key=..." were archived and printed, and
// the query silently dropped). The error never repeats the secret parts.
func CheckBaseURL(base string) error {
	u, err := url.Parse(base)
	if err != nil {
		return fmt.Errorf("base URL: not a URL (want http(s)://host/path)")
	}
	shown := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
	switch {
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		return fmt.Errorf("base URL %q: want http(s)://host/path", shown)
	case u.User != nil:
		return fmt.Errorf("base URL %q: holds a user or password; put the key in %s, never in the URL (the URL is written to run.json and printed)", shown, EnvAPIKey)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return fmt.Errorf("base URL %q: holds a query or fragment, which no request carries; put the key in %s, never in the URL", shown, EnvAPIKey)
	}
	return nil
}

// MaxResponseSize bounds the body of one response the client reads: a
// body beyond it fails the attempt with code CodeTooLarge, not retried
// (another attempt would be as large, and paid again). Everything below it
// is kept: the transcript archive is sized for it (transcript.MaxSize).
const MaxResponseSize = 64 << 20

// ErrResponseTooLarge is the read error of a body over MaxResponseSize.
var ErrResponseTooLarge = fmt.Errorf("response body over the %d-byte limit", MaxResponseSize)

// limitTransport bounds every response body at MaxResponseSize.
type limitTransport struct{ base http.RoundTripper }

func (t limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := t.base.RoundTrip(req)
	if res != nil && res.Body != nil {
		res.Body = &limitedBody{rc: res.Body, left: MaxResponseSize}
	}
	return res, err
}

// limitedBody reads up to left bytes, then fails with ErrResponseTooLarge.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, ErrResponseTooLarge
		}
		return b.rc.Read(p[:0])
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// defaultHTTPClient raises the idle connections kept per host from Go's
// default of 2, since every call goes to one host and the runner calls it
// concurrently; without it most calls would open a new TLS connection.
func defaultHTTPClient() *http.Client {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		// DefaultTransport was wrapped (tracing); keep the wrapper.
		return &http.Client{Transport: limitTransport{http.DefaultTransport}}
	}
	t = t.Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: limitTransport{t}}
}

// Complete sends req to {base}/chat/completions, retrying as documented in
// the package comment. The returned Response is nil only when nothing was
// sent because req or the base URL is invalid.
func (c *OpenRouter) Complete(ctx context.Context, req Request) (*Response, error) {
	if c.urlErr != nil {
		return nil, c.urlErr
	}
	params, err := chatParams(req)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", req.Model, err)
	}
	attempt := func(ctx context.Context) (exchange, *APIError) {
		return c.cfg.streamAttempt(ctx, &c.chat, params)
	}
	var paid paidAttempts
	out, ex, attempts, err := retryWith(ctx, &c.cfg, attempt, paid.interpret)
	resp := &Response{Attempts: attempts}
	if out != nil {
		*resp = *out
		resp.Attempts = attempts
	}
	resp.Usage.Cost = paid.total(&resp.Usage)
	resp.RawBody = rawBody(ex.body)
	resp.LatencyMS = ex.durationMS
	if err != nil {
		return resp, fmt.Errorf("model %s: %w", req.Model, err)
	}
	return resp, nil
}

// paidAttempts sums the cost every attempt's body reported, so that a
// call retried after a paid 200 (no choices, an error inside the body)
// counts every charge, not only the last (issue 32: three such attempts at
// $0.50 each were counted as $0.50).
type paidAttempts struct {
	usd   float64
	known bool
}

// interpret is interpretChat (interpretStream for a stream), noting the
// attempt's cost.
func (p *paidAttempts) interpret(ex exchange) (*Response, *APIError) {
	read := interpretChat
	if ex.sse {
		read = interpretStream
	}
	r, err := read(ex)
	if r != nil && r.Usage.Cost != nil {
		p.usd += *r.Usage.Cost
		p.known = true
	}
	return r, err
}

// total is the summed cost, nil when no attempt reported one or the sum
// is beyond ValidCost (then named in u's Unread).
func (p *paidAttempts) total(u *Usage) *float64 {
	switch {
	case !p.known:
		return nil
	case !ValidCost(p.usd):
		u.Unread = append(u.Unread, fmt.Sprintf("cost: the attempts sum to %g, over the %d-dollar bound of a call", p.usd, MaxCallCost))
		return nil
	}
	usd := p.usd
	return &usd
}

// chatParams maps req to the SDK's request type. OpenRouter's own fields
// (provider, reasoning, cache_control) are not in the SDK's types and go
// in as extra fields, which the SDK merges into the JSON it sends.
func chatParams(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: req.Model}
	if req.Model == "" {
		return p, fmt.Errorf("no model given: %w", ErrFatal)
	}
	if req.Temperature != nil {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if req.Seed != nil {
		p.Seed = openai.Int(*req.Seed)
	}
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	for i, m := range req.Messages {
		msg, err := chatMessage(m)
		if err != nil {
			return p, fmt.Errorf("message %d: %w", i, err)
		}
		p.Messages = append(p.Messages, msg)
	}
	if len(req.JSONSchema) > 0 {
		if !json.Valid(req.JSONSchema) {
			return p, fmt.Errorf("JSON schema is not valid JSON: %w", ErrFatal)
		}
		name := req.SchemaName
		if name == "" {
			name = "response"
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   name,
					Strict: openai.Bool(true),
					Schema: req.JSONSchema,
				},
			},
		}
	}
	extra := map[string]any{}
	if req.SessionID != "" {
		extra["session_id"] = req.SessionID
	}
	if req.Provider != nil {
		extra["provider"] = req.Provider
	}
	if r := req.Reasoning; r != nil {
		if r.Effort != "" && r.MaxTokens > 0 {
			return p, fmt.Errorf("reasoning sets both effort and max_tokens, which OpenRouter takes as alternatives: %w", ErrFatal)
		}
		extra["reasoning"] = r
	}
	if len(extra) > 0 {
		p.SetExtraFields(extra)
	}
	return p, nil
}

// chatMessage maps one message: plain content as a string, parts as an
// array of text content parts.
func chatMessage(m Message) (openai.ChatCompletionMessageParamUnion, error) {
	if len(m.Parts) > 0 && m.Content != "" {
		return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("both content and parts set: %w", ErrFatal)
	}
	if len(m.Parts) == 0 {
		switch m.Role {
		case "system":
			return openai.SystemMessage(m.Content), nil
		case "developer":
			return openai.DeveloperMessage(m.Content), nil
		case "user":
			return openai.UserMessage(m.Content), nil
		case "assistant":
			return openai.AssistantMessage(m.Content), nil
		}
		return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q: %w", m.Role, ErrFatal)
	}
	parts := make([]openai.ChatCompletionContentPartTextParam, len(m.Parts))
	for i, p := range m.Parts {
		parts[i] = openai.ChatCompletionContentPartTextParam{Text: p.Text}
		if p.Cache {
			parts[i].SetExtraFields(map[string]any{"cache_control": map[string]string{"type": "ephemeral"}})
		}
	}
	switch m.Role {
	case "system":
		return openai.SystemMessage(parts), nil
	case "developer":
		return openai.DeveloperMessage(parts), nil
	case "user":
		union := make([]openai.ChatCompletionContentPartUnionParam, len(parts))
		for i := range parts {
			union[i] = openai.ChatCompletionContentPartUnionParam{OfText: &parts[i]}
		}
		return openai.UserMessage(union), nil
	case "assistant":
		union := make([]openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion, len(parts))
		for i := range parts {
			union[i] = openai.ChatCompletionAssistantMessageParamContentArrayOfContentPartUnion{OfText: &parts[i]}
		}
		return openai.AssistantMessage(union), nil
	}
	return openai.ChatCompletionMessageParamUnion{}, fmt.Errorf("unknown role %q: %w", m.Role, ErrFatal)
}

// ListModels fetches {base}/models, retrying like Complete.
func (c *OpenRouter) ListModels(ctx context.Context) ([]ModelInfo, error) {
	if c.urlErr != nil {
		return nil, c.urlErr
	}
	call := func(ctx context.Context, opts ...option.RequestOption) error {
		_, err := c.models.List(ctx, opts...)
		return err
	}
	out, err := bookkept(ctx, &c.cfg, call, interpretModels)
	if err != nil {
		return nil, fmt.Errorf("listing models: %w", err)
	}
	return out, nil
}

// bookkept is retry for a bookkeeping call: bounded in all by the
// client's bookkeeping deadline, with its few retries, each attempt
// within the deadline. A call the deadline ends is an *APIError with
// CodeTimeout (not retryable); one the caller's ctx ends is ctx.Err().
func bookkept[T any](ctx context.Context, c *config, call sdkCall, interpret func(exchange) (T, *APIError)) (T, error) {
	bc := *c
	bc.maxRetries = c.bookkeepingRetries
	if c.bookkeeping > 0 {
		bc.attemptTimeout = min(c.attemptTimeout, c.bookkeeping)
	}
	bctx, cancel := ctx, context.CancelFunc(func() {})
	if c.bookkeeping > 0 {
		bctx, cancel = context.WithTimeout(ctx, c.bookkeeping)
	}
	defer cancel()
	out, _, _, err := retry(bctx, &bc, call, interpret)
	if err != nil && ctx.Err() == nil && bctx.Err() != nil {
		var zero T
		return zero, (&APIError{Code: CodeTimeout, Message: fmt.Sprintf("no answer within %v (timeouts.bookkeeping)", c.bookkeeping)}).classified()
	}
	return out, err
}

// redact removes the API key from text the client keeps or returns. Keys
// shorter than 8 bytes are not real keys and are left alone, so that a
// test key such as "k" cannot mangle every body.
func (c *config) redact(s string) string {
	if len(c.apiKey) < 8 || !strings.Contains(s, c.apiKey) {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, "[REDACTED]")
}

// redactDepth bounds how many levels of JSON string nesting redactBody
// decodes: the body's literals, the answer's own JSON inside them, a
// string inside that, and one more.
const redactDepth = 4

// redactBody removes the API key from a response body in every form the
// harness decodes: as sent, and inside JSON string literals however deeply
// they nest (the body's content holds the answer's JSON, whose strings
// scoring decodes again: a key spelled "sk\\u002dor…" passed a one-level
// redaction and reached the viewer and `harness show`, issue 32). A body
// that still spells the key once every escape is decoded, where no
// literal could be found to redact, is replaced whole by a JSON string
// that says so: the key is never kept.
func (c *config) redactBody(body []byte) []byte {
	if len(c.apiKey) < 8 {
		return body
	}
	out := c.redactNested(string(body), redactDepth)
	if spellsKey(out, c.apiKey) {
		q, _ := json.Marshal("[REDACTED: the response spelled the API key in an encoded form; the body is not kept]")
		return q
	}
	return []byte(out)
}

// redactNested replaces the key in s, then each JSON string literal of s
// that holds a backslash is decoded, redacted to depth-1 levels, and
// re-encoded when that changed it. The scan needs no valid JSON and no
// size limit: outside string literals JSON has no escapes.
func (c *config) redactNested(s string, depth int) string {
	s = c.redact(s)
	if depth == 0 || strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var out strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		end, escaped := literalEnd(s, i)
		if end < 0 {
			break
		}
		if escaped {
			var lit string
			if json.Unmarshal([]byte(s[i:end+1]), &lit) == nil {
				if r := c.redactNested(lit, depth-1); r != lit {
					q, _ := json.Marshal(r)
					out.WriteString(s[last:i])
					out.Write(q)
					last = end + 1
				}
			}
		}
		i = end
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
}

// literalEnd returns the index of the quote that closes the string
// literal opening at s[i] (-1 when none does) and whether it holds an
// escape.
func literalEnd(s string, i int) (end int, escaped bool) {
	for end = i + 1; end < len(s) && s[end] != '"'; end++ {
		if s[end] == '\\' {
			escaped = true
			end++
		}
	}
	if end >= len(s) {
		return -1, escaped
	}
	return end, escaped
}

// spellsKey reports whether s holds key once its JSON escapes are decoded
// wherever they stand, level after level (redactDepth levels).
func spellsKey(s, key string) bool {
	for range redactDepth + 1 {
		if strings.Contains(s, key) {
			return true
		}
		if strings.IndexByte(s, '\\') < 0 {
			return false
		}
		s = unescapeAll(s)
	}
	return strings.Contains(s, key)
}

// unescapeAll decodes every JSON escape of s (\\uXXXX, \\n, \\", ...) wherever
// it stands, in or out of a well-formed literal; an unknown escape is
// kept as it is.
func unescapeAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			if n, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(n))
				i += 5
				continue
			}
		}
		if r, ok := simpleEscapes[s[i+1]]; ok {
			b.WriteByte(r)
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// simpleEscapes are JSON's one-letter escapes and what they stand for.
var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// rawBody returns body as JSON: as it is when it is JSON that RFC 8785 can
// canonicalize (transcripts are hashed in that form), else quoted as a JSON
// string, so that no body a server sends, garbage or a number beyond a
// double (1E400), can make a transcript unhashable; nil when empty.
func rawBody(body []byte) json.RawMessage {
	if len(body) == 0 {
		return nil
	}
	if canonicalizable(body) {
		return json.RawMessage(body)
	}
	q, _ := json.Marshal(string(body))
	return q
}

// canonicalizable reports whether body is JSON with an RFC 8785 form.
func canonicalizable(body []byte) bool {
	v, err := bend.ParseValue(body)
	if err != nil {
		return false
	}
	_, err = bend.CanonicalValue(v)
	return err == nil
}
