package verdict

import (
	"fmt"
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

// TestEligibleOverFacts: §8.6's reasons come from plain facts, in their
// fixed order, and a run that meets every rule gates.
func TestEligibleOverFacts(t *testing.T) {
	t.Parallel()
	g := config.Default().Gating
	models := []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}
	if el := Eligible(g, Facts{Gates: true, Suite: "gating", Models: models}); !el.Gates || len(el.Reasons) != 0 {
		t.Errorf("a run of one frontier model per vendor does not gate: %v", el.Reasons)
	}
	el := Eligible(g, Facts{Gates: true, Suite: "gating", Models: models, Partial: "--classes B", BaseURL: "http://127.0.0.1:9/api/v1", ServedOther: 2, ServedExample: "x for y"})
	if el.Gates || len(el.Reasons) != 3 {
		t.Fatalf("a partial run through another root with swapped answers: %v", el.Reasons)
	}
	for i, prefix := range []string{"a selection of the suite (--classes B)", "the API root http://127.0.0.1:9/api/v1 is not OpenRouter's", "2 answers were served by another model"} {
		if len(el.Reasons[i]) < len(prefix) || el.Reasons[i][:len(prefix)] != prefix {
			t.Errorf("reason %d: %q, want it to start %q", i, el.Reasons[i], prefix)
		}
	}
}
