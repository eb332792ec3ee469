package transcript

import (
	"errors"

	"bendscript.com/round-trip-harness/model"
)

// RequestOf records a model request: everything that is sent. TaskID,
// which only tells offline models the task and is never sent, is not
// recorded.
func RequestOf(r model.Request) Request {
	msgs := make([]Message, len(r.Messages))
	for i, m := range r.Messages {
		msgs[i] = Message{Role: m.Role, Content: m.Content}
		for _, p := range m.Parts {
			msgs[i].Parts = append(msgs[i].Parts, Part{Text: p.Text, Cache: p.Cache})
		}
	}
	return Request{
		Model:       r.Model,
		Messages:    msgs,
		Temperature: r.Temperature,
		Seed:        r.Seed,
		MaxTokens:   r.MaxTokens,
		JSONSchema:  r.JSONSchema,
		SchemaName:  r.SchemaName,
		Provider:    r.Provider,
		Reasoning:   r.Reasoning,
		SessionID:   r.SessionID,
	}
}

// ResponseOf records a model response.
func ResponseOf(r *model.Response) *Response {
	return &Response{
		Content:            r.Content,
		FinishReason:       r.FinishReason,
		NativeFinishReason: r.NativeFinishReason,
		Reasoning:          r.Reasoning,
		Provider:           r.Provider,
		ModelServed:        r.ModelServed,
		ID:                 r.ID,
		Usage: Usage{
			PromptTokens:     r.Usage.PromptTokens,
			CompletionTokens: r.Usage.CompletionTokens,
			CachedTokens:     r.Usage.CachedTokens,
			ReasoningTokens:  r.Usage.ReasoningTokens,
			Cost:             r.Usage.Cost,
			CacheWriteTokens: r.Usage.CacheWriteTokens,
			UpstreamCost:     r.Usage.UpstreamCost,
			Unread:           r.Usage.Unread,
			Estimated:        r.Usage.Estimated,
		},
		LatencyMS: r.LatencyMS,
		RawBody:   r.RawBody,
	}
}

// AttemptsOf records the attempts of a call.
func AttemptsOf(as []model.Attempt) []Attempt {
	out := make([]Attempt, len(as))
	for i, a := range as {
		out[i] = Attempt{
			Number:       a.Number,
			StartedAt:    a.StartedAt,
			DurationMS:   a.DurationMS,
			Status:       a.Status,
			Error:        a.Error,
			RetryAfterMS: a.RetryAfterMS,
			WaitMS:       a.WaitMS,
			GenerationID: a.GenerationID,
			Provider:     a.Provider,
			Cost:         a.Cost,
			Interrupted:  a.Interrupted,
			Changed:      a.Changed,
		}
	}
	return out
}

// CallErrorOf records a failed call: the API error's status and code when
// it is one, and whether it is fatal for the model.
func CallErrorOf(err error) *CallError {
	ce := &CallError{Message: err.Error(), Fatal: errors.Is(err, model.ErrFatal)}
	var ae *model.APIError
	if errors.As(err, &ae) {
		ce.Status, ce.Code = ae.Status, ae.Code
		ce.Scope, ce.Reason, ce.Type = string(ae.Scope), ae.Reason, ae.Type
	}
	return ce
}
