package verdict

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestMiss: a threshold's failure says the value beside the limit as the
// threshold's kind prints it, or why nothing was measured; a custom
// threshold adds its default.
func TestMiss(t *testing.T) {
	t.Parallel()
	ts := Table(config.Default().Thresholds)
	byMetric := map[string]Threshold{}
	for _, th := range ts {
		byMetric[th.Metric] = th
	}
	v := func(x float64) *float64 { return &x }
	custom := byMetric["class_b_median_drift"]
	custom.Limit = 0.5
	for _, c := range tabletest.Cases(t, []struct {
		name, metric string
		t            *Threshold
		v            *float64
		want         string
		reason       string
	}{
		{"drift", "class_b_median_drift", nil, v(0.2), "m: class B median drift 0.2, want ≤ 0.05", "a drift beside its limit, four decimals"},
		{"near", "class_b_median_drift", nil, v(0.05000001), "m: class B median drift 0.05000001, want ≤ 0.05", "a miss that would print as the limit prints in full"},
		{"share", "class_b_edit_applied", nil, v(0.5), "m: class B edits applied 50%, want ≥ 90%", "a harness share as percentages"},
		{"unmeasured", "class_a_faithfulness", nil, nil, "m: class A faithfulness was not measured (why)", "nothing measured says why"},
		{"custom", "", &custom, v(0.6), "m: class B median drift 0.6, want ≤ 0.5 (a custom threshold: §8.5 says ≤ 0.05)", "a custom threshold names its default"},
	}) {
		th := byMetric[c.metric]
		if c.t != nil {
			th = *c.t
		}
		f := Miss("m", th, c.v, "why")
		if got := f.Message + CustomNote(th); got != c.want {
			t.Errorf("%s: %q, want %q (%s)", c.name, got, c.want, c.reason)
		}
	}
}

// TestFailures: Failures lists a run without models, a partial gating
// run, each incomplete model with what it lacks and the answers that
// failed for their own request (eight named, the rest counted), then
// each threshold a measure does not hold; a class a selection left out
// and an informational run's thresholds are no failure.
func TestFailures(t *testing.T) {
	t.Parallel()
	ts := Table(config.Default().Thresholds)
	v := func(x float64) *float64 { return &x }
	held := func() []Measure {
		ms := make([]Measure, len(ts))
		for i, th := range ts {
			ms[i].Value = v(th.Limit)
		}
		return ms
	}
	var calls []FailedCall
	for i := range 10 {
		calls = append(calls, FailedCall{TaskID: "01-b", Repeat: i, Reason: "refused"})
	}
	failing := held()
	failing[0] = Measure{Value: v(0), Invalid: 3, Scored: 20}
	unselected := held()
	unselected[0] = Measure{NotSelected: true, NoClass: true}
	noClass := held()
	noClass[0] = Measure{NoClass: true}
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		run    Run
		models []Measured
		want   []string
		reason string
	}{
		{"no models", Run{Gates: true}, nil, []string{"the run has no models"}, "a run without models fails"},
		{"partial", Run{Gates: true, Partial: "--limit 2", Tasks: 2, Of: 60}, []Measured{{Model: "m", Measures: held()}},
			[]string{"partial run (--limit 2: 2 of the suite's 60 tasks): a selection can never give the gating verdict pass"}, "a selection of a gating suite never passes"},
		{"first error", Run{Gates: true}, []Measured{{Model: "m", Measures: held(), Incomplete: Incomplete{Missing: 1, APIErrors: 2}, FirstAPIError: "boom"}},
			[]string{"m: incomplete run: 1 missing transcript, 2 API errors (the first: boom); an incomplete run cannot pass"}, "an incomplete run quotes its first API error"},
		{"named calls", Run{Gates: true}, []Measured{{Model: "m", Measures: held(), Incomplete: Incomplete{APIErrors: 10, Undecided: 1}, FailedCalls: calls, FirstAPIError: "boom"}},
			[]string{"m: incomplete run: 10 API errors, 1 class A answer without a valid judge vote: 01-b r0: refused; 01-b r1: refused; 01-b r2: refused; 01-b r3: refused; 01-b r4: refused; 01-b r5: refused; 01-b r6: refused; 01-b r7: refused; and 2 more; an incomplete run cannot pass"},
			"the answers that failed for their own request are named, eight at most, before the first error"},
		{"invalid", Run{Gates: true}, []Measured{{Model: "m", Measures: failing}},
			[]string{"m: class A faithfulness 0%, want ≥ 90% (3 of 20 answers invalid: they could not be judged)"}, "a class A miss says how many answers could not be judged, its share a percentage as every table prints it (issue 56: 0.7, want ≥ 0.9)"},
		{"not selected", Run{Gates: true, Partial: "--classes B", Tasks: 20, Of: 60}, []Measured{{Model: "m", Measures: unselected}},
			[]string{"partial run (--classes B: 20 of the suite's 60 tasks): a selection can never give the gating verdict pass"}, "a class left out by a selection is no failure"},
		{"no class", Run{Gates: true}, []Measured{{Model: "m", Measures: noClass}},
			[]string{"m: class A faithfulness was not measured (the run has no task of this class)"}, "a class the run lacks is not measured, and says so"},
		{"informational", Run{}, []Measured{{Model: "m", Measures: failing, Incomplete: Incomplete{JudgeAPIErrors: 1}}},
			[]string{"m: incomplete run: 1 judge API error; an incomplete run cannot pass"}, "an informational run is judged on completeness alone"},
	}) {
		var got []string
		for _, f := range Failures(ts, c.run, c.models) {
			got = append(got, f.Message)
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q (%s)", c.name, got, c.want, c.reason)
		}
	}
}

// TestIncompleteWords: what makes a run incomplete, counted and worded,
// each kind in the singular or the plural; a complete run says nothing.
func TestIncompleteWords(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		n      Incomplete
		count  int
		want   string
		reason string
	}{
		{Incomplete{}, 0, "", "a complete run"},
		{Incomplete{Missing: 1}, 1, "1 missing transcript", "singular"},
		{Incomplete{Missing: 2, APIErrors: 1, JudgeAPIErrors: 3, Undecided: 2}, 8,
			"2 missing transcripts, 1 API error, 3 judge API errors, 2 class A answers without a valid judge vote", "every kind, in a fixed order"},
	}) {
		if c.n.Count() != c.count || c.n.String() != c.want {
			t.Errorf("%+v: %d %q, want %d %q (%s)", c.n, c.n.Count(), c.n.String(), c.count, c.want, c.reason)
		}
	}
}

// TestFailuresOfThresholds: a gating run's failures per model in the
// order of the models, then of the thresholds, each with the value, the
// limit and whose threshold it is; the harness's own gates fail the
// verdict as §8.5's do, and exactly eight failed answers are named
// without "more".
func TestFailuresOfThresholds(t *testing.T) {
	t.Parallel()
	ts := []Threshold{median, applied}
	calls := make([]FailedCall, 8)
	for i := range calls {
		calls[i] = FailedCall{TaskID: "02-c", Repeat: 0, Reason: "blocked"}
	}
	fs := Failures(ts, Run{Gates: true}, []Measured{
		{Model: "a", Measures: []Measure{{Value: ptr(0.2)}, {Value: ptr(0.5)}}},
		{Model: "b", Measures: []Measure{{Value: ptr(0.01)}, {Value: ptr(0.95)}}, Incomplete: Incomplete{APIErrors: 8}, FailedCalls: calls},
	})
	var got []string
	for _, f := range fs {
		got = append(got, f.Model+" "+f.Metric+" "+f.Source+": "+f.Message)
	}
	want := []string{
		"b incomplete : b: incomplete run: 8 API errors: " + strings.Repeat("02-c r0: blocked; ", 7) + "02-c r0: blocked; an incomplete run cannot pass",
		"a class_b_median_drift custom: a: class B median drift 0.2, want ≤ 0.1 (a custom threshold: §8.5 says ≤ 0.05)",
		"a class_b_edit_applied harness: a: class B edits applied 50%, want ≥ 90%",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v := fs[0].Value; v == nil || *v != 8 || fs[0].Op != "<=" || fs[0].Limit != 0 {
		t.Errorf("the incomplete failure's value %v %s %v, want 8 ≤ 0", v, fs[0].Op, fs[0].Limit)
	}
}
