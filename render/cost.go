package render

import (
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
)

// CostText says what the night cost (report.NightCost) in one sentence or
// two: the whole as `harness runs` prints it (to the hundredth of a cent),
// how much of it is known, its parts (answers always, the others when the
// night had any), the abandoned attempts not priced yet, and for a BYOK
// night OpenRouter's charge and the providers' apart. "" when the report
// has no cost (a run of offline models).
func CostText(c *report.NightCost) string {
	if c == nil {
		return ""
	}
	known := "all of it known"
	if c.Unknown > 0 {
		known = fmt.Sprintf("known; %d %s of unknown cost not in it", c.Unknown, unit.Plural(c.Unknown, "call", "calls"))
	}
	parts := []string{"answers " + partText(c.Answers, "call", "calls")}
	for _, p := range []struct {
		name     string
		part     report.CostPart
		one, all string
	}{
		{"feedback rounds", c.FeedbackRounds, "call", "calls"},
		{"judge votes", c.JudgeVotes, "call", "calls"},
		{"attempts asked again", c.Superseded, "attempt", "attempts"},
		{"abandoned attempts priced afterwards by GET /generation", c.Reconciled, "attempt", "attempts"},
	} {
		if p.part.Calls > 0 || p.part.Unknown > 0 {
			parts = append(parts, p.name+" "+partText(p.part, p.one, p.all))
		}
	}
	s := fmt.Sprintf("Cost of the night: $%.4f, %s: %s", c.USD, known, strings.Join(parts, ", "))
	if c.Unresolved > 0 {
		s += fmt.Sprintf("; %d abandoned %s not priced yet (`harness runs --reconcile` asks again)", c.Unresolved, unit.Plural(c.Unresolved, "attempt", "attempts"))
	}
	s += "."
	if b := c.BYOK; b != nil {
		s += fmt.Sprintf(" A BYOK night (%d %s with the account's own provider keys): OpenRouter charged $%.4f, the providers $%.4f to those keys.",
			b.Calls, unit.Plural(b.Calls, "call", "calls"), b.OpenRouterUSD, b.ProviderUSD)
	}
	return s
}

// partText is one part of a night's cost: "$1.23 (60 calls)", with its
// calls of unknown cost.
func partText(p report.CostPart, one, all string) string {
	s := fmt.Sprintf("$%.2f (%d %s", p.USD, p.Calls, unit.Plural(p.Calls, one, all))
	if p.Unknown > 0 {
		s += fmt.Sprintf(", %d unknown", p.Unknown)
	}
	return s + ")"
}
