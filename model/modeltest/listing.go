package modeltest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The listing side of the fake, as OpenRouter documents it today
// (../shared/OPENROUTER.md): GET /models, /models/user,
// /models/{author}/{slug}/endpoints and /key, and the bill of a chat
// request computed from the listing's prices (Bill, Priced).

// ModelEntry is one entry of the GET /models list, with prices as the
// strings OpenRouter sends (USD per token; "" leaves a price out).
type ModelEntry struct {
	ID string
	// CanonicalSlug is canonical_slug, the name OpenRouter serves the
	// model under; "" sends the ID, as every real entry has one.
	CanonicalSlug                string
	PromptPrice, CompletionPrice string // e.g. "0.000003"
	CacheReadPrice               string // pricing.input_cache_read
	CacheWritePrice              string // pricing.input_cache_write
	InternalReasoningPrice       string // pricing.internal_reasoning
	RequestPrice                 string // pricing.request
	// Overrides are pricing.overrides: other prices above a prompt length.
	Overrides []Override
	// SupportedParameters is the entry's supported_parameters. Given to
	// [Server.SetModels] or [Server.SetModel] as nil, it becomes
	// FamilyParameters(ID), which is nil (sent as null) outside the known
	// families; give a non-nil list, even an empty one, to override it.
	SupportedParameters []string
	ContextLength       int
	// MaxCompletionTokens is top_provider.max_completion_tokens; 0 sends
	// null.
	MaxCompletionTokens int
	// Reasoning is the entry's reasoning object; nil sends none.
	Reasoning *Reasoning
	// ExpirationDate is expiration_date ("2026-12-31"); "" sends null.
	ExpirationDate string
	// NotForUser leaves the entry out of /models/user: a model this
	// account cannot route (its privacy or provider settings).
	NotForUser bool
	// Endpoints are the providers /endpoints lists; nil lists one, the
	// vendor's own (the id's author), with the entry's limits.
	Endpoints []Endpoint
}

// Override is one entry of pricing.overrides.
type Override struct {
	MinPromptTokens    int    // applies to prompts longer than this
	Prompt, Completion string // USD per token
}

// Reasoning is a listing's reasoning object.
type Reasoning struct {
	DefaultEnabled    *bool    `json:"default_enabled,omitempty"`
	DefaultEffort     string   `json:"default_effort,omitempty"`
	Mandatory         bool     `json:"mandatory"`
	SupportedEfforts  []string `json:"supported_efforts,omitempty"`
	SupportsMaxTokens bool     `json:"supports_max_tokens"`
}

// Endpoint is one provider's endpoint of a model.
type Endpoint struct {
	ProviderName        string   `json:"provider_name"`
	Tag                 string   `json:"tag"`
	ContextLength       int      `json:"context_length"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
	SupportedParameters []string `json:"supported_parameters"`
	Status              int      `json:"status"`
}

// Key is what GET /key says of the key the request carries.
type Key struct {
	Label string
	// Limit and LimitRemaining are USD; nil sends null (no limit).
	Limit, LimitRemaining *float64
	Usage, BYOKUsage      float64
	// Invalid answers 401, as OpenRouter answers a key it does not know.
	Invalid bool
	// Missing answers 404, as a server that is not OpenRouter's and has
	// no /key.
	Missing bool
}

// The supported_parameters OpenRouter's /models lists for the gating
// families (2026). What matters for the harness is the determinism
// controls: Claude takes temperature but not seed, GPT-5 (a reasoning
// model) seed but not temperature, Gemini 3 both.
var (
	claudeParams  = []string{"include_reasoning", "max_tokens", "reasoning", "response_format", "stop", "structured_outputs", "temperature", "tool_choice", "tools", "top_k", "top_p"}
	gpt5Params    = []string{"include_reasoning", "max_tokens", "reasoning", "response_format", "seed", "structured_outputs", "tool_choice", "tools"}
	gemini3Params = []string{"include_reasoning", "max_tokens", "reasoning", "response_format", "seed", "stop", "structured_outputs", "temperature", "tool_choice", "tools", "top_p"}
)

// family is what today's listing gives a gating family (OPENROUTER.md's
// table, mid-2026): sizes, prices and reasoning defaults.
type family struct {
	prefix, provider    string
	params              []string
	context, maxOutput  int
	prompt, completion  string
	cacheRead, cacheWr  string
	overrides           []Override
	reasoning           Reasoning
	minCachePrefix      int  // the fewest prompt tokens the provider caches
	explicitBreakpoints bool // caches only at cache_control (Anthropic)
}

var families = []family{
	{prefix: "anthropic/claude", provider: "anthropic", params: claudeParams, context: 1000000, maxOutput: 128000,
		prompt: "0.000005", completion: "0.000025", cacheRead: "0.0000005", cacheWr: "0.00000625",
		reasoning:      Reasoning{DefaultEnabled: new(false), SupportedEfforts: []string{"low", "medium", "high", "max"}},
		minCachePrefix: 4096, explicitBreakpoints: true},
	{prefix: "openai/gpt-5", provider: "openai", params: gpt5Params, context: 1050000, maxOutput: 128000,
		prompt: "0.000002", completion: "0.00001", cacheRead: "0.0000002", cacheWr: "0.0000025",
		reasoning:      Reasoning{DefaultEnabled: new(true), DefaultEffort: "medium", SupportedEfforts: []string{"minimal", "low", "medium", "high", "xhigh"}},
		minCachePrefix: 1024},
	{prefix: "google/gemini-3", provider: "google-vertex", params: gemini3Params, context: 1048576, maxOutput: 65536,
		prompt: "0.000002", completion: "0.000012", cacheRead: "0.0000002",
		overrides:      []Override{{MinPromptTokens: 200000, Prompt: "0.000004", Completion: "0.000018"}},
		reasoning:      Reasoning{DefaultEnabled: new(true), DefaultEffort: "high", Mandatory: true, SupportedEfforts: []string{"low", "high"}},
		minCachePrefix: 1024},
}

func familyOf(id string) (family, bool) {
	for _, f := range families {
		if strings.HasPrefix(id, f.prefix) {
			return f, true
		}
	}
	return family{}, false
}

// FamilyParameters returns the supported_parameters OpenRouter lists for
// the family of id, recognised by prefix: "anthropic/claude",
// "openai/gpt-5" or "google/gemini-3". Any other id gets nil: the entry
// says nothing, and a client takes every parameter as supported.
func FamilyParameters(id string) []string {
	if f, ok := familyOf(id); ok {
		return slices.Clone(f.params)
	}
	return nil
}

// Entry returns the listing of id as OpenRouter gives it today for its
// family: FamilyParameters(id), the context length, maximum output,
// prices (cache and long-context prices included) and reasoning defaults
// of OPENROUTER.md's table. Other ids get an entry with the id alone.
func Entry(id string) ModelEntry {
	e := ModelEntry{ID: id, CanonicalSlug: RecordedSlug(id), SupportedParameters: FamilyParameters(id)}
	f, ok := familyOf(id)
	if !ok {
		return e
	}
	r := f.reasoning
	r.SupportedEfforts = slices.Clone(r.SupportedEfforts)
	if strings.HasPrefix(id, "anthropic/claude-opus-5") {
		r.DefaultEnabled = new(true) // Opus 5 reasons by default (OPENROUTER.md)
	}
	e.ContextLength, e.MaxCompletionTokens = f.context, f.maxOutput
	e.PromptPrice, e.CompletionPrice, e.CacheReadPrice, e.CacheWritePrice = f.prompt, f.completion, f.cacheRead, f.cacheWr
	e.Overrides, e.Reasoning = slices.Clone(f.overrides), &r
	return e
}

// recordedSlugs are canonical slugs of the live listing, as answers
// recorded from the live API name the model that served them
// (model/testdata/recorded/README.md): Anthropic puts the version before
// the family and adds a date; OpenAI and Google add a date.
var recordedSlugs = map[string]string{
	"anthropic/claude-opus-4.7":     "anthropic/claude-4.7-opus-20260416",
	"anthropic/claude-sonnet-4.6":   "anthropic/claude-4.6-sonnet-20260217",
	"anthropic/claude-sonnet-4.5":   "anthropic/claude-4.5-sonnet-20250929",
	"openai/gpt-5.5":                "openai/gpt-5.5-20260423",
	"google/gemini-3.1-pro-preview": "google/gemini-3.1-pro-preview-20260219",
}

var claudeName = regexp.MustCompile(`^anthropic/claude-(opus|sonnet|haiku)-([0-9.]+)$`)

// RecordedSlug is the canonical_slug the live listing gives id, in the
// shape recorded traffic shows: the recorded slug where one is known,
// else for a Claude id the version put first
// ("anthropic/claude-opus-5" → "anthropic/claude-5-opus"), else the id.
func RecordedSlug(id string) string {
	if s, ok := recordedSlugs[id]; ok {
		return s
	}
	if m := claudeName.FindStringSubmatch(id); m != nil {
		return "anthropic/claude-" + m[2] + "-" + m[1]
	}
	return id
}

// ServeAsRecorded makes the fake name the model that served a reply as
// OpenRouter does: a reply without its own Model answers with the
// listing's canonical_slug of the model asked (the ID when the listing
// has no entry for it), not with the id asked.
func (s *Server) ServeAsRecorded() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asRecorded = true
}

// servedName is the model string a reply without its own Model carries.
func (s *Server) servedName(asked string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.asRecorded {
		return asked
	}
	i := slices.IndexFunc(s.models, func(e ModelEntry) bool { return e.ID == asked })
	if i < 0 || s.models[i].CanonicalSlug == "" {
		return asked
	}
	return s.models[i].CanonicalSlug
}

// DefaultModels is the list GET /models returns until a test sets its
// own: an [Entry] for each gating model of the harness's default
// configuration, one per family.
func DefaultModels() []ModelEntry {
	return []ModelEntry{
		Entry("anthropic/claude-opus-5"),
		Entry("openai/gpt-5.6-sol"),
		Entry("google/gemini-3.1-pro-preview"),
	}
}

// withFamily fills nil parameters from the family of e.ID.
func withFamily(e ModelEntry) ModelEntry {
	if e.SupportedParameters == nil {
		e.SupportedParameters = FamilyParameters(e.ID)
	}
	return e
}

// SetModels replaces the list GET /models returns ([DefaultModels] until
// then). An entry with nil SupportedParameters gets its family's list.
func (s *Server) SetModels(models ...ModelEntry) {
	list := make([]ModelEntry, len(models))
	for i, m := range models {
		list[i] = withFamily(m)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = list
}

// SetModel replaces the entry of m.ID in the list GET /models returns, or
// appends m when the list has none; nil SupportedParameters gets its
// family's list, as in SetModels. A test uses it to override one model,
// e.g. a Claude whose listing lacks temperature.
func (s *Server) SetModel(m ModelEntry) {
	m = withFamily(m)
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.models, func(e ModelEntry) bool { return e.ID == m.ID })
	if i < 0 {
		s.models = append(s.models, m)
		return
	}
	s.models = slices.Clone(s.models)
	s.models[i] = m
}

// SetKey sets what GET /key answers (until then: a valid key without a
// limit).
func (s *Server) SetKey(k Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listing.key = k
}

// ListingRequests returns the paths of the GET requests received other
// than /models (/key, /models/user, endpoints), in arrival order.
func (s *Server) ListingRequests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.listing.gets)
}

// listing is the fake's state beyond the chat requests.
type listing struct {
	key  Key
	gets []string
	// prompts are the prompts billed so far per model, for the prefix
	// cache; written are the prefixes written to a breakpoint cache.
	prompts map[string][]string
	written map[string]bool
	billed  float64
}

func (s *Server) routeListing(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/v1/models", s.serveModels)
	mux.HandleFunc("GET /api/v1/models/user", s.serveUserModels)
	mux.HandleFunc("GET /api/v1/models/{author}/{slug}/endpoints", s.serveEndpoints)
	mux.HandleFunc("GET /api/v1/key", s.serveKey)
}

func (s *Server) serveModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.modelsHeader = append(s.modelsHeader, r.Header.Clone())
	models := s.models
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"data": entries(models, false)})
}

func (s *Server) serveUserModels(w http.ResponseWriter, r *http.Request) {
	models, ok := s.authorised(w, r)
	if ok {
		writeJSON(w, http.StatusOK, map[string]any{"data": entries(models, true)})
	}
}

func (s *Server) serveEndpoints(w http.ResponseWriter, r *http.Request) {
	models, ok := s.authorised(w, r)
	if !ok {
		return
	}
	id := r.PathValue("author") + "/" + r.PathValue("slug")
	i := slices.IndexFunc(models, func(e ModelEntry) bool { return e.ID == id })
	if i < 0 {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": 404, "message": "Model not found"}})
		return
	}
	m := models[i]
	eps := m.Endpoints
	if eps == nil {
		author, _, _ := strings.Cut(m.ID, "/")
		if f, ok := familyOf(m.ID); ok {
			author = f.provider
		}
		eps = []Endpoint{{ProviderName: author, Tag: author, ContextLength: m.ContextLength, MaxCompletionTokens: m.MaxCompletionTokens, SupportedParameters: m.SupportedParameters}}
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"id": m.ID, "endpoints": eps}})
}

func (s *Server) serveKey(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	k := s.listing.key
	s.mu.Unlock()
	if _, ok := s.authorised(w, r); !ok {
		return
	}
	if k.Missing {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": 404, "message": "Not Found"}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"data": map[string]any{
		"label": k.Label, "limit": k.Limit, "limit_remaining": k.LimitRemaining, "usage": k.Usage, "byok_usage": k.BYOKUsage, "is_free_tier": false,
	}})
}

// authorised answers 401 to a request without a key or with a key the
// fake was told is invalid, and records the request's path.
func (s *Server) authorised(w http.ResponseWriter, r *http.Request) ([]ModelEntry, bool) {
	s.mu.Lock()
	s.listing.gets = append(s.listing.gets, r.URL.Path)
	k, models := s.listing.key, s.models
	s.mu.Unlock()
	if k.Invalid || !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{"code": 401, "message": "No auth credentials found"}})
		return nil, false
	}
	return models, true
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// entries is the models' JSON list; forUser leaves out NotForUser ones.
func entries(models []ModelEntry, forUser bool) []map[string]any {
	out := []map[string]any{}
	for _, m := range models {
		if forUser && m.NotForUser {
			continue
		}
		pricing := map[string]any{"prompt": m.PromptPrice, "completion": m.CompletionPrice}
		for k, v := range map[string]string{"input_cache_read": m.CacheReadPrice, "input_cache_write": m.CacheWritePrice,
			"internal_reasoning": m.InternalReasoningPrice, "request": m.RequestPrice} {
			if v != "" {
				pricing[k] = v
			}
		}
		if len(m.Overrides) > 0 {
			var ov []map[string]any
			for _, o := range m.Overrides {
				ov = append(ov, map[string]any{"min_prompt_tokens": o.MinPromptTokens, "prompt": o.Prompt, "completion": o.Completion})
			}
			pricing["overrides"] = ov
		}
		slug := m.CanonicalSlug
		if slug == "" {
			slug = m.ID
		}
		e := map[string]any{"id": m.ID, "canonical_slug": slug, "pricing": pricing, "supported_parameters": m.SupportedParameters,
			"context_length": m.ContextLength, "top_provider": map[string]any{"max_completion_tokens": nullZero(m.MaxCompletionTokens)},
			"expiration_date": nullEmpty(m.ExpirationDate)}
		if m.Reasoning != nil {
			e["reasoning"] = m.Reasoning
		}
		out = append(out, e)
	}
	return out
}

func nullZero(n int) any {
	if n == 0 {
		return nil
	}
	return n
}

func nullEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// Tokens is the fake's tokenizer: 2 tokens per 7 bytes (3.5 bytes a
// token, as JSON and English prose tokenize), at least 1 for any text.
func Tokens(text string) int64 {
	if text == "" {
		return 0
	}
	return max(1, int64(len(text))*2/7)
}

// Priced wraps h so that every 200 completion it answers carries the
// usage and cost today's OpenRouter would bill for it (Bill), unless the
// reply sets its own usage or body.
func (s *Server) Priced(h Handler) Handler {
	return func(call int, req ChatRequest) Reply {
		rep := h(call, req)
		if rep.Status >= 400 || rep.Body != "" || rep.Usage != nil || rep.Hang {
			return rep
		}
		u := s.Bill(req, rep.Content)
		rep.Usage = &u
		return rep
	}
}

// Billed returns the sum of the costs Bill has charged.
func (s *Server) Billed() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listing.billed
}

// Bill is the usage and cost of answering req with content, from the
// model's listing as the fake serves it:
//
//   - prompt tokens are Tokens of every message's text; completion
//     tokens are Tokens(content) plus reasoning tokens;
//   - reasoning tokens follow the reasoning object sent (or the
//     listing's defaults when none is sent, as OpenRouter applies them):
//     none when off, else a share from one half to all of the effort's
//     budget (ReasoningBudget), drawn from a hash of the request so that
//     the same request bills the same, and never above max_tokens less
//     the answer;
//   - the cache: a provider that caches at breakpoints (Anthropic) writes
//     the prompt up to the part marked cache_control, when it is at least
//     its minimum prefix (4,096 tokens), and reads it on a later request;
//     the others read the longest prefix shared with an earlier prompt of
//     the model, in 128-token blocks, when it is at least 1,024 tokens,
//     and, where the listing prices cache writes (GPT-5.6), write the
//     rest of a prompt that long;
//   - the price is the listing's: pricing.overrides above their prompt
//     length, cache reads and writes at their prices, reasoning at
//     internal_reasoning when listed, plus pricing.request.
func (s *Server) Bill(req ChatRequest, content string) Usage {
	s.mu.Lock()
	defer s.mu.Unlock()
	var entry ModelEntry
	if i := slices.IndexFunc(s.models, func(e ModelEntry) bool { return e.ID == req.Model }); i >= 0 {
		entry = s.models[i]
	}
	f, _ := familyOf(req.Model)
	full, marked := promptText(req)
	u := Usage{PromptTokens: Tokens(full)}
	u.ReasoningTokens = reasoningTokens(req, entry, Tokens(content))
	u.CompletionTokens = Tokens(content) + u.ReasoningTokens
	var write int64
	if s.listing.prompts == nil {
		s.listing.prompts, s.listing.written = map[string][]string{}, map[string]bool{}
	}
	switch {
	case f.explicitBreakpoints:
		if n := Tokens(marked); marked != "" && n >= int64(f.minCachePrefix) {
			key := req.Model + "\x00" + marked
			if s.listing.written[key] {
				u.CachedTokens = n
			} else {
				write, s.listing.written[key] = n, true
			}
		}
	default:
		minPrefix := int64(max(f.minCachePrefix, 1024))
		shared := int64(0)
		for _, p := range s.listing.prompts[req.Model] {
			shared = max(shared, Tokens(full[:commonPrefix(p, full)]))
		}
		if shared >= minPrefix {
			u.CachedTokens = shared / 128 * 128
		}
		if entry.CacheWritePrice != "" && u.PromptTokens >= minPrefix {
			write = u.PromptTokens - u.CachedTokens
		}
		s.listing.prompts[req.Model] = append(s.listing.prompts[req.Model], full)
	}
	u.CacheWriteTokens = write
	cost := cost(entry, u)
	u.Cost = &cost
	s.listing.billed += cost
	return u
}

// cost prices u at entry's listing.
func cost(e ModelEntry, u Usage) float64 {
	in, out := num(e.PromptPrice), num(e.CompletionPrice)
	for _, o := range e.Overrides {
		if o.MinPromptTokens > 0 && u.PromptTokens > int64(o.MinPromptTokens) {
			in, out = num(o.Prompt), num(o.Completion)
		}
	}
	read, write, reason := in, in, out
	if e.CacheReadPrice != "" {
		read = num(e.CacheReadPrice)
	}
	if e.CacheWritePrice != "" {
		write = num(e.CacheWritePrice)
	}
	if e.InternalReasoningPrice != "" {
		reason = num(e.InternalReasoningPrice)
	}
	plain := u.PromptTokens - u.CachedTokens - u.CacheWriteTokens
	answer := u.CompletionTokens - u.ReasoningTokens
	return float64(plain)*in + float64(u.CachedTokens)*read + float64(u.CacheWriteTokens)*write +
		float64(answer)*out + float64(u.ReasoningTokens)*reason + num(e.RequestPrice)
}

func num(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0
	}
	return v
}

// promptText is the request's prompt as one text, and its prefix up to
// and including the last part marked cache_control ("" when none is).
func promptText(req ChatRequest) (full, marked string) {
	var b strings.Builder
	for _, m := range req.Messages {
		if m.Parts == nil {
			b.WriteString(m.Content)
			continue
		}
		for _, p := range m.Parts {
			b.WriteString(p.Text)
			if len(p.CacheControl) > 0 {
				marked = b.String()
			}
		}
	}
	return b.String(), marked
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// ReasoningBudget is the most reasoning tokens the fake bills a request
// at each effort; a request is billed from half of it to all of it.
var ReasoningBudget = map[string]int64{
	"none": 0, "minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 24576, "max": 32768,
}

// reasoningTokens is what req reasons, by its reasoning object or, when
// it sends none, the listing's defaults; at most its max_tokens less the
// answer's tokens.
func reasoningTokens(req ChatRequest, e ModelEntry, answer int64) int64 {
	var r struct {
		Effort    string `json:"effort"`
		MaxTokens int64  `json:"max_tokens"`
		Enabled   *bool  `json:"enabled"`
	}
	if len(req.Reasoning) > 0 {
		json.Unmarshal(req.Reasoning, &r)
	} else if e.Reasoning != nil {
		r.Effort, r.Enabled = e.Reasoning.DefaultEffort, e.Reasoning.DefaultEnabled
	} else {
		return 0
	}
	mandatory := e.Reasoning != nil && e.Reasoning.Mandatory
	if r.Enabled != nil && !*r.Enabled && !mandatory {
		return 0
	}
	budget, ok := ReasoningBudget[r.Effort]
	switch {
	case r.MaxTokens > 0 && (e.Reasoning == nil || e.Reasoning.SupportsMaxTokens):
		budget = r.MaxTokens
	case !ok:
		budget = ReasoningBudget["medium"]
	}
	sum := sha256.Sum256(req.Body)
	share := 0.5 + 0.5*float64(binary.BigEndian.Uint64(sum[:8]))/math.MaxUint64
	n := int64(float64(budget) * share)
	if req.MaxTokens != nil {
		n = min(n, max(0, int64(*req.MaxTokens)-answer))
	}
	return n
}
