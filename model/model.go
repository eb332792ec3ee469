package model

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`    // "system", "developer", "user" or "assistant"
	Content string `json:"content"` // plain text
}

// Request is one chat-completion call. The harness fills every field that
// affects the answer, so a transcript of the Request is enough to replay it.
type Request struct {
	Model    string    `json:"model"`    // OpenRouter model id, e.g. "anthropic/claude-sonnet-4"
	Messages []Message `json:"messages"` // the conversation, oldest first

	// Temperature and Seed are always sent, zero included, so the wire
	// request says what the harness asked for rather than leaving it to a
	// provider default.
	Temperature float64 `json:"temperature"`
	Seed        int64   `json:"seed"`

	MaxTokens int `json:"max_tokens,omitempty"` // sent as max_tokens; 0 omits it

	// JSONSchema, when set, asks for structured output:
	// response_format {type: json_schema, json_schema: {name, strict: true, schema}}.
	JSONSchema json.RawMessage `json:"json_schema,omitempty"`
	// SchemaName names the schema in response_format; "" means "response".
	SchemaName string `json:"schema_name,omitempty"`

	// TaskID is never sent. It lets offline models (which answer from the
	// task rather than the prompt) know which task is being asked.
	TaskID string `json:"task_id,omitempty"`
}

// Usage is the token accounting of one response.
type Usage struct {
	PromptTokens     int64 `json:"prompt_tokens"`     // usage.prompt_tokens
	CompletionTokens int64 `json:"completion_tokens"` // usage.completion_tokens
	CachedTokens     int64 `json:"cached_tokens"`     // usage.prompt_tokens_details.cached_tokens
	ReasoningTokens  int64 `json:"reasoning_tokens"`  // usage.completion_tokens_details.reasoning_tokens

	// Cost is usage.cost in USD as OpenRouter reports it. It is nil when the
	// response does not say, never 0, so that an unknown cost cannot be summed
	// as a free call.
	Cost *float64 `json:"cost"`
}

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
}

// Response is the outcome of a call: the answer when there is one, and
// everything the transcript needs either way.
type Response struct {
	Content      string `json:"content"`       // choices[0].message.content, exactly as returned
	FinishReason string `json:"finish_reason"` // choices[0].finish_reason, e.g. "stop", "length"
	Usage        Usage  `json:"usage"`
	Provider     string `json:"provider"`     // top-level "provider" (OpenRouter's upstream), "" if absent
	ModelServed  string `json:"model_served"` // top-level "model": what actually answered
	ID           string `json:"id"`           // top-level "id"

	// RawBody is the response body of the final attempt. A body that is not
	// JSON is kept as a JSON string, so a transcript holding it is still
	// valid JSON.
	RawBody json.RawMessage `json:"raw_body"`

	LatencyMS int64     `json:"latency_ms"` // duration of the final attempt
	Attempts  []Attempt `json:"attempts"`   // every attempt, failed ones included
}

// Client is anything that answers chat requests: the OpenRouter client and
// the offline models alike.
type Client interface {
	// Complete sends req and returns the response. On failure it still
	// returns the partial Response (with its Attempts) when at least one
	// attempt was made, so the failure can be recorded.
	Complete(ctx context.Context, req Request) (*Response, error)
}

// ErrFatal marks failures that will recur on every request to the same model
// (bad request, bad key, no credit, forbidden, model not found): callers stop
// all jobs of that model instead of burning retries on them.
// Test with errors.Is(err, ErrFatal).
var ErrFatal = errors.New("fatal API error")

// APIError is a failure that outlasted the retries or was not retryable.
type APIError struct {
	// Status is the HTTP status of the final attempt; 0 when no response
	// arrived (transport failure or attempt timeout). A failure reported
	// inside an HTTP 200 body keeps Status 200 and its code in Code.
	Status int
	// Code is the error code from the body's error object (OpenRouter sends
	// the HTTP status as a number; it is kept in decimal), or one of
	// CodeTimeout, CodeTransport, CodeBadResponse, CodeNoChoices.
	Code      string
	Message   string
	Retryable bool // whether the failure was of a kind that is retried
}

// Codes that the client assigns itself when the server sent none.
const (
	CodeTimeout     = "attempt_timeout" // no answer within the attempt timeout
	CodeTransport   = "transport"       // connection failed or broke
	CodeBadResponse = "bad_response"    // HTTP 200 whose body is not JSON
	CodeNoChoices   = "no_choices"      // HTTP 200 JSON without choices
)

// Error prints as "HTTP 429: message", "HTTP 200 (502): message" or
// "no response (attempt_timeout): message".
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
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// Is reports whether target is ErrFatal and the error is one of the
// statuses that end all jobs of a model: 400, 401, 402, 403, 404.
func (e *APIError) Is(target error) bool {
	return target == ErrFatal && fatalStatus(e.Status)
}

func fatalStatus(status int) bool {
	switch status {
	case 400, 401, 402, 403, 404:
		return true
	}
	return false
}

// ModelInfo is one entry of the provider's model list.
type ModelInfo struct {
	ID string
	// PromptPrice and CompletionPrice are USD per token; nil when the list
	// gives no fixed price (missing, unparsable, or OpenRouter's "-1" for
	// variable-price routers).
	PromptPrice, CompletionPrice *float64
	SupportedParameters          []string // e.g. "temperature", "seed", "response_format"
	ContextLength                int      // tokens; 0 when unknown
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
