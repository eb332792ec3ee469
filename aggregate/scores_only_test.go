package aggregate

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/verdict"

	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/transcript"
)

// TestBuildReadsScoresOnly: the report, verdict included, is a function of
// the scores. A judge call that failed reaches the report through its
// score (scoring.Score.JudgeAPIErrors), so building with the archive's
// transcripts or without any gives the same bytes.
func TestBuildReadsScoresOnly(t *testing.T) {
	t.Parallel()
	run, dir := pipelinetest.Pipeline(t, []string{"offline/oracle"}, nil, 1, 20260427)
	// The offline judge's vote on one answer is replaced by a failed call.
	var answer *transcript.Transcript
	in := inputOf(run)
	for _, tr := range run.Transcripts {
		if tr.Kind == transcript.KindTask && tr.TaskID == "03-a" {
			answer = tr
		}
	}
	failed := &transcript.Transcript{
		Kind: transcript.KindJudge, RunID: "pipeline", Model: judge.OfflineJudge, TaskID: "03-a", Class: "A",
		Judged:   &transcript.Ref{Model: answer.Model, TaskID: "03-a", Hash: answer.Hash},
		Attempts: []transcript.Attempt{{Number: 1, Status: 503}},
		Error:    &transcript.CallError{Status: 503, Message: "HTTP 503: upstream unavailable"},
	}
	if err := transcript.Write(dir, failed); err != nil {
		t.Fatal(err)
	}
	// Rescored as the score phase reads the archive.
	m := in.Manifest
	var err error
	in.Scores, err = scoring.Stream(in.Set, scoring.Plan{Models: m.Models, TaskIDs: m.TaskIDs, Repeats: m.Repeats}, scoring.Archive(dir, m.RunID, m.Judges), in.Config.Weights, nil)
	if err != nil {
		t.Fatal(err)
	}
	// aggregate.Input holds no transcript: the judge's failure reaches the
	// report through the answer's score alone.
	r := Build(in)
	j := r.Results["offline/oracle"].ClassA.Judging
	if j.JudgeAPIErrors != 1 || j.Undecided != 1 || r.Passed() {
		t.Errorf("judge API errors %d, undecided %d, passed %v; want 1, 1 and a failing (incomplete) run", j.JudgeAPIErrors, j.Undecided, r.Passed())
	}
}

// TestJudgeOutageIsNotUnfaithfulness: class A answers without a valid vote
// are not measured. They leave the faithfulness fraction (so the judged
// answers decide it) and make the run incomplete, but never count as
// unfaithful.
func TestJudgeOutageIsNotUnfaithfulness(t *testing.T) {
	t.Parallel()
	s := scoringtest.Synthetic{Models: []string{"m/one", "m/two", "m/three"}, Repeats: 1, Answer: constant(0, true)}
	in := inputOf(s.Run())
	for i := range in.Scores {
		sc := &in.Scores[i]
		// Half of m/one's class A answers: every judge call failed.
		if sc.Model != "m/one" || sc.Class != "A" || sc.TaskID[:2] > "10" {
			continue
		}
		var votes []judge.Vote
		for _, j := range []string{"judge/one", "judge/two"} {
			votes = append(votes, judge.Vote{Judge: j, Error: "API error: HTTP 401", APIError: true})
		}
		v := judge.Decide(votes)
		sc.Judge, sc.JudgeAPIErrors = &v, len(votes)
	}
	r := Build(in)
	mr := r.Results["m/one"]
	if f := mr.ClassAFaithfulness; f == nil || *f != 1 {
		t.Errorf("faithfulness %v; want 1: the ten judged answers are all faithful, the unjudged ten are not measured", f)
	}
	var metrics []string
	for _, f := range r.Failures {
		metrics = append(metrics, f.Metric)
	}
	if len(metrics) != 1 || metrics[0] != verdict.MetricIncomplete {
		t.Errorf("failures %v; want only incomplete", metrics)
	}
	if j := mr.ClassA.Judging; j.Undecided != 10 || j.JudgeAPIErrors != 20 {
		t.Errorf("undecided %d, judge API errors %d; want 10 and 20", j.Undecided, j.JudgeAPIErrors)
	}
}

// TestNotAnAnswerIsUnfaithful: a class A response that is not an answer
// object is decided unfaithful without votes; it is measured, not left out
// like an answer whose judges all failed.
func TestNotAnAnswerIsUnfaithful(t *testing.T) {
	t.Parallel()
	s := scoringtest.Synthetic{Models: []string{"m/one"}, Repeats: 1, Answer: constant(0, true)}
	in := inputOf(s.Run())
	for i := range in.Scores {
		if sc := &in.Scores[i]; sc.Class == "A" && sc.TaskID <= "05-a" {
			v := judge.Decide(nil)
			v.Decision = judge.DecisionNotAnAnswer
			sc.Judge = &v
		}
	}
	r := Build(in)
	j := r.Results["m/one"].ClassA.Judging
	if f := r.Results["m/one"].ClassAFaithfulness; f == nil || *f != 0.75 || j.Undecided != 0 {
		t.Errorf("faithfulness %v, undecided %d; want 0.75 (5 of 20 not answers) and 0", f, j.Undecided)
	}
}

// TestInvalidAnswersNamedInClassAFailure: class A faithfulness 0 because
// every answer was invalid read only "faithfulness 0, want ≥ 0.9", as if
// twenty answers had been judged unfaithful (issue 46): the failure names
// the invalid answers as the cause; a failure without invalid answers
// says nothing of them.
func TestInvalidAnswersNamedInClassAFailure(t *testing.T) {
	t.Parallel()
	s := scoringtest.Synthetic{Models: []string{"m/one"}, Repeats: 1, Answer: constant(0, true)}
	in := inputOf(s.Run())
	for i := range in.Scores {
		if sc := &in.Scores[i]; sc.Class == "A" {
			v := judge.Decide(nil)
			v.Decision = judge.DecisionNotAnAnswer
			sc.Judge = &v
			if sc.Answer != nil {
				a := *sc.Answer
				a.Valid = false
				sc.Answer = &a
			}
		}
	}
	r := Build(in)
	var msg string
	for _, f := range r.Failures {
		if f.Metric == "class_a_faithfulness" {
			msg = f.Message
		}
	}
	if want := "(20 of 20 answers invalid: they could not be judged)"; !strings.HasSuffix(msg, want) {
		t.Errorf("class A failure %q, want it to end %q", msg, want)
	}
	for _, f := range Build(inputOf(s.Run())).Failures {
		if strings.Contains(f.Message, "invalid:") {
			t.Errorf("a run without invalid answers: %q", f.Message)
		}
	}
}
