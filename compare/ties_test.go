package compare_test

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/internal/reporttest"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/trend"
)

// TestDeterministicModelTiesAtAnyRepeats: offline/identity answers the
// same at every repeat, so its runs at 1, 3, 10 and 11 repeats differ in
// nothing it answered: no row changes and no row is tested, in compare
// and in trend. Its per-document means differed by 1e-17 (summed, then
// divided), and the signed-rank test called 11 repeats "better" (p=0.039).
func TestDeterministicModelTiesAtAnyRepeats(t *testing.T) {
	t.Parallel()
	var reps []*report.Report
	var names []string
	for _, k := range []int{1, 3, 10, 11} {
		run, _ := reporttest.Pipeline(t, []string{offline.Identity}, nil, k, 20260427)
		reps = append(reps, build(run))
		names = append(names, strings.Repeat("r", k))
	}
	for i, rep := range reps[1:] {
		c := compare.Compare(reps[0], rep, names[0], names[i+1])
		for _, r := range c.Rows {
			if r.Change != "=" || r.P != nil || (r.LosslessChange != "" && r.LosslessChange != "=") {
				t.Errorf("1 against %d repeats: %s class %s is %q/%q (p=%v, n=%d), want = without a test", len(names[i+1]), r.Model, r.Class, r.Change, r.LosslessChange, r.P, r.N)
			}
		}
		if c.Tests != 0 {
			t.Errorf("1 against %d repeats: %d tests, want none", len(names[i+1]), c.Tests)
		}
	}
	for _, s := range trend.Of(reps, names).Series {
		for _, p := range s.Points[1:] {
			if p.Change != "=" || p.P != nil {
				t.Errorf("trend %s class %s, report %d: %q (p=%v), want =", s.Model, s.Class, p.Report, p.Change, p.P)
			}
		}
	}
}

// TestCompareOpensWithWhatChanged: a second night that adds a failure (a
// model whose class C edits are no longer applied) opens its comparison
// with the verdict and reading old → new and the failure added, before
// any table; what differs is only what the two runs already had (a model
// served by two providers).
func TestCompareOpensWithWhatChanged(t *testing.T) {
	t.Parallel()
	old := build(reporttest.PassingRun.Run())
	s := reporttest.PassingRun
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
	if len(lines) < 7 || lines[3] != "verdict: PASS → FAIL" || !strings.HasPrefix(lines[4], "reading: pass, v0.1 may be called final (§8.5) → protocol failure") ||
		!strings.HasPrefix(lines[5], "failure added: "+s.Models[0]+": class C edits applied 80%") || !strings.HasPrefix(lines[6], "differs: ") ||
		strings.Contains(out.String(), "differs: repeats") || strings.Contains(out.String(), "differs: seeds") {
		t.Errorf("the comparison does not open with what changed:\n%s", strings.Join(lines[:min(len(lines), 9)], "\n"))
	}
}

// build is the report of a test run.
func build(r reporttest.Run) *report.Report {
	return report.Build(report.Input{Manifest: r.Manifest, Config: r.Config, Scores: r.Scores, Set: r.Set})
}
