package report

import (
	"strings"
	"testing"

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
		all := strings.Join(r.Warnings, "\n")
		for _, gating := range []string{"§8.5 gates on three", "not the 20 of §8.5"} {
			if strings.Contains(all, gating) {
				t.Errorf("%s: warnings say %q:\n%s", name, gating, all)
			}
		}
		if !strings.Contains(all, "is informational") {
			t.Errorf("%s: warnings do not say the suite is informational:\n%s", name, all)
		}
	}
}
