package model

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestIdentity: the two questions of a model's identity have different
// answers for the same pair: a variant is the same weights and served as
// asked; a dated id is served as asked but is not the same string's
// weights; a smaller sibling is neither.
func TestIdentity(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		a, b                string
		sameWeights, served bool
		reason              string
	}{
		{"openai/gpt-5", "openai/gpt-5", true, true, "the same id"},
		{"openai/gpt-5", "openai/gpt-5:nitro", true, true, "a routing variant is the same weights, and a known variant is served as asked"},
		{"openai/gpt-5", "openai/gpt-5:mystery", true, false, "an unknown variant may be another listing: not served as asked, yet a judge under it shares the weights"},
		{"anthropic/claude-sonnet-4.5", "claude-sonnet-4.5-20250929", false, true, "a provider's own dated name is the model asked for"},
		{"openai/gpt-5", "openai/gpt-5-mini", false, false, "a smaller sibling is another model"},
		{"vendor/a:free", "vendor/a", true, false, "SameWeights is symmetric in variants; ServedAsAsked reads the asked id as given"},
	}) {
		if got := SameWeights(c.a, c.b); got != c.sameWeights {
			t.Errorf("SameWeights(%q, %q) = %v (%s)", c.a, c.b, got, c.reason)
		}
		if got := ServedAsAsked(c.a, c.b); got != c.served {
			t.Errorf("ServedAsAsked(%q, %q) = %v (%s)", c.a, c.b, got, c.reason)
		}
	}
}
