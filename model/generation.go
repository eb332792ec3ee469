package model

import (
	"context"
	"encoding/json"
	"fmt"

	"bendscript.com/round-trip-harness/internal/safetext"
	"github.com/openai/openai-go/v3/option"
)

// Generation is what GET {base}/generation?id= says of one generation
// afterwards: its exact cost and the provider that served it. An
// interrupted stream reports no usage; this is where its cost is known.
type Generation struct {
	ID       string
	Cost     *float64 // data.total_cost in USD; nil when absent or outside ValidCost
	Provider string   // data.provider_name
	Model    string   // data.model
}

// Generation asks OpenRouter for generation id, a bookkeeping call
// ([WithBookkeeping]: its own deadline, few retries). A generation
// OpenRouter does not know (404) is an [*APIError].
func (c *OpenRouter) Generation(ctx context.Context, id string) (*Generation, error) {
	if c.urlErr != nil {
		return nil, c.urlErr
	}
	call := func(ctx context.Context, opts ...option.RequestOption) error {
		return c.api.Get(ctx, "generation", nil, nil, append(opts, option.WithQuery("id", id))...)
	}
	out, err := bookkept(ctx, &c.cfg, call, interpretGeneration)
	if err != nil {
		return nil, fmt.Errorf("generation %s: %w", id, err)
	}
	return out, nil
}

// interpretGeneration reads {"data": {"id", "total_cost", "provider_name",
// "model", ...}} leniently: a cost that is not a valid number is left nil.
func interpretGeneration(ex exchange) (*Generation, *APIError) {
	var w struct {
		Data *struct {
			ID       json.RawMessage `json:"id"`
			Cost     json.RawMessage `json:"total_cost"`
			Provider json.RawMessage `json:"provider_name"`
			Model    json.RawMessage `json:"model"`
		} `json:"data"`
	}
	if err := json.Unmarshal(ex.body, &w); err != nil || w.Data == nil {
		return nil, (&APIError{Status: ex.status, Code: CodeBadResponse, Message: "response body is not a generation"}).classified()
	}
	g := &Generation{ID: safetext.Cap(rawText(w.Data.ID), MaxName), Provider: safetext.Cap(rawText(w.Data.Provider), MaxName),
		Model: safetext.Cap(rawText(w.Data.Model), MaxName)}
	var cost float64
	if json.Unmarshal(w.Data.Cost, &cost) == nil && ValidCost(cost) {
		g.Cost = &cost
	}
	return g, nil
}
