package aggregate

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/verdict"
)

// gatingModels are three frontier models, one of each vendor (§8.6).
var gatingModels = []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}

// over is a model whose class B drift is d on its last k documents and 0
// on the rest: its median is 0 and k documents are over a P95 limit below
// d; classes A and C are perfect.
func over(k int, d float64) func(id string) float64 {
	return func(id string) float64 {
		if n, _ := strconv.Atoi(id[:2]); strings.HasSuffix(id, "-b") && n > 20-k {
			return d
		}
		return 0
	}
}

// TestReadingBranches: constructed score sets, one per branch of §8.5's
// reading (docs/interpretations.md, §8.5), give the reading the rule says
// once the report has measured them (the rule itself is verdict's, tested
// there over plain measures: TestReadOutcomes, TestStanding, TestCheck).
// The P95 limit of class B is 0.20, and 20 documents allow one over it; a
// P95 fails narrowly with one document too many. A model's standing is
// read on §8.5's five thresholds alone: the harness's gates (†) fail the
// verdict on a line of their own.
func TestReadingBranches(t *testing.T) {
	t.Parallel()
	clean, narrow, clear, one := over(0, 0), over(2, 0.5), over(3, 0.21), over(1, 0.25)
	// loses fails only the harness's gate on edits applied (the
	// synthetic edit is applied below drift 0.1): 4 of 20 at 0.15, under
	// the P95 limit.
	loses := over(4, 0.15)
	// invalid has one answer with no document (drift 1): 1 of 20 over the
	// P95 limit, allowed; 5% invalid, at the harness's limit.
	invalid := over(1, 1)
	for _, tc := range tabletest.Cases(t, []struct {
		name    string
		drift   [3]func(id string) float64
		outcome string
		harness bool
		reason  string
	}{
		{"all pass", [3]func(string) float64{clean, clean, one}, verdict.ReadingPass, false,
			"every threshold holds for every model (one P95 with its one document over): v0.1 may be called final"},
		{"one narrow, two clean", [3]func(string) float64{narrow, clean, clean}, verdict.ReadingWeakness, false,
			"2 of 20 over, one document more than the P95 allows however far over, and the other two pass cleanly: a model-specific weakness"},
		{"one clear", [3]func(string) float64{clear, clean, clean}, verdict.ReadingProtocolFailure, true,
			"3 of 20 over, two more than allowed, though each only just: beyond the margin (its edits applied 85% fails a † gate too)"},
		{"two narrow", [3]func(string) float64{narrow, narrow, clean}, verdict.ReadingProtocolFailure, false,
			"two models fail, narrowly or not: not a single model's weakness"},
		{"one narrow, one invalid answer", [3]func(string) float64{narrow, invalid, clean}, verdict.ReadingWeakness, false,
			"one invalid answer in another model is one document over its P95 limit, which the P95 allows: still a model-specific weakness (it read protocol failure)"},
		{"harness gate only", [3]func(string) float64{loses, clean, clean}, verdict.ReadingPass, true,
			"edits applied 80% fails the harness's gate, not §8.5's thresholds: §8.5 passes, the † failure on its own line, the verdict fails (it read protocol failure)"},
		{"narrow and a harness gate", [3]func(string) float64{narrow, loses, clean}, verdict.ReadingWeakness, true,
			"the † failure of another model does not make it unclean on §8.5's thresholds"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := scoringtest.Synthetic{Models: gatingModels, Repeats: 1, Answer: func(model, id string, r int) (float64, bool, string) {
				for i, m := range gatingModels {
					if m == model {
						return tc.drift[i](id), true, scoring.StatusScored
					}
				}
				return 0, true, scoring.StatusScored
			}}
			r := Build(inputOf(s.Run()))
			if !r.Eligibility.Gates {
				t.Fatalf("the constructed run cannot gate: %v", r.Eligibility.Reasons)
			}
			if r.Reading.Outcome != tc.outcome {
				t.Errorf("reading %q (%s), want %q: %s", r.Reading.Outcome, r.Reading.Why, tc.outcome, tc.reason)
			}
			if got := len(r.Reading.Harness) > 0; got != tc.harness {
				t.Errorf("harness lines %q, want some: %v (%s)", r.Reading.Harness, tc.harness, tc.reason)
			}
			if tc.outcome != verdict.ReadingPass && r.Verdict != report.Fail || tc.harness && r.Verdict != report.Fail {
				t.Errorf("verdict %q, want fail (%s)", r.Verdict, tc.reason)
			}
			if tc.harness && tc.outcome != verdict.ReadingProtocolFailure && strings.Contains(r.Reading.Says, "reconsidered") {
				t.Errorf("says %q: a harness gate read as §8.5's protocol failure", r.Reading.Says)
			}
		})
	}
}

// TestEligibility: the report hands §8.6's facts to verdict.Eligible
// (whose every rule verdict's TestEligibleReasons tests over plain facts):
// the models, the custom configuration, --models, who served the answers
// and what is incomplete each reach a reason, and the reading is
// inconclusive.
func TestEligibility(t *testing.T) {
	t.Parallel()
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		models []string
		change func(*Input)
		want   []string
		reason string
	}{
		{"gating", gatingModels, nil, nil, "three frontier models, one of each vendor, the whole suite: gates"},
		{"two models", gatingModels[:2], nil, []string{"2 answering models, not 3", "no google model"}, "the run's models are the facts' (§8.6 runs three)"},
		{"custom", gatingModels, func(in *Input) {
			cfg := *in.Config
			cfg.Thresholds.ClassBP95Max = 0.5
			in.Config = &cfg
		}, []string{"custom configuration (thresholds.class_b_p95_max)"}, "a custom threshold is not §8.5's"},
		{"--models", []string{"anthropic/claude-2.1", "openai/gpt-oss-20b", "google/gemma-3-4b-it"}, func(in *Input) {
			in.Manifest.Inputs.ConfiguredModels = gatingModels
		}, []string{"--models replaced the configuration's models (anthropic/claude-opus-4.8, "}, "--models runs other models: informational, as its help says (issue 45)"},
		{"custom tier-down", []string{"anthropic/claude-haiku-4.5", "openai/gpt-5-mini", "google/gemini-3-flash"}, func(in *Input) {
			cfg := *in.Config
			cfg.Gating.TierDown = []string{}
			in.Config = &cfg
		}, []string{"custom configuration (gating.tier_down)"}, "an emptied tier-down list let a tier-down triple gate (issue 45)"},
		{"custom vendors", gatingModels, func(in *Input) {
			cfg := *in.Config
			cfg.Gating.Vendors = []string{"anthropic", "openai", "meta"}
			in.Config = &cfg
		}, []string{"custom configuration (gating.vendors)"}, "the vendors are §8.6's, not a setting that gates"},
		{"custom reading", gatingModels, func(in *Input) {
			cfg := *in.Config
			cfg.Reading.NarrowFraction = 0.99
			in.Config = &cfg
		}, []string{"custom configuration (reading.narrow_fraction)"}, "a wider margin turned a protocol failure into a weakness, unmarked (issue 45)"},
		{"served by another model", gatingModels, func(in *Input) { in.Scores[7].ModelServed = "openai/gpt-3.5-turbo" },
			[]string{"1 answer was served by another model than the one asked for (openai/gpt-3.5-turbo for anthropic/claude-opus-4.8)"},
			"what answered is not the frontier model the run names (issue 32's mismatch, a reason under §8.6)"},
		{"incomplete", gatingModels, func(in *Input) { in.Scores[4].Status = scoring.StatusAPIError },
			[]string{"incomplete: anthropic/claude-opus-4.8: incomplete run"}, "an incomplete run decides nothing"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := inputOf(scoringtest.Synthetic{Models: tc.models, Repeats: 1, Answer: constant(0, true)}.Run())
			if tc.change != nil {
				tc.change(&in)
			}
			r := Build(in)
			if r.Eligibility.Gates != (len(tc.want) == 0) || (len(tc.want) > 0) != (r.Reading.Outcome == verdict.ReadingInconclusive) {
				t.Fatalf("gates %v, reading %q, reasons %q (%s)", r.Eligibility.Gates, r.Reading.Outcome, r.Eligibility.Reasons, tc.reason)
			}
			all := strings.Join(r.Eligibility.Reasons, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("no reason %q in %q (%s)", w, r.Eligibility.Reasons, tc.reason)
				}
			}
		})
	}
}

// TestNotSelectedIsNoFailure: a selection of one class lists no failure
// for the classes it left out (it listed "not measured" for them), yet
// never passes: it is partial.
func TestNotSelectedIsNoFailure(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.Synthetic{Models: gatingModels, Repeats: 1, Answer: constant(0, true)}.Run())
	ids := []string{"01-b", "02-b", "03-b", "04-b", "05-b"}
	var scores []scoring.Score
	for _, s := range in.Scores {
		if slices.Contains(ids, s.TaskID) {
			scores = append(scores, s)
		}
	}
	m := *in.Manifest
	m.TaskIDs, m.Inputs.Selection = ids, selection("b", 5)
	in.Manifest, in.Scores = &m, scores
	r := Build(in)
	var metrics []string
	for _, f := range r.Failures {
		metrics = append(metrics, f.Metric)
	}
	if r.Passed() || strings.Join(metrics, ",") != verdict.MetricPartial {
		t.Errorf("passed %v, failures %q; want only %q", r.Passed(), metrics, verdict.MetricPartial)
	}
	for _, c := range r.Reading.Models[0].Checks {
		if c.Metric == "class_a_faithfulness" && !c.NotSelected {
			t.Errorf("class A faithfulness: %+v, want not selected", c)
		}
	}
}

// selection is a --classes C --limit N selection of the gating suite.
func selection(class string, limit int) *transcript.Selection {
	return &transcript.Selection{Classes: []string{class}, Limit: limit, Of: 60}
}

// TestEveryGatedStatisticHasAnInterval: every number a threshold gates
// has its exact interval, and every failing one names the documents
// that fall short of its limit; the P95 (nearly the maximum of 20) had
// no interval, and nothing said which documents decided it.
func TestEveryGatedStatisticHasAnInterval(t *testing.T) {
	t.Parallel()
	r := Build(inputOf(scoringtest.FailingRun.Run()))
	failing := 0
	for _, m := range r.Reading.Models {
		for _, c := range m.Checks {
			if c.Value == nil {
				continue
			}
			if c.Interval == nil {
				t.Errorf("%s %s: %v without an interval", m.Model, c.Metric, *c.Value)
			}
			if !c.Holds {
				failing++
				if len(c.Deciding) == 0 {
					t.Errorf("%s %s fails, naming no document", m.Model, c.Metric)
				}
			}
		}
	}
	if failing == 0 {
		t.Fatal("the failing run fails nothing: the test checks nothing")
	}
}

// TestFlakyTasks: with repeats, a task lossless in some repeats only is
// flaky, counted and named; one lossless in every repeat, or in none, is
// not.
func TestFlakyTasks(t *testing.T) {
	t.Parallel()
	s := scoringtest.Synthetic{Models: gatingModels, Repeats: 3, Answer: func(model, id string, r int) (float64, bool, string) {
		switch {
		case id == "03-b" && r == 1, id == "04-b":
			return 0.01, true, scoring.StatusScored // lossy in one repeat of 03-b, in every repeat of 04-b
		}
		return 0, true, scoring.StatusScored
	}}
	rp := Build(inputOf(s.Run())).Results[gatingModels[0]].ClassB.Repeatability
	if rp == nil || rp.Tasks != 20 || rp.Every != 18 || rp.Some != 1 || rp.None != 1 || strings.Join(rp.Flaky, ",") != "03-b" {
		t.Errorf("repeatability %+v, want 18 lossless in every repeat, 03-b flaky, 04-b in none", rp)
	}
}

// TestP95IsACount: a P95 is read as the documents over its limit: 20
// allow one; within_noise is whether the Clopper–Pearson interval of the
// share over holds 5% (0 to 3 of 20: it was never set at 0 over, though
// 0 of 20 allows 16.8%); a fail is decisive from 4 over.
func TestP95IsACount(t *testing.T) {
	t.Parallel()
	for _, tc := range tabletest.Cases(t, []struct {
		over         int
		holds, noise bool
		low, high    float64
		reason       string
	}{
		{0, true, true, 0, 0.1684, "none over: the share over may still be up to 16.8%, more than a P95 allows"},
		{1, true, true, 0.0013, 0.2487, "one over, the one 20 allow"},
		{3, false, true, 0.0321, 0.3789, "three over fails the P95, yet the share over may be under 5%"},
		{4, false, false, 0.0573, 0.4366, "four over: the share over is above 5%, a decisive fail"},
	}) {
		s := scoringtest.Synthetic{Models: gatingModels, Repeats: 1, Answer: func(model, id string, r int) (float64, bool, string) {
			if model == gatingModels[0] {
				return over(tc.over, 0.5)(id), true, scoring.StatusScored
			}
			return 0, true, scoring.StatusScored
		}}
		r := Build(inputOf(s.Run()))
		c := r.Reading.Models[0].Checks[2]
		o := c.Over
		if c.Metric != "class_b_p95_drift" || o == nil {
			t.Fatalf("check %s has no count over its limit", c.Metric)
		}
		if o.Over != tc.over || o.Of != 20 || o.Allowed != 1 || c.Holds != tc.holds || c.WithinNoise != tc.noise || o.FailDecisiveFrom != 4 || o.PassDecisive ||
			math.Abs(o.Share.Low-tc.low) > 1e-4 || math.Abs(o.Share.High-tc.high) > 1e-4 {
			t.Errorf("%d over: %+v share %+v, holds %v, within noise %v; want holds %v, within noise %v, share [%v, %v] (%s)",
				tc.over, *o, *o.Share, c.Holds, c.WithinNoise, tc.holds, tc.noise, tc.low, tc.high, tc.reason)
		}
	}
}
