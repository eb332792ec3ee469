package aggregate

import (
	"testing"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/verdict"
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

// TestVerdictKeepsWhetherTheSuiteGates: the report keeps whether its suite
// gates in its verdict (report.Report.Informational reads it there, so
// that the schema need not import the suite table): for every suite of
// the table, with failures and without, the verdict Build would write
// reads back as that suite's gating.
func TestVerdictKeepsWhetherTheSuiteGates(t *testing.T) {
	for _, s := range suites.Table {
		for _, fs := range [][]verdict.Failure{nil, {{Metric: verdict.MetricIncomplete}}} {
			r := &report.Report{Verdict: verdictOf(fs, s.Gates)}
			if r.Informational() == s.Gates {
				t.Errorf("suite %s (gates %v), %d failures: verdict %q reads as informational %v", s.Name, s.Gates, len(fs), r.Verdict, r.Informational())
			}
		}
	}
}
