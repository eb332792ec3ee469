package model_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// costReply is a good answer whose usage reports cost usd.
func costReply(usd float64) modeltest.Reply {
	return modeltest.Reply{Content: "ok", Usage: &modeltest.Usage{PromptTokens: 1, CompletionTokens: 1, Cost: &usd}}
}

// TestAbsurdOrNegativeCostNeverTaken: a server that reported a cost of
// 1e308 per answer made the run's total +Inf, which no report can encode;
// one that reported -1 let every request past --max-cost. Both are named
// in usage.unread and the cost is unknown, never taken.
func TestAbsurdOrNegativeCostNeverTaken(t *testing.T) {
	for _, usd := range []float64{1e308, -1, model.MaxCallCost * 2} {
		srv := modeltest.NewScripted(t, costReply(usd))
		c, _ := newClient(srv)
		resp, err := c.Complete(context.Background(), request())
		if err != nil {
			t.Fatal(err)
		}
		if resp.Usage.Cost != nil || !slices.ContainsFunc(resp.Usage.Unread, func(s string) bool { return strings.HasPrefix(s, "cost: ") }) {
			t.Errorf("cost %g: Usage.Cost %v, unread %q; want no cost and the value named", usd, resp.Usage.Cost, resp.Usage.Unread)
		}
	}
}

// TestHugeTokenCountsNeverTaken: three prompt_tokens of 2^63-1 summed to
// 9223372036854775805; a count beyond MaxTokenCount is unread, so no sum
// of counts can overflow.
func TestHugeTokenCountsNeverTaken(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.OddUsage("ok", `{"prompt_tokens": 9223372036854775807, "completion_tokens": 1099511627777}`))
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage.PromptTokens != 0 || resp.Usage.CompletionTokens != 0 || len(resp.Usage.Unread) != 2 {
		t.Errorf("usage %+v; want both counts unread", resp.Usage)
	}
}

// TestRetriedPaidAttemptsAllCounted: three 200 responses without choices
// at $0.50 each, then a good answer at $0.50, were counted as $0.50: only
// the last attempt's charge was kept.
func TestRetriedPaidAttemptsAllCounted(t *testing.T) {
	half := 0.5
	noChoices := modeltest.Reply{Body: `{"id":"g","object":"chat.completion","model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"cost":0.5}}`}
	srv := modeltest.NewScripted(t, noChoices, noChoices, costReply(half))
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage.Cost == nil || *resp.Usage.Cost != 1.5 || len(resp.Attempts) != 3 {
		t.Errorf("cost %v after %d attempts; want 1.5 after 3", resp.Usage.Cost, len(resp.Attempts))
	}
	// A call that fails after paid attempts still carries their cost.
	srv = modeltest.NewScripted(t, noChoices)
	c, _ = newClient(srv, model.WithMaxRetries(1))
	resp, err = c.Complete(context.Background(), request())
	if err == nil || resp.Usage.Cost == nil || *resp.Usage.Cost != 1.0 {
		t.Errorf("failed call: err %v, cost %v; want an error and a cost of 1.0", err, resp.Usage.Cost)
	}
}
