package report

import (
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/stats"
)

// apiRootReason is why a run's API root keeps it from gating, "" when it
// does not: §8.6 says "All three are run via OpenRouter", so a run
// through another root (a local server answering under the gating ids)
// gates only when the configuration lists that root in gating.api_roots
// (a gateway that forwards to OpenRouter). A run with no online model
// records no root, and its offline models are their own reason.
func apiRootReason(in Input) string {
	root := strings.TrimSuffix(in.Manifest.Inputs.BaseURL, "/")
	if root == "" || root == model.DefaultBaseURL {
		return ""
	}
	if slices.ContainsFunc(in.Config.Gating.APIRoots, func(r string) bool { return strings.TrimSuffix(r, "/") == root }) {
		return ""
	}
	return fmt.Sprintf("the API root %s is not OpenRouter's (%s; §8.6: \"all three are run via OpenRouter\"): list it under gating.api_roots in harness.yaml if it forwards to OpenRouter", root, model.DefaultBaseURL)
}

// A document's share of its scored answers that have a property (edit
// applied, invalid, unchanged), as the gates' intervals and deciding
// documents read it.
type answerProperty func(RepeatResult) (has, known bool)

func applied(r RepeatResult) (bool, bool) {
	return r.EditApplied != nil && *r.EditApplied, r.EditApplied != nil
}

func invalid(r RepeatResult) (bool, bool) { return r.Valid != nil && !*r.Valid, r.Valid != nil }

// unchanged: an answer without a document counts as changed, as
// UnchangedRate counts it.
func unchanged(r RepeatResult) (bool, bool) {
	return r.Unrequested != nil && *r.Unrequested == 0, r.Status == "scored" && r.Drift != nil
}

// shareOf is the share of a document's scored answers with the property;
// nil when none is known.
func shareOf(d DocumentResult, has answerProperty) *float64 {
	n, k := 0, 0
	for _, r := range d.Repeats {
		h, known := has(r)
		if !known {
			continue
		}
		n++
		if h {
			k++
		}
	}
	if n == 0 {
		return nil
	}
	return ptr(float64(k) / float64(n))
}

// gateIntervals sets the bootstrap intervals of a class B or C result's
// gated statistics beside the drift: each resamples documents (repeats
// stay within their document) from the run's seed, a stream per statistic.
func (b *builder) gateIntervals(c *ClassResult, key string) {
	values := func(f func(DocumentResult) *float64) []float64 {
		var out []float64
		for _, d := range c.PerDocument {
			if v := f(d); v != nil {
				out = append(out, *v)
			}
		}
		return out
	}
	mean := func(f func(DocumentResult) *float64, name string) *Interval {
		return interval(stats.BootstrapMean(values(f), b.seed, key+"/"+name))
	}
	c.ResidualP95Interval = interval(stats.BootstrapQuantile(values(statResidual.document), 0.95, b.seed, key+"/residual-p95"))
	c.EditAppliedInterval = mean(statApplied.document, "applied")
	c.InvalidInterval = mean(statInvalid.document, "invalid")
	c.UnchangedInterval = mean(statUnchanged.document, "unchanged")
}

// repeatability counts, with two repeats or more, the tasks lossless in
// every scored repeat, some, or none; nil for one repeat.
func repeatability(docs []DocumentResult, repeats int) *Repeatability {
	if repeats < 2 {
		return nil
	}
	out := &Repeatability{Flaky: []string{}}
	for _, d := range docs {
		n, k := 0, 0
		for _, r := range d.Repeats {
			if r.Lossless != nil {
				n++
				if *r.Lossless {
					k++
				}
			}
		}
		switch {
		case n == 0:
			continue
		case k == n:
			out.Every++
		case k == 0:
			out.None++
		default:
			out.Some++
			out.Flaky = append(out.Flaky, d.TaskID)
		}
		out.Tasks++
	}
	return out
}

// TierDownWord is the tier-down word (of words, the configuration's
// gating.tier_down) that model's id holds as a word after its vendor, or
// "": such a model cannot gate (§8.6).
func TierDownWord(model string, words []string) string { return tierDownWord(model, words) }
