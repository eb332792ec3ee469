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
// number; with is_byok, cost_details.upstream_inference_cost is added to
// it, [Usage.UpstreamCost]). From an error
// object, top-level or in a choice: code, message, and metadata's
// provider_name and raw (the upstream's error, kept as text whether it is
// a string or an object), in [APIError]. The body itself is kept in
// [Response.RawBody].
//
// [Response.ReasoningExhausted] tells an answer lost to reasoning: the
// model stopped at the token limit (finish_reason "length") with blank
// content, or with reasoning_tokens ≥ ½·completion_tokens.
//
// # Retries
//
// The SDK's own retries are off; the client retries so that every attempt
// lands in [Response.Attempts] and server-requested waits are followed
// exactly. An attempt is retried when it ends in
//
//   - HTTP 408, 409, 429 or 5xx;
//   - a transport error, or no complete answer within the attempt timeout,
//     except a refused connection, a host name that does not exist and a
//     TLS failure (code "unreachable"): the next attempt would meet them
//     at once, so they are returned at once and match [ErrFatal];
//   - HTTP 200 carrying an error object or finish_reason "error" (OpenRouter's
//     way of reporting a failure mid-generation) whose code is absent, not a
//     number, 408, 429 or 5xx;
//   - HTTP 200 whose body is not JSON or has no choices, at most 2 times.
//
// up to MaxRetries retries (default 4, so 5 attempts). The wait before
// retry n (0-based) is
//
//	min(server, 2·max)                 when retry-after-ms or Retry-After is present
//	uniform in [0, min(max, base·2ⁿ)]  otherwise (full jitter)
//
// with base and max from [WithBackoff] (default 1s and 30s). retry-after-ms
// is preferred over Retry-After, which may be seconds or an HTTP date.
//
// HTTP 400, 401, 402, 403 and 404 are returned at once as an [*APIError]
// that matches [ErrFatal]: the same request, or any request to that model,
// would fail again. Other 4xx statuses are returned at once without
// ErrFatal. The same codes 401, 402, 403 and 404 reported inside an HTTP
// 200 body (an error object's code) are fatal too: no credit, a bad key or
// a missing model fail every further request alike, whatever status the
// failure came with. A 400 inside a 200 fails only its own request. When
// the caller's context ends, Complete returns at once with
// an error wrapping ctx.Err().
//
// # Prompts too long for the model
//
// One 400 is not fatal: a prompt (plus max_tokens) longer than the model's
// context fails that request only, since the model's shorter prompts still
// fit. It is returned at once, not retried, and matches [ErrContextLength]
// instead of ErrFatal. It is recognised when the error is
//
//	code = "context_length_exceeded" (any status), or
//	400 (HTTP status, or code inside a 200) and message or metadata.raw contains,
//	ignoring case, one of: "context length", "context_length",
//	"maximum context", "context window", "prompt is too long",
//	"too many tokens", "exceeds the maximum number of tokens"
//
// which covers OpenRouter's own check ("This endpoint's maximum context
// length is N tokens. However, you requested about M tokens ..."), and the
// upstream wordings of OpenAI, Anthropic and Gemini quoted in
// metadata.raw. Every other 400 stays fatal.
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
