package aggregate

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring"
)

func marshal(t *testing.T, r *report.Report) []byte {
	t.Helper()
	b, err := report.MarshalJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGolden pins the JSON reports, byte for byte, of a passing run and
// of a failing model of each kind, each of one model and three documents
// (nine tasks), so that a reviewer reads what a change does to the report
// in a diff of a few dozen lines: the goldens of the whole three-model,
// 20-document runs were 6,545 and 10,724 lines, and one change rewrote a
// thousand of them. The failing runs' documents are the ones their
// failures are in: 07 (drifty's invalid answer), 04 (flaky's API error)
// and 19 (its missing transcripts). What needs three models or 20
// documents is checked beside this test: the verdict of every model
// (TestVerdict), the reading (TestReadingBranches), a P95 as one document
// of 20 (TestP95IsACount), the same bytes in any order (TestDeterministic);
// verdict's tests hold its rules, and render's golden the Markdown.
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		run    scoringtest.Synthetic
		model  string
		docs   []string
		reason string
	}{
		{"pass", scoringtest.PassingRun, "anthropic/claude-opus-4.8", []string{"01", "02", "03"},
			"a gating run inside every threshold: verdict pass, no noise with one repeat; a single model's warning"},
		{"fail-drifty", scoringtest.FailingRun, "vendor/drifty", []string{"04", "07", "19"},
			"three repeats: noise, intervals and spreads; thresholds failed, narrowly and clearly; an invalid answer"},
		{"fail-incomplete", scoringtest.FailingRun, "vendor/flaky", []string{"04", "07", "19"},
			"three repeats; missing transcripts and an API error make the model incomplete, the first error quoted"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			r := Build(inputOf(cut(tc.run.Run(), tc.model, tc.docs...)))
			checkGolden(t, tc.name+".json.golden", marshal(t, r))
		})
	}
}

// cut is run cut to one model and the tasks of the documents docs (their
// ids' first two characters): its plan and its scores.
func cut(run scoringtest.Run, model string, docs ...string) scoringtest.Run {
	keep := func(id string) bool { return slices.Contains(docs, id[:2]) }
	m := *run.Manifest
	m.Models = []string{model}
	m.TaskIDs = slices.DeleteFunc(slices.Clone(m.TaskIDs), func(id string) bool { return !keep(id) })
	run.Manifest = &m
	run.Scores = slices.DeleteFunc(slices.Clone(run.Scores), func(s scoring.Score) bool { return s.Model != model || !keep(s.TaskID) })
	return run
}

// TestDeterministic: the same scores in any order give the same bytes.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	want := marshal(t, Build(in))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 3 {
		shuffled := in
		shuffled.Scores = append([]scoring.Score(nil), in.Scores...)
		rng.Shuffle(len(shuffled.Scores), func(i, j int) {
			shuffled.Scores[i], shuffled.Scores[j] = shuffled.Scores[j], shuffled.Scores[i]
		})
		if got := marshal(t, Build(shuffled)); !bytes.Equal(got, want) {
			t.Fatalf("shuffle %d: the report depends on the order of the scores:\n%s", i, lineDiffText(string(want), string(got)))
		}
	}
}

// TestVerdict checks the verdict rule case by case.
func TestVerdict(t *testing.T) {
	t.Parallel()
	type change func(*scoringtest.Synthetic)
	for _, tc := range tabletest.Cases(t, []struct {
		name    string
		change  change
		pass    bool
		metrics []string // the failing metrics, in order
		reason  string
	}{
		{"clean", nil, true, nil, "every threshold holds and nothing is missing"},
		{"median at the limit", func(s *scoringtest.Synthetic) {
			s.Answer = constant(0.05, true)
		}, true, nil, "the thresholds are inclusive: median = P95 = 0.05 ≤ 0.05 passes class B"},
		{"median just over", func(s *scoringtest.Synthetic) {
			s.Answer = constant(0.0500001, true)
		}, false, []string{"class_b_median_drift", "class_b_median_drift", "class_b_median_drift"}, "a hair over the class B median fails each model"},
		{"one outlier", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(_, id string) bool { return id == "20-b" }, 1, true, scoring.StatusScored)
		}, true, nil, "with 20 documents the P95 is the 19th smallest: one invalid document alone does not fail P95"},
		{"two outliers", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(_, id string) bool { return id == "20-b" || id == "19-b" }, 1, true, scoring.StatusScored)
		}, false, []string{"class_b_p95_drift", "class_b_residual_p95", "class_b_invalid", "class_b_p95_drift", "class_b_residual_p95", "class_b_invalid", "class_b_p95_drift", "class_b_residual_p95", "class_b_invalid"}, "two bad documents of 20 put the P95 at 1 (drift and residual: an answer with no document lost everything), and 10% invalid answers fail the harness's 5% gate"},
		{"faithfulness 0.9", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(_, id string) bool { return id == "01-a" || id == "02-a" }, 0, false, scoring.StatusScored)
		}, true, nil, "18 of 20 faithful is 0.9, which meets ≥ 0.90"},
		{"faithfulness 0.85", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(_, id string) bool { return id == "01-a" || id == "02-a" || id == "03-a" }, 0, false, scoring.StatusScored)
		}, false, []string{"class_a_faithfulness", "class_a_faithfulness", "class_a_faithfulness"}, "17 of 20 fails"},
		{"one API error", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(m, id string) bool { return m == "m/two" && id == "10-c" }, 0, true, scoring.StatusAPIError)
		}, false, []string{"incomplete"}, "numbers within thresholds do not pass an incomplete run"},
		{"one missing", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(m, id string) bool { return m == "m/three" && id == "11-a" }, 0, true, scoring.StatusMissing)
		}, false, []string{"incomplete"}, "a missing transcript is a failure, named incomplete"},
		{"class B never scored", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(m, id string) bool { return m == "m/one" && strings.HasSuffix(id, "b") }, 0, true, scoring.StatusAPIError)
		}, false, []string{"incomplete", "class_b_median_drift", "class_b_p95_drift", "class_b_edit_applied", "class_b_residual_p95", "class_b_invalid", "class_b_unchanged"}, "a threshold that cannot be measured fails, with a null value; the incomplete run, its cause, leads (issue 34)"},
		{"edits not applied", func(s *scoringtest.Synthetic) {
			// Drift 0.15 is within §8.5's class B P95 but marks the edit
			// as not applied (scoringtest.Synthetic: applied when drift < 0.1).
			s.Answer = answerWhere(func(_, id string) bool { return strings.HasSuffix(id, "b") && id <= "03-b" }, 0.15, true, scoring.StatusScored)
		}, false, []string{"class_b_edit_applied", "class_b_edit_applied", "class_b_edit_applied"}, "17 of 20 edits applied (85%) is below the harness's 90% gate although every §8.5 threshold holds"},
		{"edits applied 90%", func(s *scoringtest.Synthetic) {
			s.Answer = answerWhere(func(_, id string) bool { return strings.HasSuffix(id, "b") && id <= "02-b" }, 0.15, true, scoring.StatusScored)
		}, true, nil, "18 of 20 (90%) meets the gate"},
		{"meta stripped", func(s *scoringtest.Synthetic) {
			// every document's meta gone: one place (/meta/…) changed
			s.Loses = losesWhere(func(m, _ string) bool { return m == "m/two" }, 0.85, 1)
		}, false, []string{"class_b_residual_p95", "class_b_unchanged", "class_c_residual_p95", "class_c_unchanged"}, "drift 0 everywhere, but what the five components cannot see was lost in every answer"},
		{"one invented sentence in most documents", func(s *scoringtest.Synthetic) {
			s.Loses = losesWhere(func(_, id string) bool { return id > "02" }, 0, 1)
		}, false, []string{"class_b_unchanged", "class_c_unchanged", "class_b_unchanged", "class_c_unchanged", "class_b_unchanged", "class_c_unchanged"}, "a drift too small for §8.5 in 18 of 20 documents fails the unchanged gate (10% < 90%)"},
		{"two unrequested changes of 20", func(s *scoringtest.Synthetic) {
			s.Loses = losesWhere(func(_, id string) bool { return id < "03" }, 0, 3)
		}, true, nil, "18 of 20 unchanged (90%) meets the gate"},
		{"no models", func(s *scoringtest.Synthetic) { s.Models = nil }, false, []string{"incomplete"}, "a run with no model proves nothing"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := scoringtest.Synthetic{Models: []string{"m/one", "m/two", "m/three"}, Repeats: 1, Answer: constant(0, true)}
			if tc.change != nil {
				tc.change(&s)
			}
			r := Build(inputOf(s.Run()))
			var got []string
			for _, f := range r.Failures {
				got = append(got, f.Metric)
			}
			if r.Passed() != tc.pass || strings.Join(got, ",") != strings.Join(tc.metrics, ",") {
				t.Errorf("passed %v, failures %q; want passed %v, failures %q (%s)", r.Passed(), got, tc.pass, tc.metrics, tc.reason)
			}
			if (r.Verdict == report.Pass) != (len(r.Failures) == 0) {
				t.Errorf("verdict %q with %d failures", r.Verdict, len(r.Failures))
			}
		})
	}
}

// answerWhere answers as match says: drift d, faithful and status for
// the (model, task) it matches, a scored lossless faithful answer for
// the others.
func answerWhere(match func(model, id string) bool, d float64, faithful bool, status string) func(string, string, int) (float64, bool, string) {
	return func(m, id string, _ int) (float64, bool, string) {
		if match(m, id) {
			return d, faithful, status
		}
		return 0, true, scoring.StatusScored
	}
}

// losesWhere loses residual and n unrequested changes in the answers of
// the (model, task) match matches, nothing elsewhere.
func losesWhere(match func(model, id string) bool, residual float64, n int) func(string, string) (float64, int) {
	return func(m, id string) (float64, int) {
		if match(m, id) {
			return residual, n
		}
		return 0, 0
	}
}

func constant(d float64, faithful bool) func(string, string, int) (float64, bool, string) {
	return func(string, string, int) (float64, bool, string) { return d, faithful, scoring.StatusScored }
}

// TestRescoredAt: the only difference between a fresh and a rescored
// report is the rescored_at line.
func TestRescoredAt(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.PassingRun.Run())
	fresh := marshal(t, Build(in))
	at := scoringtest.T1.Add(48 * 3600e9)
	in.RescoredAt = &at
	rescored := marshal(t, Build(in))
	if bytes.Equal(fresh, rescored) {
		t.Fatal("the rescored report does not say it was rescored")
	}
	if got := report.StripRescoredAt(rescored); !bytes.Equal(got, fresh) {
		t.Errorf("rescored report minus rescored_at differs from the fresh one:\n%s", lineDiffText(string(fresh), string(got)))
	}
	if !bytes.Contains(rescored, []byte(`  "rescored_at": "2026-04-29T16:45:12Z",`+"\n")) {
		t.Errorf("rescored_at is not the one line StripRescoredAt removes")
	}
}

// TestReadJSON reads back what WriteJSON writes and refuses other schemas.
func TestReadJSON(t *testing.T) {
	t.Parallel()
	r := Build(inputOf(scoringtest.FailingRun.Run()))
	b := marshal(t, r)
	back, err := report.ReadJSON(bytes.NewReader(b), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if again := marshal(t, back); !bytes.Equal(again, b) {
		t.Errorf("read and written again, the report changed:\n%s", lineDiffText(string(b), string(again)))
	}
	for _, tc := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{`{"schema": 5}`, "x.json: /schema: report schema 5, this harness reads 4, 3 and 2", "a newer schema is refused"},
		{`{"schema": 2}`, "x.json: converting a schema 2 report: it has no verdict or no results: not a report", "schema 2 is converted (TestReadsSchema2), but only a report of it"},
		{`{"verdict": "pass"}`, "x.json: /schema: report schema none, this harness reads 4, 3 and 2", "a file without schema is not a report"},
		{`{"schema": 3, "run_id": "r", "models": ["m"], "task_ids": ["01-a"]}`, "x.json: not a report but a run's manifest (run.json): give a report, reports/<run-id>.json",
			"a manifest of the report's schema number printed 'metric versions differ (, 2)' in compare (issue 33)"},
		{`{"schema": 1, "kind": "task", "request": {}, "attempts": []}`, "x.json: not a report but a transcript: give a report, reports/<run-id>.json", "a transcript is named as one"},
		{`[]`, "x.json: not a report", "not an object"},
	}) {
		_, err := report.ReadJSON(strings.NewReader(tc.in), "x.json")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadJSON(%s) = %v, want %q (%s)", tc.in, err, tc.want, tc.reason)
		}
	}
}

// TestSpecFields: the §8.7 fields are present under their spec names.
func TestSpecFields(t *testing.T) {
	t.Parallel()
	b := string(marshal(t, Build(inputOf(scoringtest.PassingRun.Run()))))
	for _, f := range []string{`"harness_version": "0.1.0"`, `"ran_at": "2026-04-27T15:30:00Z"`, `"models": [`, `"results": {`,
		`"class_a_faithfulness": `, `"class_b_median_drift": `, `"class_b_p95_drift": `, `"class_c_median_drift": `,
		`"class_c_p95_drift": `, `"transcripts": "runs/synthetic/anthropic_claude-opus-4.8/"`, `"verdict": "pass"`} {
		if !strings.Contains(b, f) {
			t.Errorf("the report lacks %s", f)
		}
	}
}
