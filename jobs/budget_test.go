package jobs_test

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/task"
)

// TestBudgetNeverAboveMaxOutput: no budget is above the model's maximum
// output; a whole-document answer gets the document's tokens plus the
// policy's reasoning allowance, capped to the maximum when the document
// fits it and not sent when it does not (issue 43: the 512k rung asked
// for ~181,000 tokens of models that give 128,000 and 65,536).
func TestBudgetNeverAboveMaxOutput(t *testing.T) {
	t.Parallel()
	doc := func(n int) *task.Task {
		return &task.Task{ID: "d-b", Class: task.ClassB, Source: &task.Document{Bytes: make([]byte, n)}}
	}
	for _, c := range tabletest.Cases(t, []struct {
		name         string
		t            *task.Task
		p            jobs.Params
		budget       int
		capped, skip bool
		reason       string
	}{
		{"fits", doc(3000), jobs.Params{MaxTokens: 32000, MaxOutput: 128000}, 32000, false, false,
			"a configured budget below the maximum is sent as it is"},
		{"configured above max", doc(3000), jobs.Params{MaxTokens: 32000, MaxOutput: 16000}, 16000, true, false,
			"a configured budget above the maximum is capped to it"},
		{"fitted with reasoning", doc(300000), jobs.Params{MaxTokens: 32000, FitOutput: true, ReasoningAllowance: 16384, MaxOutput: 128000}, 100000 + 16384, false, false,
			"a fitted budget is the document's tokens plus the reasoning allowance"},
		{"fitted above max", doc(360000), jobs.Params{MaxTokens: 32000, FitOutput: true, ReasoningAllowance: 16384, MaxOutput: 128000}, 128000, true, false,
			"a document that fits the maximum but not with its reasoning allowance is capped: less room to reason"},
		{"document above max", doc(524288), jobs.Params{MaxTokens: 32000, FitOutput: true, ReasoningAllowance: 16384, MaxOutput: 65536}, 0, false, true,
			"a document whose re-emission alone is above the maximum is not sent"},
		{"unknown max", doc(524288), jobs.Params{MaxTokens: 32000, FitOutput: true}, 174762 + 4096, false, false,
			"without a listed maximum the fitted budget stands (the context check still applies)"},
	}) {
		b, capped, skip := jobs.Budget(c.t, c.p)
		if (capped != "") != c.capped || (skip != "") != c.skip || !c.skip && b != c.budget {
			t.Errorf("%s: budget %d, capped %q, skip %q; want %d, capped %v, skipped %v (%s)", c.name, b, capped, skip, c.budget, c.capped, c.skip, c.reason)
		}
		if !c.skip && c.p.MaxOutput > 0 && b > c.p.MaxOutput {
			t.Errorf("%s: budget %d above the maximum output %d", c.name, b, c.p.MaxOutput)
		}
		if skip != "" && !strings.Contains(skip, "maximum output") {
			t.Errorf("%s: the reason does not name the maximum output: %s", c.name, skip)
		}
	}
}
