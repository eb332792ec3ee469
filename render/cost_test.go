package render

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
)

// TestCostText: the night's cost as the report's header says it: the
// whole to the hundredth of a cent (as harness runs prints it), how much
// is known, the parts the night had, the abandoned attempts not priced
// yet, and a BYOK night's two charges apart.
func TestCostText(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		cost   *report.NightCost
		want   string
		reason string
	}{
		{"offline", nil, "", "a run of offline models cost nothing and says nothing"},
		{"answers only", &report.NightCost{USD: 1.5, Answers: report.CostPart{Calls: 60, USD: 1.5}},
			"Cost of the night: $1.5000, all of it known: answers $1.50 (60 calls).",
			"a night of answers alone names no empty part"},
		{"every part", &report.NightCost{USD: 3.4567, Unknown: 2,
			Answers: report.CostPart{Calls: 60, USD: 2, Unknown: 1}, FeedbackRounds: report.CostPart{Calls: 3, USD: 0.1},
			JudgeVotes: report.CostPart{Calls: 40, USD: 1, Unknown: 1}, Superseded: report.CostPart{Calls: 1, USD: 0.2567},
			Reconciled: report.CostPart{Calls: 1, USD: 0.1}, Unresolved: 1},
			"Cost of the night: $3.4567, known; 2 calls of unknown cost not in it: answers $2.00 (60 calls, 1 unknown), feedback rounds $0.10 (3 calls), judge votes $1.00 (40 calls, 1 unknown), attempts asked again $0.26 (1 attempt), abandoned attempts priced afterwards by GET /generation $0.10 (1 attempt); 1 abandoned attempt not priced yet (`harness runs --reconcile` asks again).",
			"every part the night had, the unknown calls and the attempts OpenRouter has not priced are said"},
		{"BYOK", &report.NightCost{USD: 2, Answers: report.CostPart{Calls: 2, USD: 2}, BYOK: &report.BYOKCost{Calls: 1, OpenRouterUSD: 1.05, ProviderUSD: 0.95}},
			"Cost of the night: $2.0000, all of it known: answers $2.00 (2 calls). A BYOK night (1 call with the account's own provider keys): OpenRouter charged $1.0500, the providers $0.9500 to those keys.",
			"a BYOK night says so, with OpenRouter's charge and the providers' apart"},
	}) {
		if got := CostText(c.cost); got != c.want {
			t.Errorf("%s: CostText =\n%s\nwant\n%s\n(%s)", c.name, got, c.want, c.reason)
		}
	}
}
