package aggregate

import (
	"testing"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestInformationalWarnings: the size and relay reports warned that "§8.5
// gates on three frontier models" and that statistics were "not the 20
// documents of §8.5" (issue 34): counts that qualify a gating verdict,
// which an informational suite does not give. They are left out there;
// what qualifies the numbers themselves (one repeat, cut-off answers)
// stays.
func TestInformationalWarnings(t *testing.T) {
	for name, run := range map[string]scoringtest.Run{"size": scoringtest.SizeRun(), "relay": scoringtest.RelayRun()} {
		r := Build(inputOf(run))
		kinds := map[string]bool{}
		for _, w := range r.Warnings {
			kinds[w.Kind] = true
		}
		for _, gating := range []string{report.WarnFewModels, report.WarnFewDocuments} {
			if kinds[gating] {
				t.Errorf("%s: warns %s: %+v", name, gating, r.Warnings)
			}
		}
		if !kinds[report.WarnInformational] {
			t.Errorf("%s: warnings do not say the suite is informational: %+v", name, r.Warnings)
		}
	}
}
