package pipeline

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/transcript"
)

// TestRunsShowTheAPIRoot: harness runs says where a run's online models
// were asked, so that a run through another root than OpenRouter's (which
// cannot gate, §8.6) is told apart in the list.
func TestRunsShowTheAPIRoot(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		root, want, reason string
	}{
		{"", "-", "an offline run asked no API"},
		{model.DefaultBaseURL, "openrouter", "OpenRouter's root is named short"},
		{model.DefaultBaseURL + "/", "openrouter", "with a trailing slash too"},
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1", "any other root is shown whole"},
	}) {
		m := &transcript.Manifest{RunID: "r", Inputs: transcript.Inputs{BaseURL: c.root, ReportDir: t.TempDir()}}
		if got := runRowOf(t.TempDir(), m).API; got != c.want {
			t.Errorf("root %q shows as %q, want %q (%s)", c.root, got, c.want, c.reason)
		}
	}
}

// TestNewerInFamily: the preflight's note of a newer model names the
// listed models of the same family with a higher version, never a
// tier-down one, an older one or another family.
func TestNewerInFamily(t *testing.T) {
	t.Parallel()
	listed := map[string]model.ModelInfo{}
	for _, id := range []string{"anthropic/claude-opus-5", "anthropic/claude-opus-5.5", "anthropic/claude-opus-4.8", "anthropic/claude-sonnet-6",
		"anthropic/claude-haiku-7", "openai/gpt-5.6-sol", "openai/gpt-5.6", "openai/gpt-5.7-mini", "openai/gpt-6", "google/gemini-3.1-pro-preview"} {
		listed[id] = model.ModelInfo{ID: id}
	}
	tierDown := []string{"haiku", "sonnet", "mini", "nano", "flash", "lite"}
	for _, c := range tabletest.Cases(t, []struct {
		model, want, reason string
	}{
		{"anthropic/claude-opus-5", "anthropic/claude-opus-5.5", "5.5 is newer; 4.8 is older; Sonnet and Haiku are other, tier-down families"},
		{"openai/gpt-5.6-sol", "openai/gpt-6", "the same version is not newer, and a mini is tier-down"},
		{"google/gemini-3.1-pro-preview", "", "nothing newer listed"},
	}) {
		got := newerInFamily(c.model, listed, tierDown)
		if s := strings.Join(got, ","); s != c.want {
			t.Errorf("%s: newer %q, want %q (%s)", c.model, s, c.want, c.reason)
		}
	}
}
