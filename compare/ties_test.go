package compare_test

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestCompareOpensWithWhatChanged: a second night that adds a failure (a
// model whose class C edits are no longer applied) opens its comparison
// with the verdict and reading old → new and the failure added, before
// any table (a harness gate: §8.5's reading stays pass, and says the
// verdict fails); what differs is only what the two runs already had (a model
// served by two providers).
func TestCompareOpensWithWhatChanged(t *testing.T) {
	t.Parallel()
	old := build(scoringtest.PassingRun.Run())
	s := scoringtest.PassingRun
	base := s.Answer
	s.Answer = func(model, id string, r int) (float64, bool, string) {
		d, f, st := base(model, id, r)
		if model == s.Models[0] && strings.HasSuffix(id, "-c") && id < "05" {
			d = 0.2 // not applied (the synthetic edit holds under 0.1)
		}
		return d, f, st
	}
	new := build(s.Run())
	var out bytes.Buffer
	if err := compare.Compare(old, new, "night1.json", "night2.json").WriteText(&out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	if len(lines) < 7 || lines[3] != "verdict: PASS → FAIL" || !strings.HasPrefix(lines[4], "reading: pass, v0.1 may be called final (§8.5) → pass, v0.1 may be called final (§8.5); the harness's own gates (†) fail") ||
		!strings.HasPrefix(lines[5], "failure added: "+s.Models[0]+": class C edits applied 80%") || !strings.HasPrefix(lines[6], "differs: ") ||
		strings.Contains(out.String(), "differs: repeats") || strings.Contains(out.String(), "differs: seeds") {
		t.Errorf("the comparison does not open with what changed:\n%s", strings.Join(lines[:min(len(lines), 9)], "\n"))
	}
}

// build is the report of a test run.
func build(r scoringtest.Run) *report.Report {
	return aggregate.Build(aggregate.Input{Manifest: r.Manifest, Config: r.Config, Scores: r.Scores, Set: r.Set})
}
