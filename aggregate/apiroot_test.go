package aggregate

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/verdict"
)

// TestOnlyOpenRouterGates: §8.6 "All three are run via OpenRouter": a
// gating run through another API root reads inconclusive with that
// reason, unless gating.api_roots lists the root (a gateway that forwards
// to OpenRouter); the root is in the report (issue 43: a local server
// answering under the three ids printed "v0.1 may be called final").
func TestOnlyOpenRouterGates(t *testing.T) {
	t.Parallel()
	const local = "http://127.0.0.1:8080/api/v1"
	for _, c := range tabletest.Cases(t, []struct {
		name, root string
		listed     []string
		gates      bool
		reason     string
	}{
		{"openrouter", model.DefaultBaseURL, nil, true, "OpenRouter's own root gates"},
		{"openrouter, trailing slash", model.DefaultBaseURL + "/", nil, true, "the same root written with a slash is the same root"},
		{"local server", local, nil, false, "any other root is not OpenRouter: informational"},
		{"listed gateway", local, []string{local}, true, "a root listed in gating.api_roots stands for OpenRouter"},
		{"another listed", local, []string{"https://gw.example/api/v1"}, false, "only the listed roots"},
	}) {
		in := inputOf(scoringtest.Synthetic{Models: gatingModels, Repeats: 1, Answer: constant(0, true)}.Run())
		m := *in.Manifest
		m.Inputs.BaseURL = c.root
		cfg := *in.Config
		cfg.Gating.APIRoots = c.listed
		in.Manifest, in.Config = &m, &cfg
		r := Build(in)
		if r.Eligibility.Gates != c.gates || r.APIRoot != c.root {
			t.Errorf("%s: gates %v (%q), api_root %q; want gates %v (%s)", c.name, r.Eligibility.Gates, r.Eligibility.Reasons, r.APIRoot, c.gates, c.reason)
		}
		if !c.gates && (r.Reading.Outcome != verdict.ReadingInconclusive || !strings.Contains(strings.Join(r.Eligibility.Reasons, "\n"), "is not OpenRouter's")) {
			t.Errorf("%s: reading %q, reasons %q; want inconclusive, naming the root (%s)", c.name, r.Reading.Outcome, r.Eligibility.Reasons, c.reason)
		}
		if c.gates && len(r.Custom) > 0 {
			t.Errorf("%s: api_roots counted as custom configuration %v: it is no threshold", c.name, r.Custom)
		}
	}
}
