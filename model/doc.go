// Package model is the harness's edge to frontier models: the [Client]
// interface that online and offline models share, and [OpenRouter], a
// client for OpenRouter's OpenAI-compatible chat-completions API built on
// github.com/openai/openai-go.
//
// # What is sent
//
// POST {base}/chat/completions with model and messages; temperature and
// seed when the [Request] sets them (zero included; nil leaves them out, so
// the wire request and its transcript hold only the controls asked for);
// max_tokens when positive; response_format json_schema (strict) when the
// request has a schema; and OpenRouter's own "provider" ([ProviderPrefs])
// and "reasoning" ([ReasoningPrefs]) objects and "session_id" when set,
// added to the SDK's JSON as extra fields. Headers: the API key as
// "Authorization: Bearer", OpenRouter's attribution headers HTTP-Referer
// and X-Title, and X-OpenRouter-Metadata: enabled ([MetadataHeader]). No
// OPENAI_* environment variable is read.
//
// What a model's requests carry is decided once per run by [Decide]: its
// [Policy] (reasoning made explicit, temperature and seed where the
// vendor honours them, the provider pin, budgets never above the listed
// maximum output), recorded in run.json.
//
// A message with [Message.Parts] is sent with content as an array of text
// parts, {"type": "text", "text": ...}; a part with Cache set also carries
// "cache_control": {"type": "ephemeral"}, Anthropic's explicit cache
// breakpoint. A message that sets both Content and Parts, an unknown role,
// or reasoning with both effort and max_tokens is refused before sending,
// with [ErrFatal].
//
// Which parameters a model honours is in its listing
// ([OpenRouter.ListModels], [ModelInfo.Supports], [ModelInfo.Determinism]);
// its limits, reasoning defaults, full pricing and expiry are there too.
// [OpenRouter.Key] checks the key and reads its credit (GET /key),
// [OpenRouter.ListUserModels] what the account can route (/models/user)
// and [OpenRouter.Endpoints] a model's providers.
// OpenRouter drops an unsupported parameter silently unless
// provider.require_parameters is true.
//
// # What is read
//
// From a chat completion: choices[0].message.content, .reasoning (or the
// readable entries of .reasoning_details), .finish_reason and
// .native_finish_reason; the top-level id, model and provider; usage with
// prompt_tokens_details.cached_tokens and cache_write_tokens,
// completion_tokens_details.reasoning_tokens and cost (nil unless a JSON
// number), prompt_tokens_details.cache_write_tokens, and with is_byok
// cost_details.upstream_inference_cost (added to the cost). From an error
// object, top-level or in a choice: code, message, availability, and
// metadata's error_type, provider_code, provider_name, raw (the
// upstream's error, kept as text whether it is a string or an object),
// reasons and flagged_input (moderation) and patterns (a guardrail), in
// [APIError]. The body itself is kept in [Response.RawBody].
//
// [Response.ReasoningExhausted] tells an answer lost to reasoning: the
// model stopped at the token limit (finish_reason "length") with blank
// content, or with reasoning_tokens ≥ ½·completion_tokens.
//
// # Streaming
//
// Every chat call streams ("stream": true, openai-go's NewStreaming):
// OpenRouter bills an abandoned non-streaming request in full, and stops
// generation and billing when a stream is closed. An attempt is closed
// when no byte, keep-alive comments (": OPENROUTER PROCESSING") included,
// has arrived for the idle timeout ([WithIdleTimeout]), or when the
// caller's context ends; an answer that keeps arriving is never cut. The
// chunks are assembled into the [Response] (content and reasoning joined,
// the last finish reason and usage, the first id, model and provider) and
// kept as a JSON array in [Response.RawBody], bounded: the first and last
// chunks and every chunk that carries more than content as they arrived,
// each run of chunks that differ in their content alone joined into one
// whose "harness_merged" member ([MergedChunk]) says how many it joins,
// their bytes and when they arrived (a 100 KB answer in 100,000 chunks
// records about 200 KB). Each [Attempt] records the
// generation id of its first chunk, the provider, its cost when reported,
// and Interrupted when the caller gave up with it in flight. A server that
// answers a stream request with a plain JSON body is read as before.
//
// # Errors: model, request or retry
//
// Every failure is classified by what it is about ([Scope], in
// classify.go's table): from error.metadata.error_type first, then the
// status (or, inside a 200 or a stream's error event, the code) and
// error.availability.
//
//   - ScopeModel (errors.Is ErrFatal): a bad key, exhausted credit
//     (ErrOutOfCredit: a 402 without an amount, or one whose credit "can
//     only afford 0"), a key without the permission, an unknown or
//     retired model, no allowed provider or endpoint for the model,
//     availability.retryable false, an API that cannot be reached (code
//     "unreachable"). Returned at once.
//   - ScopeRequest (errors.Is ErrRequest): a refusal, a content policy,
//     moderation or guardrail block, a prompt or output too long
//     (ErrContextLength for the prompt), a 402 whose credit affords some
//     tokens (the reservation of max_tokens, "Prompt tokens limit
//     exceeded: N > M"), no endpoint for the request's parameters
//     (whatever availability says), finish_reason content_filter, any
//     other 4xx. Returned at once.
//
// Error bodies recorded from the live API carry no error_type, so the
// wording decides where the type is absent (model/testdata/recorded). An
// error event that follows a "length" finish in a stream ({"code":400,
// "message":"Token limit reached"}) is no failure: the answer was cut off
// at its budget, and is returned with finish reason "length".
//   - ScopeRetry: 408, 409, 429 (ErrRateLimited once the retries are
//     spent), 5xx and their error_types, availability.retryable true, a
//     transport error, a silent stream (code "idle_timeout"), a stream cut
//     before its finish reason ("cut_short"), a blank completion ("blank":
//     no content, no finish reason), a body that is not a completion (at
//     most 2 times).
//
// Retries go up to MaxRetries (default 4, so 5 attempts). The wait before
// retry n (0-based) is
//
//	min(server, 2·max)                 when retry-after-ms or Retry-After is present
//	uniform in [0, min(max, base·2ⁿ)]  otherwise (full jitter)
//
// with base and max from [WithBackoff] (default 1s and 30s). retry-after-ms
// is preferred over Retry-After, which may be seconds or an HTTP date. When
// the caller's context ends, Complete returns at once with an error
// wrapping ctx.Err().
//
// # Prompts too long for the model
//
// A prompt (plus max_tokens) longer than the model's context matches
// [ErrContextLength] (and ErrRequest). It is recognised when the error is
//
//	code or error_type = "context_length_exceeded" (any status), or
//	400 (HTTP status, or code inside a 200) and message or metadata.raw contains,
//	ignoring case, one of: "context length", "context_length",
//	"maximum context", "context window", "prompt is too long",
//	"too many tokens", "exceeds the maximum number of tokens"
//
// which covers OpenRouter's own check ("This endpoint's maximum context
// length is N tokens. However, you requested about M tokens ..."), and the
// upstream wordings of OpenAI, Anthropic and Gemini quoted in
// metadata.raw.
//
// # Secrets
//
// The API key never appears in a returned error, an [Attempt] or
// [Response.RawBody]: should a server echo it, it is replaced by
// "[REDACTED]". That holds for the body as sent and for the body as
// decoded, at every level the harness decodes: a JSON string that spells
// the key with escapes (sk\u002dor-…), and a string of the answer's own
// JSON inside it (the body's \\u002d, which scoring decodes again), are
// redacted and re-encoded. A body that still spells the key once every
// escape is decoded, with no string literal to redact it from, is not kept:
// it is replaced by a JSON string saying so, and the attempt fails as a
// bad response.
//
// # Usage
//
// The usage object is accounting, not the answer: it is read leniently. A
// count that is not a whole number (12.5, 1e400, "12") or over
// [MaxTokenCount], or a cost outside [ValidCost] (negative, 1e308), is
// left 0 (nil) and named, with the value as sent,
// in [Usage.Unread]; the answer is kept. So are id, model and provider
// of a type other than a string (kept as their JSON text).
package model
