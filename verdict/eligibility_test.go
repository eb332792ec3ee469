package verdict

import (
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestTierDownWord: a tier-down word counts as a word of the id after the
// vendor, whatever its case, never as part of another word.
func TestTierDownWord(t *testing.T) {
	t.Parallel()
	words := config.Default().Gating.TierDown
	for _, tc := range tabletest.Cases(t, []struct {
		model, want, reason string
	}{
		{"openai/gpt-5-mini", "mini", "a word of its own"},
		{"google/gemini-2.5-Flash-Lite", "flash", "any case; the first word of the list found"},
		{"anthropic/claude-sonnet-4.5", "sonnet", "Sonnet is tier-down (§8.6 names it)"},
		{"openai/gpt-5.6-sol", "", "no tier-down word"},
		{"vendor/miniature-7b", "", "mini inside a word is not the word"},
		{"mini/model-large", "", "the vendor is not the model's name"},
		{"anthropic/claude-haiku4.5", "haiku", "a word run together with its version (issue 45)"},
		{"openai/gpt-5mini", "mini", "a version run together with the word (issue 45)"},
		{"google/gemini-3.1-pro-preview", "", "mini inside gemini is not the word"},
	}) {
		if got := TierDownWord(tc.model, words); got != tc.want {
			t.Errorf("%s: %q, want %q (%s)", tc.model, got, tc.want, tc.reason)
		}
	}
}
