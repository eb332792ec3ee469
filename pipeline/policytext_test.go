package pipeline

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
)

// TestPolicyTextMaximumOutput: the dry run's policy line gives the
// listing's maximum output, or says it is not listed; "maximum output 0"
// read as a limit of nothing (issue 52).
func TestPolicyTextMaximumOutput(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct {
		max    int
		want   string
		reason string
	}{
		{128000, "maximum output 128000", "a listed maximum is printed"},
		{0, "maximum output not listed", "the listing gave none (top_provider.max_completion_tokens null)"},
	}) {
		got := policyText(model.Policy{MaxTokens: 32000, JudgeMaxTokens: 4096, MaxOutput: c.max})
		if !strings.Contains(got, c.want) || strings.Contains(got, "maximum output 0") {
			t.Errorf("policyText = %q, want %q (%s)", got, c.want, c.reason)
		}
	}
}
