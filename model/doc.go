// Package model is the harness's edge to frontier models: the [Client]
// interface that online and offline models share, and [OpenRouter], a
// client for OpenRouter's OpenAI-compatible chat-completions API built on
// github.com/openai/openai-go.
//
// # What is sent
//
// POST {base}/chat/completions with model, messages, temperature and seed
// (always, zero included), max_tokens when positive, and response_format
// json_schema (strict) when the request has a schema. Headers: the API key
// as "Authorization: Bearer", and OpenRouter's attribution headers
// HTTP-Referer and X-Title. No OPENAI_* environment variable is read.
//
// # Retries
//
// The SDK's own retries are off; the client retries so that every attempt
// lands in [Response.Attempts] and server-requested waits are followed
// exactly. An attempt is retried when it ends in
//
//   - HTTP 408, 409, 429 or 5xx;
//   - a transport error, or no complete answer within the attempt timeout;
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
// ErrFatal. When the caller's context ends, Complete returns at once with
// an error wrapping ctx.Err().
//
// # Secrets
//
// The API key never appears in a returned error, an [Attempt] or
// [Response.RawBody]: should a server echo it, it is replaced by
// "[REDACTED]".
package model
