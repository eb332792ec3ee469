package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/internal/safetext"
)

// The response is decoded here rather than through the SDK's types because
// the fields the transcript needs most (provider, usage.cost, a top-level
// error in a 200) are OpenRouter's additions that the SDK does not model.

// wireChat is the part of a chat-completion body the client reads.
//
// The fields that describe the answer rather than carry it (id, model,
// provider, usage) are kept raw and read leniently: a count of the wrong
// type must not turn a paid answer into a malformed body (issue 20:
// "prompt_tokens": 12.5 failed the whole body, and the call was paid three
// times).
type wireChat struct {
	ID       json.RawMessage `json:"id"`
	Model    json.RawMessage `json:"model"`
	Provider json.RawMessage `json:"provider"`
	Choices  []wireChoice    `json:"choices"`
	Usage    json.RawMessage `json:"usage"`
	Error    *wireError      `json:"error"`
}

// The reasoning fields and error metadata are kept raw and read leniently:
// they are diagnostics, and an unexpected shape in them must not turn an
// answer into a malformed body.
type wireChoice struct {
	Message struct {
		Content          *string         `json:"content"`
		Reasoning        json.RawMessage `json:"reasoning"`
		ReasoningDetails json.RawMessage `json:"reasoning_details"`
	} `json:"message"`
	FinishReason       *string    `json:"finish_reason"`
	NativeFinishReason *string    `json:"native_finish_reason"`
	Error              *wireError `json:"error"`
}

// reasoning returns message.reasoning when it is a non-empty string, or
// else the readable entries of message.reasoning_details
// ("reasoning.text" and "reasoning.summary"; encrypted ones carry nothing
// to read) joined by newlines.
func (c *wireChoice) reasoning() string {
	var r string
	if json.Unmarshal(c.Message.Reasoning, &r) == nil && r != "" {
		return r
	}
	var details []json.RawMessage
	json.Unmarshal(c.Message.ReasoningDetails, &details)
	var texts []string
	for _, raw := range details {
		var d struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Summary string `json:"summary"`
		}
		if json.Unmarshal(raw, &d) != nil {
			continue
		}
		switch d.Type {
		case "reasoning.text":
			texts = append(texts, d.Text)
		case "reasoning.summary":
			texts = append(texts, d.Summary)
		}
	}
	return strings.Join(texts, "\n")
}

// usage reads a usage object leniently: each count that is a whole number
// is taken; anything else is named in Unread with the value as sent and
// left 0, as is a count over MaxTokenCount. Cost stays nil unless
// usage.cost is a number that ValidCost accepts.
func usage(raw json.RawMessage) Usage {
	var out Usage
	if len(raw) == 0 || string(raw) == "null" {
		return out
	}
	var w struct {
		PromptTokens            json.RawMessage `json:"prompt_tokens"`
		CompletionTokens        json.RawMessage `json:"completion_tokens"`
		PromptTokensDetails     json.RawMessage `json:"prompt_tokens_details"`
		CompletionTokensDetails json.RawMessage `json:"completion_tokens_details"`
		Cost                    json.RawMessage `json:"cost"`
		IsBYOK                  bool            `json:"is_byok"`
		CostDetails             struct {
			Upstream json.RawMessage `json:"upstream_inference_cost"`
		} `json:"cost_details"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		out.Unread = append(out.Unread, "usage: "+snippet(raw))
		return out
	}
	count := func(name string, v json.RawMessage, into *int64) {
		if len(v) == 0 || string(v) == "null" {
			return
		}
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || n < 0 || n > MaxTokenCount {
			out.Unread = append(out.Unread, name+": "+snippet(v))
			return
		}
		*into = n
	}
	count("prompt_tokens", w.PromptTokens, &out.PromptTokens)
	count("completion_tokens", w.CompletionTokens, &out.CompletionTokens)
	var cached, reasoning struct {
		CachedTokens     json.RawMessage `json:"cached_tokens"`
		CacheWriteTokens json.RawMessage `json:"cache_write_tokens"`
		ReasoningTokens  json.RawMessage `json:"reasoning_tokens"`
	}
	if json.Unmarshal(w.PromptTokensDetails, &cached) != nil && len(w.PromptTokensDetails) > 0 && string(w.PromptTokensDetails) != "null" {
		out.Unread = append(out.Unread, "prompt_tokens_details: "+snippet(w.PromptTokensDetails))
	}
	if json.Unmarshal(w.CompletionTokensDetails, &reasoning) != nil && len(w.CompletionTokensDetails) > 0 && string(w.CompletionTokensDetails) != "null" {
		out.Unread = append(out.Unread, "completion_tokens_details: "+snippet(w.CompletionTokensDetails))
	}
	count("prompt_tokens_details.cached_tokens", cached.CachedTokens, &out.CachedTokens)
	count("prompt_tokens_details.cache_write_tokens", cached.CacheWriteTokens, &out.CacheWriteTokens)
	count("completion_tokens_details.reasoning_tokens", reasoning.ReasoningTokens, &out.ReasoningTokens)
	count("prompt_tokens_details.cache_write_tokens", cached.CacheWriteTokens, &out.CacheWriteTokens)
	if len(w.Cost) > 0 && string(w.Cost) != "null" {
		cost, err := strconv.ParseFloat(string(w.Cost), 64)
		if err != nil || !ValidCost(cost) {
			out.Unread = append(out.Unread, "cost: "+snippet(w.Cost))
		} else {
			out.Cost = &cost
		}
	}
	if up := w.CostDetails.Upstream; w.IsBYOK && len(up) > 0 && string(up) != "null" {
		byok(&out, up)
	}
	return out
}

// byok adds a BYOK call's upstream cost (the provider's charge) to its
// cost: OpenRouter's usage.cost is only its fee. An unreadable upstream
// cost makes the whole cost unknown, never the fee alone.
func byok(out *Usage, raw json.RawMessage) {
	up, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || !ValidCost(up) {
		out.Unread = append(out.Unread, "cost_details.upstream_inference_cost: "+snippet(raw))
		out.Cost = nil
		return
	}
	out.UpstreamCost = &up
	total := up
	if out.Cost != nil {
		total += *out.Cost
	}
	if ValidCost(total) {
		out.Cost = &total
	}
}

// wireError is an error object, at the top level or in a choice.
// OpenRouter's code is the HTTP status as a number; OpenAI's is a string.
type wireError struct {
	Code         json.RawMessage `json:"code"`
	Message      string          `json:"message"`
	Metadata     json.RawMessage `json:"metadata"`
	Availability json.RawMessage `json:"availability"`
}

// apiError describes e as reported with the given HTTP status, with what
// its metadata says (error_type, provider_code, provider_name, raw, a
// moderation's reasons and flagged_input, a guardrail's patterns) and its
// availability, classified.
func (e *wireError) apiError(status int) *APIError {
	out := &APIError{Status: status, Code: safetext.Cap(e.code(), MaxName), Message: safetext.Cap(e.Message, MaxMessage)}
	var md struct {
		ErrorType    json.RawMessage `json:"error_type"`
		ProviderCode json.RawMessage `json:"provider_code"`
		ProviderName json.RawMessage `json:"provider_name"`
		Raw          json.RawMessage `json:"raw"`
		Reasons      json.RawMessage `json:"reasons"`
		FlaggedInput json.RawMessage `json:"flagged_input"`
		Patterns     json.RawMessage `json:"patterns"`
	}
	if json.Unmarshal(e.Metadata, &md) == nil {
		out.Type = safetext.Cap(rawText(md.ErrorType), MaxName)
		out.ProviderCode = safetext.Cap(rawText(md.ProviderCode), MaxName)
		out.ProviderName = safetext.Cap(rawText(md.ProviderName), MaxName)
		out.Raw = safetext.Cap(rawText(md.Raw), MaxMessage)
		out.FlaggedInput = safetext.Cap(rawText(md.FlaggedInput), MaxMessage)
		var reasons []string
		if json.Unmarshal(md.Reasons, &reasons) == nil {
			for i, r := range reasons[:min(len(reasons), 16)] {
				reasons[i] = safetext.Cap(r, MaxName)
			}
			out.Reasons = reasons[:min(len(reasons), 16)]
		}
		out.guardrail = len(md.Patterns) > 0 && string(md.Patterns) != "null"
	}
	var av Availability
	if len(e.Availability) > 0 && string(e.Availability) != "null" && json.Unmarshal(e.Availability, &av) == nil {
		av.Code = safetext.Cap(av.Code, MaxName)
		av.FallbackModels = av.FallbackModels[:min(len(av.FallbackModels), 16)]
		out.Availability = &av
	}
	return out.classified()
}

// MaxName bounds a name a server chooses (provider, model served, response
// id, error code) and MaxMessage an error message or an upstream's raw
// error, in bytes: each is archived, reported in every format and printed,
// and ten 10 MB provider names made 190 MB of each report (issue 32). The
// answer itself is bounded by MaxResponseSize alone.
const (
	MaxName    = 256
	MaxMessage = 4 << 10
)

// rawText returns a JSON value as text: a string as its value, null as "",
// anything else as its compacted JSON.
func rawText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// code returns the error code as text: a number in decimal, a string as
// it is, "" when absent or null.
func (e *wireError) code() string {
	var s string
	if json.Unmarshal(e.Code, &s) == nil {
		return s
	}
	var n json.Number
	d := json.NewDecoder(bytes.NewReader(e.Code))
	d.UseNumber()
	if d.Decode(&n) == nil {
		return n.String()
	}
	return ""
}

// interpretChat reads a chat-completion body. It returns what it could read
// even alongside an error, so a failed call still records usage and
// provider.
func interpretChat(ex exchange) (*Response, *APIError) {
	var w wireChat
	if err := json.Unmarshal(ex.body, &w); err != nil {
		return nil, (&APIError{Status: ex.status, Code: CodeBadResponse,
			Message: "response body is not a chat completion: " + err.Error()}).classified()
	}
	r := &Response{ID: safetext.Cap(rawText(w.ID), MaxName), ModelServed: safetext.Cap(rawText(w.Model), MaxName),
		Provider: safetext.Cap(rawText(w.Provider), MaxName), Usage: usage(w.Usage)}
	if len(w.Choices) > 0 {
		ch := &w.Choices[0]
		r.Content = deref(ch.Message.Content)
		r.FinishReason = deref(ch.FinishReason)
		r.NativeFinishReason = deref(ch.NativeFinishReason)
		r.Reasoning = ch.reasoning()
	}
	// OpenRouter reports a failure after the headers were sent as a 200
	// with an error object and/or finish_reason "error".
	if e := w.Error; e != nil {
		return r, e.apiError(ex.status)
	}
	if len(w.Choices) == 0 {
		return r, (&APIError{Status: ex.status, Code: CodeNoChoices, Message: "response has no choices"}).classified()
	}
	if r.FinishReason == "error" {
		e := w.Choices[0].Error
		if e == nil {
			e = &wireError{Message: `finish_reason "error"`}
		}
		return r, e.apiError(ex.status)
	}
	return r, finished(r, ex.status)
}

// finished checks an answer that reported no error: a blank completion
// (no content and no finish reason, which OpenRouter does not bill and
// advises retrying) is retried, and an output the provider's content
// filter stopped fails its request as such rather than being scored as
// the model's answer.
func finished(r *Response, status int) *APIError {
	switch {
	case r.FinishReason == "" && r.Content == "":
		return (&APIError{Status: status, Code: CodeBlank, Message: "blank completion: no content and no finish reason"}).classified()
	case r.FinishReason == "content_filter":
		return (&APIError{Status: status, Code: CodeContentFilter, Message: `finish_reason "content_filter": the provider's content filter stopped the output`}).classified()
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// wireModels is OpenRouter's GET /models (and /models/user) body.
type wireModels struct {
	Data []wireModel `json:"data"`
}

// wireModel is one entry of a model list. The fields beyond the id are
// read leniently: a listing field of an unexpected shape is left unknown
// rather than failing the listing (the API, not this reading, is what
// the harness must meet).
type wireModel struct {
	ID            string          `json:"id"`
	CanonicalSlug json.RawMessage `json:"canonical_slug"`
	Pricing       struct {
		Prompt            json.RawMessage `json:"prompt"`
		Completion        json.RawMessage `json:"completion"`
		CacheRead         json.RawMessage `json:"input_cache_read"`
		CacheWrite        json.RawMessage `json:"input_cache_write"`
		InternalReasoning json.RawMessage `json:"internal_reasoning"`
		Request           json.RawMessage `json:"request"`
		Overrides         json.RawMessage `json:"overrides"`
	} `json:"pricing"`
	SupportedParameters []string        `json:"supported_parameters"`
	ContextLength       json.RawMessage `json:"context_length"`
	TopProvider         struct {
		MaxCompletionTokens json.RawMessage `json:"max_completion_tokens"`
	} `json:"top_provider"`
	Reasoning      json.RawMessage `json:"reasoning"`
	ExpirationDate json.RawMessage `json:"expiration_date"`
}

// interpretModels reads a model list.
func interpretModels(ex exchange) ([]ModelInfo, *APIError) {
	var w wireModels
	if err := json.Unmarshal(ex.body, &w); err != nil {
		return nil, (&APIError{Status: ex.status, Code: CodeBadResponse,
			Message: "response body is not a model list: " + err.Error()}).classified()
	}
	out := make([]ModelInfo, len(w.Data))
	for i, m := range w.Data {
		out[i] = m.info()
	}
	return out, nil
}

// info is the entry as the harness keeps it.
func (m wireModel) info() ModelInfo {
	var warnings []string
	for _, f := range []struct {
		name string
		raw  json.RawMessage
	}{{"prompt", m.Pricing.Prompt}, {"completion", m.Pricing.Completion}, {"input_cache_read", m.Pricing.CacheRead},
		{"input_cache_write", m.Pricing.CacheWrite}, {"internal_reasoning", m.Pricing.InternalReasoning}, {"request", m.Pricing.Request}} {
		if w := priceWarning(f.raw); w != "" {
			warnings = append(warnings, "pricing."+f.name+" "+w)
		}
	}
	info := ModelInfo{
		PriceWarnings:          warnings,
		ID:                     m.ID,
		CanonicalSlug:          safetext.Cap(rawString(m.CanonicalSlug), MaxName),
		PromptPrice:            price(m.Pricing.Prompt),
		CompletionPrice:        price(m.Pricing.Completion),
		CacheReadPrice:         price(m.Pricing.CacheRead),
		CacheWritePrice:        price(m.Pricing.CacheWrite),
		InternalReasoningPrice: separatePrice(price(m.Pricing.InternalReasoning)),
		RequestPrice:           price(m.Pricing.Request),
		PriceOverrides:         overrides(m.Pricing.Overrides),
		SupportedParameters:    m.SupportedParameters,
		ContextLength:          count(m.ContextLength),
		MaxCompletionTokens:    count(m.TopProvider.MaxCompletionTokens),
	}
	var r ReasoningInfo
	if len(m.Reasoning) > 0 && string(m.Reasoning) != "null" && json.Unmarshal(m.Reasoning, &r) == nil {
		info.Reasoning = &r
	}
	var exp string
	if json.Unmarshal(m.ExpirationDate, &exp) == nil {
		info.ExpirationDate = exp
	}
	return info
}

// separatePrice is a price that only applies when positive: a listing's
// internal_reasoning of "0" means reasoning is not priced apart (it is
// billed as completion tokens), not that it is free.
func separatePrice(p *float64) *float64 {
	if p == nil || *p <= 0 {
		return nil
	}
	return p
}

// rawString is a JSON string's value; anything else (null, a number, an
// object) is "".
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// count reads a token count; anything but a whole number from 0 to
// MaxTokenCount is unknown: 0.
func count(raw json.RawMessage) int {
	var n int64
	if json.Unmarshal(raw, &n) != nil || n < 0 || n > MaxTokenCount {
		return 0
	}
	return int(n)
}

// overrides reads pricing.overrides: a list of objects, each with its
// prices and, for a long-context price, the prompt length above which it
// applies (min_prompt_tokens, or prompt_tokens_above). Entries of another
// shape are skipped.
func overrides(raw json.RawMessage) []PriceOverride {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []PriceOverride
	for _, e := range list {
		var w struct {
			Min        json.RawMessage `json:"min_prompt_tokens"`
			Above      json.RawMessage `json:"prompt_tokens_above"`
			Prompt     json.RawMessage `json:"prompt"`
			Completion json.RawMessage `json:"completion"`
		}
		if json.Unmarshal(e, &w) != nil {
			continue
		}
		o := PriceOverride{MinPromptTokens: int64(max(count(w.Min), count(w.Above))),
			PromptPrice: price(w.Prompt), CompletionPrice: price(w.Completion), Raw: e}
		out = append(out, o)
	}
	return out
}

// MaxTokenPrice bounds a per-token price the listing may give, in USD: the
// dearest model listed in 2026 asks $0.00015 per output token. A price
// above it (issue 53: "1e308" made the estimate $+Inf) is unknown, with a
// warning; so is a per-request price (pricing.request) above it.
const MaxTokenPrice = 1.0

// price reads a per-token price, which OpenRouter sends as a decimal string
// ("0.000003"); a plain number is accepted too. Missing, unparsable,
// non-finite, negative (OpenRouter's "-1" means the price depends on the
// routed model) and absurd (above MaxTokenPrice) prices are unknown: nil.
func price(raw json.RawMessage) *float64 {
	p, ok := parsePrice(raw)
	if !ok || p < 0 || math.IsNaN(p) || math.IsInf(p, 0) || p > MaxTokenPrice {
		return nil
	}
	return &p
}

// parsePrice reads a price as a decimal string or a number.
func parsePrice(raw json.RawMessage) (float64, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	p, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return p, true
}

// priceWarning says why a listed price is read as unknown when
// it is a number no estimate can use (non-finite, beyond a double, above
// MaxTokenPrice); "" for a usable, absent or variable ("-1") price.
func priceWarning(raw json.RawMessage) string {
	p, ok := parsePrice(raw)
	switch {
	case !ok:
		return ""
	case math.IsNaN(p) || math.IsInf(p, 0):
		return fmt.Sprintf("%s is not a finite number: read as unknown", snippet(raw))
	case p > MaxTokenPrice:
		return fmt.Sprintf("%s is above $%g: read as unknown", snippet(raw), MaxTokenPrice)
	}
	return ""
}
