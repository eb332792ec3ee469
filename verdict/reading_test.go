package verdict

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestReadOverPlainMeasures: the reading is decided from plain numbers
// alone (no report): a median and a P95 (read as a count of documents
// over its limit) of three models, against an eligible or an ineligible
// run.
func TestReadOverPlainMeasures(t *testing.T) {
	t.Parallel()
	ts := []Threshold{
		{Metric: "class_b_median_drift", Class: "B", Label: "class B median drift", Op: "<=", Limit: 0.1, Stat: StatMedian},
		{Metric: "class_b_p95_drift", Class: "B", Label: "class B P95 drift", Op: "<=", Limit: 0.2, Stat: StatP95},
	}
	margins := config.Reading{NarrowFraction: 0.05, NarrowShare: 0.02}
	gates := Eligibility{Gates: true, Reasons: []string{}}
	// model is a model whose median is median and whose P95 has over of
	// 20 documents over its limit.
	model := func(name string, median float64, over int) Measured {
		var docs []Document
		for i := range 20 {
			v := 0.05
			if i < over {
				v = 0.5
			}
			docs = append(docs, Document{TaskID: fmt.Sprintf("%02d-b", i+1), Value: &v})
		}
		p95 := 0.05
		if over > 1 {
			p95 = 0.5
		}
		return Measured{Model: name, Measures: []Measure{
			{Value: &median, Documents: docs},
			{Value: &p95, Documents: docs},
		}}
	}
	for _, c := range tabletest.Cases(t, []struct {
		name      string
		models    []Measured
		el        Eligibility
		want      string
		standings []string
		reason    string
	}{
		{"pass", []Measured{model("a", 0.05, 0), model("b", 0.02, 1), model("c", 0.03, 0)}, gates, ReadingPass,
			[]string{StandingClean, StandingClean, StandingClean}, "every threshold holds with the margin to spare; one document over a P95 of 20 is allowed"},
		{"weakness", []Measured{model("a", 0.05, 0), model("b", 0.02, 0), model("c", 0.104, 0)}, gates, ReadingWeakness,
			[]string{StandingClean, StandingClean, StandingNarrow}, "one model misses the median by less than 5% of its limit, the others pass cleanly"},
		{"p95 narrow", []Measured{model("a", 0.05, 0), model("b", 0.02, 0), model("c", 0.05, 2)}, gates, ReadingWeakness,
			[]string{StandingClean, StandingClean, StandingNarrow}, "two documents over a P95 of 20 is one too many: narrow"},
		{"p95 clear", []Measured{model("a", 0.05, 0), model("b", 0.02, 0), model("c", 0.05, 3)}, gates, ReadingProtocolFailure,
			[]string{StandingClean, StandingClean, StandingFails}, "three over is beyond the margin of one document"},
		{"two fail", []Measured{model("a", 0.2, 0), model("b", 0.02, 0), model("c", 0.104, 0)}, gates, ReadingProtocolFailure,
			[]string{StandingFails, StandingClean, StandingNarrow}, "two failing models are the protocol's failure"},
		{"ineligible", []Measured{model("a", 0.05, 0), model("b", 0.02, 0), model("c", 0.03, 0)}, Eligibility{Reasons: []string{"offline"}}, ReadingInconclusive,
			[]string{StandingClean, StandingClean, StandingClean}, "a run that cannot gate decides nothing, however its numbers read"},
	}) {
		rd := Read(ts, c.models, c.el, margins)
		if rd.Outcome != c.want {
			t.Errorf("%s: outcome %q (%s), want %q (%s)", c.name, rd.Outcome, rd.Why, c.want, c.reason)
		}
		for i, m := range rd.Models {
			if m.Standing != c.standings[i] {
				t.Errorf("%s: %s stands %q, want %q (%s)", c.name, m.Model, m.Standing, c.standings[i], c.reason)
			}
		}
	}
}

// median is §8.5's class B median threshold at limit 0.1, and p95 its
// P95 at 0.2; margins puts a median's narrow margin at 0.005 (5% of its
// limit) and a share's at 2 points.
var (
	median  = Threshold{Metric: "class_b_median_drift", Class: "B", Label: "class B median drift", Op: "<=", Limit: 0.1, Stat: StatMedian}
	p95     = Threshold{Metric: "class_b_p95_drift", Class: "B", Label: "class B P95 drift", Op: "<=", Limit: 0.2, Stat: StatP95}
	faith   = Threshold{Metric: "class_a_faithfulness", Class: "A", Label: "class A faithfulness", Op: ">=", Limit: 0.9, Stat: StatFaithfulness}
	applied = Threshold{Metric: MetricClassBEditApplied, Class: "B", Label: "class B edits applied", Op: ">=", Limit: 0.9, Own: true, Stat: StatApplied}
	margins = config.Reading{NarrowFraction: 0.05, NarrowShare: 0.02}
	gating  = Eligibility{Gates: true, Reasons: []string{}}
)

// ptr is a measured value.
func ptr(v float64) *float64 { return &v }

// on is a model measured on the median alone (nil: not measured), the
// value that puts it at each standing: clean ≤ 0.095 < passes ≤ 0.1 <
// narrow ≤ 0.105 < fails.
func on(name string, v *float64) Measured {
	return Measured{Model: name, Measures: []Measure{{Value: v}}}
}

// TestReadOutcomes: every branch of §8.5's reading (the outcome from the
// models' standings, docs/interpretations.md §8.5), over plain measures
// of one threshold, with what it says and why.
func TestReadOutcomes(t *testing.T) {
	t.Parallel()
	clean, passes, narrow, fails := ptr(0.05), ptr(0.098), ptr(0.103), ptr(0.2)
	for _, c := range tabletest.Cases(t, []struct {
		name    string
		models  []Measured
		el      Eligibility
		outcome string
		wantWhy string
		reason  string
	}{
		{"ineligible", []Measured{on("a", fails), on("b", fails)}, Eligibility{Reasons: []string{"x", "y"}}, ReadingInconclusive,
			"the run cannot gate v0.1, for 2 reasons (eligibility)", "a run that cannot gate is inconclusive whatever its numbers"},
		{"ineligible one reason", []Measured{on("a", clean)}, Eligibility{Reasons: []string{"x"}}, ReadingInconclusive,
			"the run cannot gate v0.1, for 1 reason (eligibility)", "the reason counted in the singular"},
		{"all clean", []Measured{on("a", clean), on("b", clean), on("c", clean)}, gating, ReadingPass,
			"§8.5's five thresholds hold for every model", "no model fails"},
		{"all pass by less than the margin", []Measured{on("a", passes), on("b", passes), on("c", passes)}, gating, ReadingPass,
			"§8.5's five thresholds hold for every model", "holding with less than the margin to spare still holds"},
		{"weakness", []Measured{on("a", clean), on("b", clean), on("c", narrow)}, gating, ReadingWeakness,
			"c alone fails, every failure within its margin (class B median drift 0.103 misses ≤ 0.1 by 0.003, within the narrow margin 0.005), and a and b pass cleanly",
			"one model fails narrowly and every other passes cleanly: a model-specific weakness"},
		{"weakness of two models", []Measured{on("a", narrow), on("b", clean)}, gating, ReadingWeakness,
			"a alone fails, every failure within its margin (class B median drift 0.103 misses ≤ 0.1 by 0.003, within the narrow margin 0.005), and b passes cleanly",
			"the rule counts the other models, however many; one passes, in the singular"},
		{"narrow, another not clean", []Measured{on("a", clean), on("b", passes), on("c", narrow)}, gating, ReadingProtocolFailure,
			"c fails narrowly, but not every other model passes §8.5's thresholds cleanly (with the margin to spare)",
			"a narrow failure is a weakness only when every other model passes cleanly"},
		{"one clear failure", []Measured{on("a", clean), on("b", clean), on("c", fails)}, gating, ReadingProtocolFailure,
			"c fails beyond the narrow margin (class B median drift 0.2 misses ≤ 0.1 by 0.1, beyond the narrow margin 0.005)",
			"one model beyond its margin is the protocol's failure"},
		{"one not measured", []Measured{on("a", clean), on("b", clean), on("c", nil)}, gating, ReadingProtocolFailure,
			"c fails beyond the narrow margin (class B median drift: not measured)",
			"a threshold not measured is no narrow failure"},
		{"two narrow", []Measured{on("a", narrow), on("b", narrow), on("c", clean)}, gating, ReadingProtocolFailure,
			"2 models fail: a, b", "two failing models are not one model's weakness, however narrow"},
	}) {
		rd := Read([]Threshold{median}, c.models, c.el, margins)
		if rd.Outcome != c.outcome || rd.Why != c.wantWhy {
			t.Errorf("%s: %q (%s), want %q (%s): %s", c.name, rd.Outcome, rd.Why, c.outcome, c.wantWhy, c.reason)
		}
		if rd.Says != readingSays[c.outcome] {
			t.Errorf("%s: says %q, want §8.5's %q (%s)", c.name, rd.Says, readingSays[c.outcome], c.reason)
		}
		if rd.NarrowFraction != margins.NarrowFraction || rd.NarrowShare != margins.NarrowShare || len(rd.Harness) != 0 {
			t.Errorf("%s: margins %v, %v and harness %q: the reading records its margins and no harness gate", c.name, rd.NarrowFraction, rd.NarrowShare, rd.Harness)
		}
	}
}

// TestReadHarnessGatesApart: the harness's own gates (†) never move the
// reading: a model failing one keeps its standing, the failure is read
// on a line of its own, and the reading says that the §8.7 verdict fails
// (except when it is inconclusive, which decides nothing).
func TestReadHarnessGatesApart(t *testing.T) {
	t.Parallel()
	ts := []Threshold{median, applied}
	lossy := Measured{Model: "a", Measures: []Measure{{Value: ptr(0.01)}, {Value: ptr(0.8)}}}
	whole := Measured{Model: "b", Measures: []Measure{{Value: ptr(0.01)}, {Value: ptr(0.95)}}}
	rd := Read(ts, []Measured{lossy, whole}, gating, margins)
	if rd.Outcome != ReadingPass || rd.Models[0].Standing != StandingClean {
		t.Errorf("outcome %q, a stands %q: a † failure moved the reading", rd.Outcome, rd.Models[0].Standing)
	}
	wantLine := "harness gates (†): a fails class B edits applied 80% misses ≥ 90% by 10%, beyond the narrow margin 2%"
	if len(rd.Harness) != 1 || rd.Harness[0] != wantLine {
		t.Errorf("harness lines %q, want [%q]", rd.Harness, wantLine)
	}
	if want := readingSays[ReadingPass] + "; the harness's own gates (†) fail, so the §8.7 verdict is fail"; rd.Says != want {
		t.Errorf("says %q, want %q", rd.Says, want)
	}
	rd = Read(ts, []Measured{lossy, whole}, Eligibility{Reasons: []string{"offline"}}, margins)
	if rd.Says != readingSays[ReadingInconclusive] || len(rd.Harness) != 1 {
		t.Errorf("inconclusive says %q, harness %q: it decides nothing, and still lists the † failure", rd.Says, rd.Harness)
	}
}

// TestStanding: a model's standing on §8.5's thresholds is its worst
// check, where not measured is worse than a clear failure, a clear one
// than a narrow one, and a class a selection left out counts as clean.
func TestStanding(t *testing.T) {
	t.Parallel()
	clean, passes, narrow, fails := Measure{Value: ptr(0.05)}, Measure{Value: ptr(0.098)}, Measure{Value: ptr(0.103)}, Measure{Value: ptr(0.2)}
	unmeasured, unselected := Measure{}, Measure{NotSelected: true}
	for _, c := range tabletest.Cases(t, []struct {
		name     string
		measures []Measure
		want     string
		reason   string
	}{
		{"clean", []Measure{clean, clean}, StandingClean, "every check with the margin to spare"},
		{"passes", []Measure{clean, passes}, StandingPasses, "one check holds by less than the margin"},
		{"narrow after passes", []Measure{passes, narrow}, StandingNarrow, "a narrow failure is worse than a pass"},
		{"narrow before passes", []Measure{narrow, passes}, StandingNarrow, "a later pass does not lift a narrow failure"},
		{"fails after narrow", []Measure{narrow, fails}, StandingFails, "a clear failure is worse than a narrow one"},
		{"fails before narrow", []Measure{fails, narrow}, StandingFails, "a later narrow failure does not soften a clear one"},
		{"unmeasured before fails", []Measure{unmeasured, fails}, StandingUnproven, "not measured is worse than a clear failure"},
		{"unmeasured after fails", []Measure{fails, unmeasured}, StandingUnproven, "not measured is worse, in any order"},
		{"unmeasured before narrow", []Measure{unmeasured, narrow}, StandingUnproven, "a narrow failure does not hide a missing measure"},
		{"not selected", []Measure{unselected, clean}, StandingClean, "a class a selection left out is no failure"},
		{"not selected beside passes", []Measure{unselected, passes}, StandingPasses, "and no worse than a pass"},
	}) {
		mr := modelReading([]Threshold{median, median}, Measured{Model: "m", Measures: c.measures}, margins)
		if mr.Standing != c.want {
			t.Errorf("%s: %q, want %q (%s)", c.name, mr.Standing, c.want, c.reason)
		}
	}
}

// TestCheck: one threshold against one measure: the margin (a fraction
// of a median's limit, share points for a share, a document for a P95),
// whether it holds, narrowly misses or holds cleanly at each edge, and
// whether the interval holds the limit.
func TestCheck(t *testing.T) {
	t.Parallel()
	iv := func(lo, hi float64) *Interval { return &Interval{Low: lo, High: hi, Level: 0.95} }
	faith80 := faith
	faith80.Limit = 0.8
	for _, c := range tabletest.Cases(t, []struct {
		name                       string
		t                          Threshold
		m                          Measure
		margin                     float64
		holds, narrow, clean, near bool
		reason                     string
	}{
		{"clean", median, Measure{Value: ptr(0.05)}, 0.005, true, false, true, false, "far inside the limit"},
		{"at the clean edge", median, Measure{Value: ptr(0.095)}, 0.005, true, false, true, false, "exactly the margin to spare is clean"},
		{"inside the margin", median, Measure{Value: ptr(0.096)}, 0.005, true, false, false, false, "holds with less than the margin to spare"},
		{"at the limit", median, Measure{Value: ptr(0.1)}, 0.005, true, false, false, false, "a value equal to its limit holds"},
		{"narrow edge", median, Measure{Value: ptr(0.105)}, 0.005, false, true, false, false, "a miss of exactly the margin is narrow"},
		{"beyond", median, Measure{Value: ptr(0.1051)}, 0.005, false, false, false, false, "a miss beyond the margin is clear"},
		{"interval holds the limit", median, Measure{Value: ptr(0.098), Interval: iv(0.06, 0.12)}, 0.005, true, false, false, true, "the data cannot tell the side: within noise"},
		{"interval below the limit", median, Measure{Value: ptr(0.05), Interval: iv(0.01, 0.08)}, 0.005, true, false, true, false, "an interval clear of the limit is not noise"},
		{"share clean", faith, Measure{Value: ptr(0.92)}, 0.02, true, false, true, false, "at least: 2 points above is clean"},
		{"share at the clean edge", faith80, Measure{Value: ptr(0.82)}, 0.02, true, false, true, false, "0.82 − 0.8 is under 0.02 in floating point: the margin's edge still counts as on it"},
		{"share passes", faith, Measure{Value: ptr(0.91)}, 0.02, true, false, false, false, "at least: 1 point above holds, not cleanly"},
		{"share narrow", faith, Measure{Value: ptr(0.88)}, 0.02, false, true, false, false, "at least: 2 points under is narrow"},
		{"share clear", faith, Measure{Value: ptr(0.85)}, 0.02, false, false, false, false, "at least: 5 points under is clear"},
		{"rounded margin", p95, Measure{Value: ptr(0.1)}, 0.01, true, false, true, false, "5% of 0.2 is 0.01, not 0.010000000000000002 (no documents: read as a value)"},
		{"not measured", median, Measure{}, 0.005, false, false, false, false, "nothing measured neither holds nor is narrow"},
		{"not selected", median, Measure{NotSelected: true}, 0.005, true, false, true, false, "a class left out holds, cleanly"},
	}) {
		got := check(c.t, c.m, margins)
		if got.Margin != c.margin || got.Holds != c.holds || got.Narrow != c.narrow || got.Clean != c.clean || got.WithinNoise != c.near {
			t.Errorf("%s: margin %v holds %v narrow %v clean %v noise %v, want %v %v %v %v %v (%s)", c.name,
				got.Margin, got.Holds, got.Narrow, got.Clean, got.WithinNoise, c.margin, c.holds, c.narrow, c.clean, c.near, c.reason)
		}
	}
}

// documents are n documents of which the first over have drift 0.5 and
// the rest 0.05; a nil-valued document is added, which counts nowhere.
func documents(n, over int) []Document {
	docs := []Document{{TaskID: "00-b"}}
	for i := range n {
		v := 0.05
		if i < over {
			v = 0.5
		}
		docs = append(docs, Document{TaskID: fmt.Sprintf("%02d-b", i+1), Value: &v})
	}
	return docs
}

// TestCheckP95IsACount: a P95 is read in documents over its limit: of 20
// one is allowed; one too many is narrow, two clear; a held P95 is clean
// (its allowance is §8.5's tolerance), and the share of documents over
// decides whether it is within noise of 5%.
func TestCheckP95IsACount(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name                       string
		over                       int
		value                      float64
		holds, narrow, clean, near bool
		reason                     string
	}{
		{"none over", 0, 0.05, true, false, true, true, "0 of 20 cannot show the share under 5%: within noise"},
		{"one over", 1, 0.05, true, false, true, true, "the one document of 20 the P95 allows"},
		{"two over", 2, 0.5, false, true, false, true, "one document too many: narrow"},
		{"three over", 3, 0.5, false, false, false, true, "two too many: beyond the margin of one document"},
		{"four over", 4, 0.5, false, false, false, false, "4 of 20 puts the share above 5%: a decisive fail"},
	}) {
		got := check(p95, Measure{Value: &c.value, Documents: documents(20, c.over)}, margins)
		if got.Over == nil || got.Over.Over != c.over || got.Over.Of != 20 || got.Over.Allowed != 1 || got.Margin != NarrowDocuments {
			t.Fatalf("%s: over %+v, margin %v: want %d of 20, 1 allowed, a margin of one document (%s)", c.name, got.Over, got.Margin, c.over, c.reason)
		}
		if got.Holds != c.holds || got.Narrow != c.narrow || got.Clean != c.clean || got.WithinNoise != c.near {
			t.Errorf("%s: holds %v narrow %v clean %v noise %v, want %v %v %v %v (%s)", c.name,
				got.Holds, got.Narrow, got.Clean, got.WithinNoise, c.holds, c.narrow, c.clean, c.near, c.reason)
		}
		if len(got.Deciding) != c.over {
			t.Errorf("%s: deciding %q, want the %d documents over (%s)", c.name, got.Deciding, c.over, c.reason)
		}
	}
}

// TestOverOf: what a count of documents over a P95's limit can decide, at
// the sizes docs/interpretations.md quotes: at 20 documents one is
// allowed, no count shows a pass and a fail is decisive from 4 over; a
// pass is decisive only from 72 documents (failFrom -1: not checked).
func TestOverOf(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		over, of, allowed, failFrom int
		pass                        bool
		reason                      string
	}{
		{0, 20, 1, 4, false, "the gating run: 20 documents"},
		{0, 71, 3, -1, false, "71 documents cannot yet show a pass"},
		{0, 72, 3, -1, true, "72 documents with none over show the share under 5%"},
		{0, 2, 0, 2, false, "two documents: both over is a decisive fail"},
		{0, 1, 0, 0, false, "one document decides nothing: one over of one may still be a share under 5%"},
	}) {
		o := overOf(c.over, c.of)
		if o.Allowed != c.allowed || o.PassDecisive != c.pass || (c.failFrom >= 0 && o.FailDecisiveFrom != c.failFrom) {
			t.Errorf("%d of %d: allowed %d, fail from %d, pass %v; want %d, %d, %v (%s)", c.over, c.of, o.Allowed, o.FailDecisiveFrom, o.PassDecisive, c.allowed, c.failFrom, c.pass, c.reason)
		}
	}
}

// TestCheckText: a check in one line says its value and interval against
// the limit, by how much it misses, what a P95's count supports, the
// spread over repeats and which documents decide it, in each of the
// reading's cases.
func TestCheckText(t *testing.T) {
	t.Parallel()
	iv := &Interval{Low: 0.08, High: 0.12, Level: 0.95}
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		t      Threshold
		m      Measure
		want   string
		reason string
	}{
		{"clean", median, Measure{Value: ptr(0.05)}, "class B median drift 0.05 ≤ 0.1", "a clean check is its value and the limit"},
		{"holds by less", median, Measure{Value: ptr(0.098)}, "class B median drift 0.098 ≤ 0.1, with less than the margin 0.005 to spare", "a pass without the margin says so"},
		{"narrow", median, Measure{Value: ptr(0.103)}, "class B median drift 0.103 misses ≤ 0.1 by 0.003, within the narrow margin 0.005", "a narrow miss and by how much"},
		{"clear", median, Measure{Value: ptr(0.2)}, "class B median drift 0.2 misses ≤ 0.1 by 0.1, beyond the narrow margin 0.005", "a clear miss"},
		{"noise", median, Measure{Value: ptr(0.098), Interval: iv},
			"class B median drift 0.098 [0.08, 0.12] ≤ 0.1, with less than the margin 0.005 to spare, the interval holds the limit", "the interval, and that it holds the limit"},
		{"share", faith, Measure{Value: ptr(0.85)}, "class A faithfulness 85% misses ≥ 90% by 5%, beyond the narrow margin 2%", "a share in percentages, and under, not over"},
		{"spread", median, Measure{Value: ptr(0.05), PerRepeat: []*float64{ptr(0.04), nil, ptr(0.07)}},
			"class B median drift 0.05 ≤ 0.1; across 3 repeats 0.04–0.07", "the statistic over each repeat, a repeat without one skipped"},
		{"deciding", median, Measure{Value: ptr(0.2), Documents: []Document{{"01-b", ptr(0.3)}, {"02-b", ptr(0.01)}, {"03-b", ptr(0.2)}}},
			"class B median drift 0.2 misses ≤ 0.1 by 0.1, beyond the narrow margin 0.005: 01-b, 03-b fall short", "the documents over the limit decide a failure"},
		{"held with documents over", median, Measure{Value: ptr(0.05), Documents: []Document{{"01-b", ptr(0.3)}, {"02-b", ptr(0.01)}, {"03-b", ptr(0.02)}}},
			"class B median drift 0.05 ≤ 0.1; 01-b is over the limit, which the threshold allows", "a held check never falls short (issue 46)"},
		{"share under", faith, Measure{Value: ptr(0.95), Documents: []Document{{"01-a", ptr(0)}, {"02-a", ptr(1)}}},
			"class A faithfulness 95% ≥ 90%; 01-a is under the limit, which the threshold allows", "an at-least threshold's documents are under"},
		{"many deciding", median, Measure{Value: ptr(0.5), Documents: documents(7, 7)},
			"class B median drift 0.5 misses ≤ 0.1 by 0.4, beyond the narrow margin 0.005: 7 documents fall short", "more than six documents are counted, not named"},
		{"p95 held", p95, Measure{Value: ptr(0.05), Documents: documents(20, 1)},
			"class B P95 drift 0.05 ≤ 0.2: 1 of 20 documents over 0.2 (1 allowed; share over 0.1%–24.9%, Clopper–Pearson 95%, within noise of 5%); 01-b is over the limit, which the threshold allows",
			"a P95 is read as its count over the limit"},
		{"p95 narrow", p95, Measure{Value: ptr(0.5), Documents: documents(20, 2)},
			"class B P95 drift 0.5 misses ≤ 0.2: 2 of 20 documents over 0.2 (1 allowed; share over 1.2%–31.7%, Clopper–Pearson 95%, within noise of 5%), a narrow failure (one document too many): 01-b, 02-b fall short",
			"one document too many is narrow"},
		{"p95 decisive", p95, Measure{Value: ptr(0.5), Documents: documents(20, 4)},
			"class B P95 drift 0.5 misses ≤ 0.2: 4 of 20 documents over 0.2 (1 allowed; share over 5.7%–43.7%, Clopper–Pearson 95%: above 5%, a decisive fail), beyond the narrow margin of one document: 01-b, 02-b, 03-b, 04-b fall short",
			"four over is a fail the data decide"},
		{"p95 decisive pass", p95, Measure{Value: ptr(0.05), Documents: documents(72, 0)},
			"class B P95 drift 0.05 ≤ 0.2: 0 of 72 documents over 0.2 (3 allowed; share over 0%–5%, Clopper–Pearson 95%: below 5%, a decisive pass)",
			"72 documents with none over decide a pass"},
		{"not measured", median, Measure{}, "class B median drift: not measured", "nothing to weigh"},
		{"not selected", median, Measure{NotSelected: true}, "class B median drift: not selected", "a class left out"},
	}) {
		if got := check(c.t, c.m, margins).Text; got != c.want {
			t.Errorf("%s:\n got %q\nwant %q (%s)", c.name, got, c.want, c.reason)
		}
	}
}

// TestSpread: the spread of a statistic over repeats is max − min of the
// repeats that have one; none with a single repeat or none measured.
func TestSpread(t *testing.T) {
	t.Parallel()
	if per, s := spreadOf(nil); per != nil || s != nil {
		t.Errorf("one repeat: %v, %v; want no spread", per, s)
	}
	if per, s := spreadOf([]*float64{nil, nil}); len(per) != 2 || s != nil {
		t.Errorf("no repeat measured: %v, %v; want the repeats and no spread", per, s)
	}
	if _, s := spreadOf([]*float64{ptr(0.3), nil, ptr(0.1), ptr(0.2)}); s == nil || math.Abs(*s-0.2) > 1e-12 {
		t.Errorf("spread %v, want 0.3 − 0.1", s)
	}
}

// TestBounds: per class B or C, what its documents over the P95 limit
// support, and what this many documents can decide; a class without
// documents says nothing.
func TestBounds(t *testing.T) {
	t.Parallel()
	drifts := func(n, over int) []*float64 {
		var out []*float64
		for _, d := range documents(n, over) {
			out = append(out, d.Value)
		}
		return out
	}
	got := bounds([]Tail{
		{Class: "B", Limit: 0.2, Drifts: drifts(20, 0), Documents: 20},
		{Class: "C", Limit: 0.3, Drifts: nil, Documents: 0},
		{Class: "C", Limit: 0.3, Drifts: drifts(72, 1), Documents: 72},
		{Class: "B", Limit: 0.2, Drifts: drifts(2, 2), Documents: 2},
		{Class: "B", Limit: 0.2, Drifts: drifts(1, 0), Documents: 1},
	})
	want := []string{
		"class B: 0 of 20 documents over the P95 limit 0.2: the share of such documents over it is 0%–16.8% (Clopper–Pearson 95%); the P95 fails from 2 over (1 allowed), a fail beyond noise (the interval above 5%) from 4 over; no count of 20 documents shows a pass beyond noise",
		"class C: 1 of 72 documents over the P95 limit 0.3: the share of such documents over it is 0%–7.5% (Clopper–Pearson 95%); the P95 fails from 4 over (3 allowed); beyond noise, a fail from 9 over and a pass at 0",
		"class B: 2 of 2 documents over the P95 limit 0.2: the share of such documents over it is 15.8%–100% (Clopper–Pearson 95%); the P95 fails from 1 over (0 allowed), a fail beyond noise (the interval above 5%) from 2 over; no count of 2 documents shows a pass beyond noise",
		"class B: 0 of 1 documents over the P95 limit 0.2: the share of such documents over it is 0%–97.5% (Clopper–Pearson 95%); the P95 fails from 1 over (0 allowed); no count of 1 document shows a pass or a fail beyond noise",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bounds:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
