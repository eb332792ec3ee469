package verdict

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
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

// TestEligibleOverFacts: §8.6's reasons come from plain facts, in their
// fixed order, and a run that meets every rule gates.
func TestEligibleOverFacts(t *testing.T) {
	t.Parallel()
	g := config.Default().Gating
	models := []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}
	if el := Eligible(g, Facts{Gates: true, Suite: "gating", Models: models}); !el.Gates || len(el.Reasons) != 0 {
		t.Errorf("a run of one frontier model per vendor does not gate: %v", el.Reasons)
	}
	el := Eligible(g, Facts{Gates: true, Suite: "gating", Models: models, Partial: "--classes B", BaseURL: "http://127.0.0.1:9/api/v1", ServedOther: 2, ServedExample: "x for y"})
	if el.Gates || len(el.Reasons) != 3 {
		t.Fatalf("a partial run through another root with swapped answers: %v", el.Reasons)
	}
	for i, prefix := range []string{"a selection of the suite (--classes B)", "the API root http://127.0.0.1:9/api/v1 is not OpenRouter's", "2 answers were served by another model"} {
		if len(el.Reasons[i]) < len(prefix) || el.Reasons[i][:len(prefix)] != prefix {
			t.Errorf("reason %d: %q, want it to start %q", i, el.Reasons[i], prefix)
		}
	}
}

// frontier are three frontier models, one of each of §8.6's vendors.
var frontier = []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}

// TestEligibleReasons: each of §8.6's rules over plain facts (the run
// otherwise the gating suite's, whole, of three frontier models), with
// the reasons it gives, in the rules' order.
func TestEligibleReasons(t *testing.T) {
	t.Parallel()
	g := config.Default().Gating
	g.APIRoots = []string{"https://gateway.example/api/v1/"}
	facts := func(change func(*Facts)) Facts {
		f := Facts{Gates: true, Suite: "gating", Models: frontier}
		change(&f)
		return f
	}
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		facts  Facts
		want   []string
		reason string
	}{
		{"gates", facts(func(*Facts) {}), nil, "one frontier model of each vendor, the whole suite, complete"},
		{"OpenRouter's root", facts(func(f *Facts) { f.BaseURL = "https://openrouter.ai/api/v1/" }), nil, "OpenRouter's API root, with or without its slash"},
		{"a listed root", facts(func(f *Facts) { f.BaseURL = "https://gateway.example/api/v1" }), nil, "a root in gating.api_roots forwards to OpenRouter"},
		{"informational", facts(func(f *Facts) { f.Gates, f.Suite = false, "size" }),
			[]string{"suite size is informational: only the gating suite gates v0.1"}, "only a suite that gates can gate v0.1"},
		{"two models", facts(func(f *Facts) { f.Models = frontier[:2] }),
			[]string{"2 answering models, not 3 (§8.6: one frontier model of each of anthropic, openai, google)", "no google model (§8.6: one model of each vendor, to avoid single-vendor noise)"},
			"three models, and the missing vendor named"},
		{"one vendor twice", facts(func(f *Facts) {
			f.Models = []string{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.7", "google/gemini-3.1-pro-preview"}
		}),
			[]string{"2 anthropic models (§8.6: one model of each vendor)", "no openai model (§8.6: one model of each vendor, to avoid single-vendor noise)"},
			"one model of each vendor, to avoid single-vendor noise; the vendors in the configuration's order"},
		{"another vendor", facts(func(f *Facts) { f.Models = []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "meta/llama-5"} }),
			[]string{"no google model (§8.6: one model of each vendor, to avoid single-vendor noise)", "meta/llama-5 is of none of the vendors anthropic, openai, google"},
			"a model of no configured vendor is named"},
		{"tier-down", facts(func(f *Facts) {
			f.Models = []string{"anthropic/claude-haiku-4.5", "openai/gpt-5.6-sol", "google/gemini-3-flash"}
		}),
			[]string{`anthropic/claude-haiku-4.5 is a tier-down model ("haiku"; §8.6: their results do not gate v0.1)`, `google/gemini-3-flash is a tier-down model ("flash"; §8.6: their results do not gate v0.1)`},
			"tier-down models do not gate"},
		{"offline", facts(func(f *Facts) {
			f.Models = []string{"offline/oracle", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}
		}),
			[]string{"no anthropic model (§8.6: one model of each vendor, to avoid single-vendor noise)", "offline/oracle is an offline reference model, not a frontier model"},
			"an offline model is no frontier model, and of no vendor to name apart"},
		{"--models", facts(func(f *Facts) { f.ConfiguredModels = []string{"a/b", "c/d"} }),
			[]string{"--models replaced the configuration's models (a/b, c/d): a run of other models is informational"}, "other models than the configuration's (issue 45)"},
		{"partial", facts(func(f *Facts) { f.Partial = "--docs 01" }),
			[]string{"a selection of the suite (--docs 01): a partial run decides nothing"}, "a selection decides nothing"},
		{"custom", facts(func(f *Facts) { f.Custom = []string{"thresholds.class_b_p95_max", "reading.narrow_share"} }),
			[]string{"custom configuration (thresholds.class_b_p95_max, reading.narrow_share): not the spec's thresholds and weights, or the shipped gating and reading rules"},
			"custom values are not the spec's"},
		{"stale metric", facts(func(f *Facts) { f.StaleMetric = true }),
			[]string{"scores computed by another metric version than " + metric.Version + ": rescore the run"}, "scores of another metric are rescored first"},
		{"formats", facts(func(f *Facts) { f.Formats = []string{"json-patch", "bend-ops"} }),
			[]string{"the gating tasks were not asked for the whole document (json-patch, bend-ops)"}, "§8's gating tasks answer with the whole document"},
		{"formats with the whole document", facts(func(f *Facts) { f.Formats = []string{"json-patch", "document"} }), nil, "the whole document among other formats gates"},
		{"another root", facts(func(f *Facts) { f.BaseURL = "http://127.0.0.1:9/api/v1" }),
			[]string{`the API root http://127.0.0.1:9/api/v1 is not OpenRouter's (` + model.DefaultBaseURL + `; §8.6: "all three are run via OpenRouter"): list it under gating.api_roots in harness.yaml if it forwards to OpenRouter`},
			"§8.6: all three are run via OpenRouter"},
		{"served by another", facts(func(f *Facts) { f.ServedOther, f.ServedExample = 1, "x for y" }),
			[]string{"1 answer was served by another model than the one asked for (x for y): §8.6 names the models that gate"}, "what answered is not the model named"},
		{"judge served by another", facts(func(f *Facts) { f.JudgeServedOther, f.JudgeServedExample = 1, "x for judge j on m's answer" }),
			[]string{"1 judge vote was served by another model than the judge asked for (x for judge j on m's answer): §8.4 names the judges, and an answer is never judged by the model that gave it"},
			"a vote counted as the judge's was another model's"},
		{"judge served by the answerer, on the id alone", facts(func(f *Facts) {
			f.JudgeServedOther, f.JudgeServedExample, f.JudgeServedSelf, f.JudgeServedIDAlone = 3, "m for judge j on m's answer", 2, true
		}),
			[]string{"3 judge votes were served by another model than the judge asked for (m for judge j on m's answer, 2 of them by the model whose answer they judged) (checked on the asked id alone: the run read no listing that gives the judge's canonical slug): §8.4 names the judges, and an answer is never judged by the model that gave it"},
			"§8.4: an answer judged by the model that gave it, said; and without a listing the check had the id alone, as for answers"},
		{"incomplete", facts(func(f *Facts) { f.Incomplete = []string{"m: incomplete run", "n: incomplete run"} }),
			[]string{"incomplete: m: incomplete run", "incomplete: n: incomplete run"}, "an incomplete run decides nothing"},
		{"in order", facts(func(f *Facts) {
			f.Gates, f.Suite, f.Models, f.Partial, f.StaleMetric, f.Incomplete = false, "relay", []string{"offline/noisy"}, "--limit 1", true, []string{"x"}
		}), []string{
			"suite relay is informational: only the gating suite gates v0.1",
			"1 answering model, not 3 (§8.6: one frontier model of each of anthropic, openai, google)",
			"no anthropic model (§8.6: one model of each vendor, to avoid single-vendor noise)",
			"no openai model (§8.6: one model of each vendor, to avoid single-vendor noise)",
			"no google model (§8.6: one model of each vendor, to avoid single-vendor noise)",
			"offline/noisy is an offline reference model, not a frontier model",
			"a selection of the suite (--limit 1): a partial run decides nothing",
			"scores computed by another metric version than " + metric.Version + ": rescore the run",
			"incomplete: x",
		}, "every reason, in the fixed order of §8.6's rules"},
	}) {
		el := Eligible(g, c.facts)
		if el.Gates != (len(c.want) == 0) || strings.Join(el.Reasons, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s: gates %v, reasons\n%s\nwant\n%s\n(%s)", c.name, el.Gates, strings.Join(el.Reasons, "\n"), strings.Join(c.want, "\n"), c.reason)
		}
		if el.Reasons == nil {
			t.Errorf("%s: reasons are null: the JSON says [] when there is none", c.name)
		}
	}
}
