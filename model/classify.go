package model

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// Scope says what an API failure is about, and so what it ends.
type Scope string

// Scopes, from narrowest to widest.
const (
	// ScopeRetry is a failure of the moment (a rate limit, a server or
	// network error, a provider that is overloaded, a blank completion):
	// the same request is sent again.
	ScopeRetry Scope = "retry"
	// ScopeRequest is a failure of this request only (a refusal, a content
	// policy, moderation or guardrail block, a prompt or output too long,
	// the max_tokens reservation of 402, no endpoint for these
	// parameters): the job fails with its reason and the model's other
	// jobs go on.
	ScopeRequest Scope = "request"
	// ScopeModel is a failure every further request to the model would
	// meet (a bad key, exhausted credit, an unknown, retired or unroutable
	// model, an API that cannot be reached): the model's jobs not yet
	// started are skipped.
	ScopeModel Scope = "model"
)

// errorRule is one row of the classification table: an API error that
// matches every field set is of scope Scope for Reason.
type errorRule struct {
	status int    // the HTTP status, or the code of an error inside a 200; 0 matches any
	typ    string // error.metadata.error_type; "" matches any
	// about, when set, must hold as well: metadata or wording that tells a
	// request's failure from the model's under one status.
	about func(*APIError) bool
	scope Scope
	why   string
}

// errorRules classifies an [APIError], first match wins. OpenRouter's
// documentation says to use metadata.error_type "not the HTTP status code
// alone" (api_reference/errors-and-debugging.mdx), so typed rows come
// first; a status alone decides only when no type was sent.
var errorRules = []errorRule{
	// No endpoint for this request's parameters (max_tokens,
	// response_format, cache_control ...) is about the request, whatever
	// its availability object says: a parameters 404 whose availability
	// said not retryable ended the model's whole night (issue 52).
	{status: 404, about: noEndpointForParams, scope: ScopeRequest, why: "no endpoint can serve this request's parameters"},
	{typ: "not_found", about: noEndpointForParams, scope: ScopeRequest, why: "no endpoint can serve this request's parameters"},

	// A 402 that says what the credit left affords: nothing (the key's
	// limit or the balance is spent: "... but can only afford 0"), and
	// every further request fails; something, and a request asking less
	// may pass: a shorter prompt ("Prompt tokens limit exceeded: N > M"),
	// or fewer max_tokens (the reservation rows below). Error bodies
	// recorded from the live API carry no error_type, so the wording
	// decides (model/testdata/recorded).
	{status: 402, about: affordsNothing, scope: ScopeModel, why: "the key's limit or the account's credit is spent: it affords no tokens"},
	{typ: "payment_required", about: affordsNothing, scope: ScopeModel, why: "the key's limit or the account's credit is spent: it affords no tokens"},
	{status: 402, about: promptLimit, scope: ScopeRequest, why: "this request's prompt is more than the key's limit affords; a shorter one may pass"},
	{typ: "payment_required", about: promptLimit, scope: ScopeRequest, why: "this request's prompt is more than the key's limit affords; a shorter one may pass"},

	// Availability failures say themselves whether a retry can help.
	{about: availability(true), scope: ScopeRetry, why: "the provider is unavailable for now (error.availability.retryable)"},

	// A model id OpenRouter does not know fails every request to it,
	// however the 400 is typed.
	{status: 400, about: unknownModel, scope: ScopeModel, why: "the model id is unknown"},

	// The types that say what failed, whatever the status.
	{typ: "context_length_exceeded", scope: ScopeRequest, why: "the prompt and max_tokens exceed the model's context"},
	{typ: "max_tokens_exceeded", scope: ScopeRequest, why: "the output reached max_tokens"},
	{typ: "token_limit_exceeded", scope: ScopeRequest, why: "a token budget enforced by OpenRouter was exceeded"},
	{typ: "string_too_long", scope: ScopeRequest, why: "a message is longer than the provider takes"},
	{typ: "invalid_prompt", scope: ScopeRequest, why: "a message of the prompt is invalid"},
	{typ: "invalid_request", scope: ScopeRequest, why: "a request parameter is malformed"},
	{typ: "content_policy_violation", scope: ScopeRequest, why: "the input or output was flagged by a content filter"},
	{typ: "refusal", scope: ScopeRequest, why: "the model refused the request"},
	{typ: "precondition_failed", scope: ScopeRequest, why: "a precondition of the request failed"},
	{typ: "payload_too_large", scope: ScopeRequest, why: "the request body is too large"},
	{typ: "unprocessable", scope: ScopeRequest, why: "the request cannot be processed"},
	{typ: "invalid_image", scope: ScopeRequest, why: "an image of the request is invalid"},
	{typ: "image_too_large", scope: ScopeRequest, why: "an image of the request is invalid"},
	{typ: "image_too_small", scope: ScopeRequest, why: "an image of the request is invalid"},
	{typ: "unsupported_image_format", scope: ScopeRequest, why: "an image of the request is invalid"},
	{typ: "image_not_found", scope: ScopeRequest, why: "an image of the request is invalid"},
	{typ: "image_download_failed", scope: ScopeRequest, why: "an image of the request is invalid"},

	// An availability failure that says no retry can help: no provider
	// can route the model at all.
	{about: availability(false), scope: ScopeModel, why: "no provider can route the model (error.availability.retryable false)"},

	{typ: "rate_limit_exceeded", scope: ScopeRetry, why: "rate limited"},
	{typ: "provider_overloaded", scope: ScopeRetry, why: "the provider is overloaded"},
	{typ: "provider_unavailable", scope: ScopeRetry, why: "the provider is unavailable"},
	{typ: "server", scope: ScopeRetry, why: "a server error"},
	{typ: "timeout", scope: ScopeRetry, why: "the provider timed out"},
	{typ: "unmapped", scope: ScopeRetry, why: "an upstream error of no known kind"},

	// 402 twice: the reservation of this request's max_tokens ("requires
	// more credits, or fewer max_tokens") fails this request only; an
	// empty balance fails every request.
	{status: 402, about: reservation, scope: ScopeRequest, why: "this request's max_tokens cannot be reserved with the credit left"},
	{typ: "payment_required", about: reservation, scope: ScopeRequest, why: "this request's max_tokens cannot be reserved with the credit left"},
	{typ: "payment_required", scope: ScopeModel, why: "the account or key is out of credit"},
	{status: 402, scope: ScopeModel, why: "the account or key is out of credit"},

	{typ: "authentication", scope: ScopeModel, why: "the API key is missing, invalid or revoked"},
	{status: 401, scope: ScopeModel, why: "the API key is missing, invalid or revoked"},

	// 403: a moderation flag (metadata.reasons, flagged_input) or a
	// guardrail block (metadata.patterns, "Request blocked") is about this
	// input; a key without the permission is about every request.
	{status: 403, about: moderation, scope: ScopeRequest, why: "the input was flagged by moderation"},
	{status: 403, about: guardrail, scope: ScopeRequest, why: "the request was blocked by a guardrail"},
	{typ: "permission_denied", about: guardrail, scope: ScopeRequest, why: "the request was blocked by a guardrail"},
	{typ: "permission_denied", scope: ScopeModel, why: "the key lacks the permission"},
	{status: 403, scope: ScopeModel, why: "the key lacks the permission"},

	// 404: an unknown or retired model, or one no allowed provider
	// serves, is about every request (the parameters 404 is decided
	// above).
	{typ: "not_found", scope: ScopeModel, why: "the model does not exist or was retired"},
	{status: 404, scope: ScopeModel, why: "the model does not exist or was retired"},

	// Untyped statuses.
	{status: 400, scope: ScopeRequest, why: "the request is invalid"},
	{status: 408, scope: ScopeRetry, why: "the request timed out"},
	{status: 409, scope: ScopeRetry, why: "a conflict"},
	{status: 429, scope: ScopeRetry, why: "rate limited"},
}

// classify returns the scope of e and why, from errorRules; a status the
// table does not name is retried when it is 5xx, else it fails its
// request. The client's own codes decide first.
func classify(e *APIError) (Scope, string) {
	switch e.Code {
	case CodeUnreachable:
		return ScopeModel, "the API cannot be reached"
	case CodeTooLarge:
		return ScopeRequest, "the response is over the size limit"
	case CodeContentFilter:
		return ScopeRequest, "the provider's content filter stopped the output"
	case CodeTimeout, CodeIdle, CodeTransport, CodeBadResponse, CodeNoChoices, CodeBlank, CodeCutShort:
		return ScopeRetry, clientReasons[e.Code]
	}
	status := e.effectiveStatus()
	for _, r := range errorRules {
		if r.status != 0 && r.status != status || r.typ != "" && r.typ != e.Type || r.about != nil && !r.about(e) {
			continue
		}
		return r.scope, r.why
	}
	switch {
	case status >= 500 || status == 0:
		return ScopeRetry, "a server error"
	case status == 200:
		// An error inside a 200 with no code: the generation failed; try again.
		return ScopeRetry, "the generation failed"
	}
	return ScopeRequest, "the request failed"
}

// clientReasons says why each of the client's own retried codes is retried.
var clientReasons = map[string]string{
	CodeTimeout:     "no answer in time",
	CodeIdle:        "the stream went silent",
	CodeTransport:   "the connection failed",
	CodeBadResponse: "the body was not a chat completion",
	CodeNoChoices:   "the body had no choices",
	CodeBlank:       "a blank completion (not billed; OpenRouter advises a retry)",
	CodeCutShort:    "the stream ended before a finish reason",
}

// effectiveStatus is the HTTP status, or inside a 200 the error's code
// when it is a number (OpenRouter's code is the status the failure would
// have had).
func (e *APIError) effectiveStatus() int {
	if e.Status == 200 {
		if n, err := strconv.Atoi(e.Code); err == nil {
			return n
		}
	}
	return e.Status
}

// reservation is OpenRouter's 402 for a max_tokens it cannot reserve:
// "This request requires more credits, or fewer max_tokens. You requested
// up to N tokens, but can only afford M.", and its older wording "N token
// capacity required, M available" (an amount of 0 is decided before, by
// affordsNothing).
func reservation(e *APIError) bool {
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "fewer max_tokens") || strings.Contains(m, "can only afford") || strings.Contains(m, "capacity required")
}

// unknownModel is OpenRouter's 400 "X is not a valid model ID".
func unknownModel(e *APIError) bool {
	return strings.Contains(strings.ToLower(e.Message), "not a valid model id")
}

// moderation is a 403 whose metadata carries reasons or flagged_input.
func moderation(e *APIError) bool { return len(e.Reasons) > 0 || e.FlaggedInput != "" }

// guardrail is a 403 whose metadata carries the matched patterns, or whose
// message says the request was blocked.
func guardrail(e *APIError) bool {
	return e.guardrail || strings.HasPrefix(strings.ToLower(e.Message), "request blocked")
}

// noEndpointForParams is OpenRouter's 404 "No endpoints found that can
// handle the requested parameters", and its "No endpoints found that
// support X" for a feature of the request (tool use, cache control, a
// tool_choice value). "No endpoints found for X" names the model, and is
// not one.
func noEndpointForParams(e *APIError) bool {
	m := strings.ToLower(e.Message)
	return strings.Contains(m, "requested parameters") || strings.Contains(m, "no endpoints found that support")
}

// affordPhrases find, in a 402's message, the amount the credit left
// affords, as OpenRouter has worded it: "You requested up to N tokens, but
// can only afford M", "Prompt tokens limit exceeded: N > M" (and
// "max_tokens limit exceeded: N > M"), "N token capacity required, M
// available".
var affordPhrases = regexp.MustCompile(`(?i)can only afford (\d+)|limit exceeded: \d+ > (\d+)|(\d+) available`)

// affordable returns the amount e's message says the credit left
// affords, and whether it says one.
func affordable(e *APIError) (int64, bool) {
	m := affordPhrases.FindStringSubmatch(e.Message)
	if m == nil {
		return 0, false
	}
	for _, g := range m[1:] {
		if g != "" {
			n, err := strconv.ParseInt(g, 10, 64)
			if err != nil {
				// Digits alone fail only by overflow: a large amount.
				return math.MaxInt64, true
			}
			return n, true
		}
	}
	return 0, false
}

// affordsNothing matches a 402 whose message says the credit left
// affords no tokens: "... but can only afford 0".
func affordsNothing(e *APIError) bool {
	n, ok := affordable(e)
	return ok && n == 0
}

// promptLimit is OpenRouter's 402 for a prompt the key's limit cannot
// take: "Prompt tokens limit exceeded: N > M" (an amount of 0 is decided
// before, by affordsNothing).
func promptLimit(e *APIError) bool {
	return strings.Contains(strings.ToLower(e.Message), "limit exceeded:")
}

// availability matches an error.availability object whose retryable is
// want.
func availability(want bool) func(*APIError) bool {
	return func(e *APIError) bool { return e.Availability != nil && e.Availability.Retryable == want }
}
