package verdict

import (
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/unit"
)

// Eligibility says whether a run can gate v0.1 (§8.6) and, if not, why.
type Eligibility struct {
	// Gates is true when the run can gate v0.1.
	Gates bool `json:"gates"`
	// Reasons are every reason it cannot, in a fixed order; empty when it
	// can.
	Reasons []string `json:"reasons"`
}

// Facts are what §8.6's eligibility reads of a run, as plain values.
type Facts struct {
	// Gates is whether the run's suite is one that gates (the gating
	// suite, or "all" on its gating tasks); Suite is its name.
	Gates bool
	Suite string
	// Models are the answering models; ConfiguredModels the
	// configuration's, when --models replaced them.
	Models           []string
	ConfiguredModels []string
	// Partial is the selection of a partial run, "" for the whole suite.
	Partial string
	// Custom are the configuration keys whose values are not the
	// defaults.
	Custom []string
	// StaleMetric is set when a score was computed by another metric
	// version than the current one.
	StaleMetric bool
	// Formats are the answer formats the run asked for.
	Formats []string
	// BaseURL is the API root the run's online models were asked through.
	BaseURL string
	// ServedOther counts the answers another model than the one asked for
	// served; ServedExample names the first.
	ServedOther   int
	ServedExample string
	// ServedIDAlone is set when some of those answers were checked on the
	// asked id alone: no listing gave the model's canonical_slug.
	ServedIDAlone bool
	// JudgeServedOther counts the class A judge votes another model than
	// the judge asked for served (judge.Vote.ModelServed); JudgeServedExample
	// names the first, JudgeServedSelf how many of them the model whose
	// answer they judged served (§8.4: an answer is never judged by the
	// model that gave it), and JudgeServedIDAlone is set when some of them
	// were checked on the asked id alone: no listing gave the judge's
	// canonical_slug.
	JudgeServedOther   int
	JudgeServedExample string
	JudgeServedSelf    int
	JudgeServedIDAlone bool
	// Incomplete are the messages of the run's incomplete failures.
	Incomplete []string
}

// Eligible is whether a run can gate v0.1, by §8.6 (g, the configuration's
// gating rules) and the run's own completeness: every reason it cannot.
func Eligible(g config.Gating, f Facts) Eligibility {
	var why []string
	add := func(format string, args ...any) { why = append(why, fmt.Sprintf(format, args...)) }
	if !f.Gates {
		add("suite %s is informational: only the gating suite gates v0.1", f.Suite)
	}
	if n := len(f.Models); n != len(g.Vendors) {
		add("%d answering %s, not %d (§8.6: one frontier model of each of %s)", n, unit.Plural(n, "model", "models"), len(g.Vendors), strings.Join(g.Vendors, ", "))
	}
	if c := f.ConfiguredModels; len(c) > 0 {
		add("--models replaced the configuration's models (%s): a run of other models is informational", strings.Join(c, ", "))
	}
	why = append(why, vendorReasons(f.Models, g)...)
	for _, m := range f.Models {
		if w := TierDownWord(m, g.TierDown); w != "" {
			add("%s is a tier-down model (%q; §8.6: their results do not gate v0.1)", m, w)
		}
		if strings.HasPrefix(m, "offline/") {
			add("%s is an offline reference model, not a frontier model", m)
		}
	}
	if f.Partial != "" {
		add("a selection of the suite (%s): a partial run decides nothing", f.Partial)
	}
	if len(f.Custom) > 0 {
		add("custom configuration (%s): not the spec's thresholds and weights, or the shipped gating and reading rules", strings.Join(f.Custom, ", "))
	}
	if f.StaleMetric {
		add("scores computed by another metric version than %s: rescore the run", metric.Version)
	}
	if len(f.Formats) > 0 && !formats.HasWhole(f.Formats) {
		add("the gating tasks were not asked for the whole document (%s)", strings.Join(f.Formats, ", "))
	}
	if why := apiRootReason(f.BaseURL, g); why != "" {
		add("%s", why)
	}
	if n, ex := f.ServedOther, f.ServedExample; n > 0 {
		alone := ""
		if f.ServedIDAlone {
			alone = " (checked on the asked id alone: the run read no listing that gives the model's canonical slug)"
		}
		add("%d %s served by another model than the one asked for (%s)%s: §8.6 names the models that gate", n, unit.Plural(n, "answer was", "answers were"), ex, alone)
	}
	if n, ex := f.JudgeServedOther, f.JudgeServedExample; n > 0 {
		self, alone := "", ""
		if k := f.JudgeServedSelf; k > 0 {
			self = fmt.Sprintf(", %d of them by the model whose answer %s", k, unit.Plural(k, "it judged", "they judged"))
		}
		if f.JudgeServedIDAlone {
			alone = " (checked on the asked id alone: the run read no listing that gives the judge's canonical slug)"
		}
		add("%d judge %s served by another model than the judge asked for (%s%s)%s: §8.4 names the judges, and an answer is never judged by the model that gave it", n, unit.Plural(n, "vote was", "votes were"), ex, self, alone)
	}
	for _, m := range f.Incomplete {
		add("incomplete: %s", m)
	}
	return Eligibility{Gates: len(why) == 0, Reasons: append([]string{}, why...)}
}

// vendorReasons say which of §8.6's vendors a run lacks and which it has
// more than one model of.
func vendorReasons(models []string, g config.Gating) []string {
	count := map[string]int{}
	for _, m := range models {
		v, _, _ := strings.Cut(m, "/")
		count[v]++
	}
	var out []string
	for _, v := range g.Vendors {
		switch n := count[v]; {
		case n == 0:
			out = append(out, fmt.Sprintf("no %s model (§8.6: one model of each vendor, to avoid single-vendor noise)", v))
		case n > 1:
			out = append(out, fmt.Sprintf("%d %s models (§8.6: one model of each vendor)", n, v))
		}
	}
	for _, m := range models {
		if v, _, _ := strings.Cut(m, "/"); !slices.Contains(g.Vendors, v) && !strings.HasPrefix(m, "offline/") {
			out = append(out, fmt.Sprintf("%s is of none of the vendors %s", m, strings.Join(g.Vendors, ", ")))
		}
	}
	return out
}

// TierDownWord is the tier-down word a model id holds as a word after its
// vendor, or "". A word is a run of letters, so that a word run together
// with a version counts ("mini" in openai/gpt-5-mini, gpt-5mini,
// "haiku" in claude-haiku4.5; issue 45), and a word inside a longer one
// does not ("mini" in gemini).
func TierDownWord(model string, words []string) string {
	_, name, _ := strings.Cut(model, "/")
	parts := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !('a' <= r && r <= 'z')
	})
	for _, w := range words {
		if slices.Contains(parts, strings.ToLower(w)) {
			return w
		}
	}
	return ""
}

// apiRootReason is why a run's API root keeps it from gating, "" when it
// does not: §8.6 says "All three are run via OpenRouter", so a run
// through another root (a local server answering under the gating ids)
// gates only when the configuration lists that root in gating.api_roots
// (a gateway that forwards to OpenRouter). A run with no online model
// records no root, and its offline models are their own reason.
func apiRootReason(baseURL string, g config.Gating) string {
	root := strings.TrimSuffix(baseURL, "/")
	if root == "" || root == model.DefaultBaseURL {
		return ""
	}
	if slices.ContainsFunc(g.APIRoots, func(r string) bool { return strings.TrimSuffix(r, "/") == root }) {
		return ""
	}
	return fmt.Sprintf("the API root %s is not OpenRouter's (%s; §8.6: \"all three are run via OpenRouter\"): list it under gating.api_roots in harness.yaml if it forwards to OpenRouter", root, model.DefaultBaseURL)
}
