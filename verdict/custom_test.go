package verdict

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestCustomValues: every threshold, weight, reading margin and gating
// list that differs from its default is listed by configuration key, as
// reports print it; a list differs only when its members do (not their
// order or case); the defaults list nothing.
func TestCustomValues(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		change func(*config.Config)
		want   []string
		reason string
	}{
		{"defaults", func(*config.Config) {}, nil, "the spec's configuration is no custom one"},
		{"threshold", func(c *config.Config) { c.Thresholds.ClassBP95Max = 0.5 },
			[]string{"thresholds.class_b_p95_max 0.5 (default 0.2)"}, "a §8.5 threshold"},
		{"gate off", func(c *config.Config) { c.Thresholds.ClassBInvalidMax = nil },
			[]string{"thresholds.class_b_invalid_max 0 (default 0.05)"}, "a harness gate taken away reads as 0"},
		{"weight", func(c *config.Config) { c.Weights.MarkFidelity = 0.2 },
			[]string{"weights.mark_fidelity 0.2 (default 0.1)"}, "a §8.4 weight"},
		{"reading", func(c *config.Config) { c.Reading.NarrowShare = 0.1 },
			[]string{"reading.narrow_share 0.1 (default 0.05)"}, "a wider margin changes the reading (issue 45)"},
		{"vendors reordered", func(c *config.Config) { c.Gating.Vendors = []string{"Google", "anthropic", " openai"} }, nil,
			"the same vendors in another order or case are the same rule"},
		{"vendors", func(c *config.Config) { c.Gating.Vendors = []string{"anthropic", "openai", "meta"} },
			[]string{"gating.vendors [anthropic, openai, meta] (default [anthropic, openai, google])"}, "another vendor is another rule"},
		{"tier-down emptied", func(c *config.Config) { c.Gating.TierDown = []string{} },
			[]string{"gating.tier_down [] (default [haiku, sonnet, mini, nano, flash, lite])"}, "an emptied list let a tier-down triple gate (issue 45)"},
		{"several, by section", func(c *config.Config) {
			c.Reading.NarrowFraction, c.Weights.BlockStructure, c.Thresholds.ClassCMedianMax = 0.3, 0.5, 0.2
		}, []string{"thresholds.class_c_median_max 0.2 (default 0.1)", "weights.block_structure 0.5 (default 0.25)", "reading.narrow_fraction 0.3 (default 0.2)"},
			"thresholds, weights, reading, gating; by key within each"},
	}) {
		cfg := config.Default()
		c.change(cfg)
		var got []string
		for _, v := range CustomValues(cfg) {
			got = append(got, v.String())
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q (%s)", c.name, got, c.want, c.reason)
		}
	}
}
