package aggregate

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/transcript"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestServedModelMismatchWarned: the server said openai/gpt-3.5-turbo
// answered for the model asked for, and only the transcript's
// model_served recorded it; the report now warns, naming both.
func TestServedModelMismatchWarned(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	n := 0
	for i := range in.Scores {
		if in.Scores[i].Status == scoring.StatusScored && n < 2 {
			in.Scores[i].ModelServed = "openai/gpt-3.5-turbo"
			n++
		}
	}
	rep := Build(in)
	for _, w := range rep.Warnings {
		if w.Kind == report.WarnServed && w.N == 2 && slices.Equal(w.Items, []string{"openai/gpt-3.5-turbo"}) && slices.Equal(w.Counts, []int{2}) {
			return
		}
	}
	t.Errorf("warnings %+v; want one naming the served model", rep.Warnings)
}

// TestJudgeServedByAnotherModel: a class A judge vote the server said
// another model served counted as the asked judge's vote and nothing
// said so. It still counts (no §8 number moves), but the run cannot gate
// (an eligibility reason naming an example, how many the answering
// model itself served, and whether a judge was checked on its id alone)
// and the report warns, per judge.
func TestJudgeServedByAnotherModel(t *testing.T) {
	t.Parallel()
	run := scoringtest.Synthetic{Models: gatingModels, Repeats: 1, Answer: constant(0, true)}.Run()
	clean := Build(inputOf(run))
	in := inputOf(scoringtest.Synthetic{Models: gatingModels, Repeats: 1, Answer: constant(0, true)}.Run())
	in.Manifest.Policies = map[string]transcript.ModelPolicy{"judge/one": {Listing: model.ModelInfo{ID: "judge/one", CanonicalSlug: "judge/one-20260101"}}}
	var a []int
	for i, s := range in.Scores {
		if s.Judge != nil {
			a = append(a, i)
		}
	}
	if len(a) < 3 {
		t.Fatalf("%d class A scores, want 3 or more", len(a))
	}
	serve := func(i, vote int, served string) {
		v := *in.Scores[i].Judge
		v.Votes = slices.Clone(v.Votes)
		v.Votes[vote].ModelServed = served
		in.Scores[i].Judge = &v
	}
	first := in.Scores[a[0]]
	serve(a[0], 0, first.Model) // judge/one's vote served by the answering model itself
	serve(a[1], 0, "x-ai/grok-4")
	serve(a[2], 2, "x-ai/grok-4") // judge/two: no listing, checked on the id alone
	r := Build(in)
	want := "3 judge votes were served by another model than the judge asked for (" + first.Model + " for judge judge/one on " + first.Model +
		"'s answer, 1 of them by the model whose answer it judged) (checked on the asked id alone: the run read no listing that gives the judge's canonical slug)"
	if r.Eligibility.Gates || !slices.ContainsFunc(r.Eligibility.Reasons, func(s string) bool { return strings.HasPrefix(s, want) }) {
		t.Errorf("gates %v, reasons %q; want one starting %q", r.Eligibility.Gates, r.Eligibility.Reasons, want)
	}
	var got []report.Warning
	for _, w := range r.Warnings {
		if w.Kind == report.WarnJudgeServed {
			got = append(got, w)
		}
	}
	wantW := []report.Warning{
		{Kind: report.WarnJudgeServed, Model: "judge/one", N: 2, Items: []string{first.Model, "x-ai/grok-4"}, Counts: []int{1, 1}},
		{Kind: report.WarnJudgeServed, Model: "judge/two", N: 1, Items: []string{"x-ai/grok-4"}, Counts: []int{1}, Notes: []string{report.IDAlone}},
	}
	if !reflect.DeepEqual(got, wantW) {
		t.Errorf("judge served warnings %+v, want %+v", got, wantW)
	}
	// The votes still count: every class A number is the clean run's.
	for _, m := range gatingModels {
		if a, b := clean.Results[m].Class("A"), r.Results[m].Class("A"); !reflect.DeepEqual(a, b) {
			t.Errorf("%s class A moved: %+v, was %+v", m, b, a)
		}
	}
}

// TestReportSymlinkToDeviceRefused: a report that was a symlink to
// /dev/zero made compare and trend run out of memory in a second or two.
func TestReportSymlinkToDeviceRefused(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip(err)
	}
	if _, err := report.ReadFiles([]string{p}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFiles = %v; want not a regular file", err)
	}
}
