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
		{"openai/gpt-5", "openai/gpt-5:batch", true, true, "the batch variant is a routing variant too (issue 52)"},
		{"openai/gpt-5", "openai/gpt-5:mystery", true, false, "an unknown variant may be another listing: not served as asked, yet a judge under it shares the weights"},
		{"anthropic/claude-sonnet-4.5", "claude-sonnet-4.5-20250929", false, true, "a provider's own dated name is the model asked for"},
		{"openai/gpt-5", "openai/gpt-5-mini", false, false, "a smaller sibling is another model"},
		{"vendor/a:free", "vendor/a", true, true, "the asked id's own variant routes to the same model: the base id served is the one asked for"},
		{"openai/gpt-5.5", "openai/gpt-5.5-20260423", false, true, "OpenAI's dated name (opencode recording openrouter-gpt-5-5-drives-a-tool-loop.json)"},
	}) {
		if got := SameWeights(c.a, c.b); got != c.sameWeights {
			t.Errorf("SameWeights(%q, %q) = %v (%s)", c.a, c.b, got, c.reason)
		}
		if got := ServedAsAsked(c.a, "", c.b); got != c.served {
			t.Errorf("ServedAsAsked(%q, %q) = %v (%s)", c.a, c.b, got, c.reason)
		}
	}
}

// TestServedAsAskedByTheListing: the served strings recorded from the
// live API (model/testdata/recorded/README.md names each source) are
// read against the listing's canonical_slug: Anthropic's version-first
// slug is the model asked for when the listing gives it, and only then; a
// fallback to another vendor's model never is.
func TestServedAsAskedByTheListing(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		asked, canonical, served string
		want                     bool
		reason                   string
	}{
		{"anthropic/claude-opus-4.7", "anthropic/claude-4.7-opus-20260416", "anthropic/claude-4.7-opus-20260416", true, "Anthropic is served under its canonical slug, version first (opencode recording, Amazon Bedrock)"},
		{"anthropic/claude-opus-4.7", "", "anthropic/claude-4.7-opus-20260416", false, "without a listing the id alone decides, and the slug does not start with it"},
		{"anthropic/claude-sonnet-4.6", "anthropic/claude-4.6-sonnet-20260217", "anthropic/claude-4.6-sonnet-20260217", true, "pydantic-ai cassette test_openrouter_cache_all_settings_real_api.yaml"},
		{"anthropic/claude-sonnet-4.6", "anthropic/claude-4.6-sonnet-20260217", "anthropic/claude-4.5-sonnet-20250929", false, "another canonical slug is another model, though of the same family"},
		{"anthropic/claude-opus-4.7:nitro", "anthropic/claude-4.7-opus-20260416", "anthropic/claude-4.7-opus-20260416", true, "a variant asked is served under the base listing's slug"},
		{"anthropic/claude-opus-4.7", "anthropic/claude-4.7-opus-20260416", "anthropic/claude-4.7-opus-20260416:floor", true, "the slug with a routing variant"},
		{"anthropic/claude-opus-4.7", "anthropic/claude-4.7-opus", "anthropic/claude-4.7-opus-20260416", true, "a slug without date, served with one"},
		{"anthropic/claude-opus-4.7", "anthropic/claude-4.7-opus-20260416", "anthropic/claude-4.7-opus-20260416-mini", false, "a slug followed by another name is another listing"},
		{"openai/gpt-5.5", "openai/gpt-5.5-20260423", "openai/gpt-5.5-20260423", true, "OpenAI dates the id; the slug is the dated id"},
		{"google/gemini-3.1-pro-preview", "google/gemini-3.1-pro-preview-20260219", "google/gemini-3.1-pro-preview", true, "some recordings of an id come back plain"},
		{"google/gemini-2.5-flash:free", "google/gemini-2.5-flash", "x-ai/grok-4", false, "a fallback to another vendor's model (pydantic-ai cassette test_openrouter_with_native_options.yaml) is another model"},
		{"google/gemini-3.1-pro-preview", "google/gemini-3.1-pro-preview-20260219", "", false, "an empty served string names nothing (scoring leaves it out before asking)"},
	}) {
		if got := ServedAsAsked(c.asked, c.canonical, c.served); got != c.want {
			t.Errorf("ServedAsAsked(%q, %q, %q) = %v (%s)", c.asked, c.canonical, c.served, got, c.reason)
		}
	}
}
