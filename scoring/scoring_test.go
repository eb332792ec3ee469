package scoring

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

// archive runs the offline oracle and identity models on three tasks (one
// per class) with two repeats as a run schedules them (a document's class
// A answer first, its others after it), judges the class A answers with
// the offline judge, and returns the task set, the transcripts read back
// from disk and the run directory.
func archive(t *testing.T) (*task.Set, []*transcript.Transcript, string) {
	t.Helper()
	set, probs := task.Load(corpus.FS, instructions.FS)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	prompts, err := task.LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	oracle, _ := offline.New(offline.Oracle, set)
	identity, _ := offline.New(offline.Identity, set)
	clients := map[string]model.Client{offline.Oracle: oracle, offline.Identity: identity, judge.OfflineJudge: judge.NewOffline(set)}
	dir := t.TempDir()
	jcfg := judge.Config{Fixed: []string{judge.OfflineJudge}, Seed: 1}
	tasks := []*task.Task{set.Task("05-a"), set.Task("05-b"), set.Task("05-c")}
	cfg := &config.Config{Models: []string{offline.Oracle, offline.Identity}, Repeats: 2, Request: config.Request{Seed: 1}}
	answers := jobs.NewAnswers(cfg, prompts, tasks, nil, "t")
	r := &runner.Runner{Clients: clients, Dir: dir, PerModel: 2, Global: 4, JobTimeout: time.Minute,
		Then: jobs.Chain(answers.Then, jobs.JudgeVotes(set, jcfg, nil))}
	if _, err := r.Drain(context.Background(), answers.First()); err != nil {
		t.Fatal(err)
	}
	trs, err := transcripttest.ReadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	return set, trs, dir
}

// TestStream scores an archive as the score phase reads it (Archive):
// every (model, task, repeat) of the plan, in plan order, an API failure
// scored as one (never as drift), a missing transcript as missing, the
// same bytes twice, and a plan naming an unknown task refused.
func TestStream(t *testing.T) {
	set, trs, dir := archive(t)
	failAndLose(t, trs, dir)
	plan := Plan{Models: []string{offline.Oracle, offline.Identity}, TaskIDs: []string{"05-a", "05-b", "05-c"}, Repeats: 2}
	src := Archive(dir, "t", []string{judge.OfflineJudge})
	scores, err := Stream(set, plan, src, metric.DefaultWeights(), nil)
	if err != nil {
		t.Fatal(err)
	}
	streamInPlanOrder(t, scores, plan, dir)
	streamScores(t, scores)
	// The score phase is a pure function: same inputs, same bytes.
	again, _ := Stream(set, plan, src, metric.DefaultWeights(), nil)
	a, _ := json.Marshal(scores)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("scoring the same transcripts twice gave different JSON")
	}
	if _, err := Stream(set, Plan{Models: []string{"m"}, TaskIDs: []string{"99-z"}, Repeats: 1}, src, metric.DefaultWeights(), nil); err == nil {
		t.Error("a plan naming an unknown task was accepted")
	}
}

// failAndLose makes, in TestStream's archive, offline/identity's answer
// to 05-c repeat 1 an API failure and its answer to 05-b repeat 0 missing.
func failAndLose(t *testing.T, trs []*transcript.Transcript, dir string) {
	t.Helper()
	for _, tr := range trs {
		if tr.Kind != transcript.KindTask || tr.Model != offline.Identity {
			continue
		}
		switch {
		case tr.TaskID == "05-c" && tr.Repeat == 1:
			tr.Response, tr.Error = nil, &transcript.CallError{Status: 503, Message: "HTTP 503"}
			if err := transcript.Write(dir, tr); err != nil {
				t.Fatal(err)
			}
		case tr.TaskID == "05-b" && tr.Repeat == 0:
			if err := os.Remove(tr.Path(dir)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// streamInPlanOrder: one score per (model, task, repeat) of the plan, in
// plan order, each naming a transcript that exists (or none).
func streamInPlanOrder(t *testing.T, scores []Score, plan Plan, dir string) {
	t.Helper()
	if len(scores) != 12 {
		t.Fatalf("%d scores, want 12 (2 models × 3 tasks × 2 repeats)", len(scores))
	}
	for i, s := range scores {
		want := plan.Models[i/6]
		if s.Model != want || s.TaskID != plan.TaskIDs[(i/2)%3] || s.Repeat != i%2 {
			t.Fatalf("score %d is %s/%s/r%d: not in plan order", i, s.Model, s.TaskID, s.Repeat)
		}
		if s.Transcript != "" {
			if _, err := os.Stat(dir + "/" + s.Transcript); err != nil {
				t.Errorf("score %d names transcript %s: %v", i, s.Transcript, err)
			}
		}
	}
}

// streamScores: TestStream's scores are what each answer was: oracle's
// lossless and judged faithful, identity's "unknown" judged unfaithful,
// the API failure scored as one without a drift, the missing transcript
// missing.
func streamScores(t *testing.T, scores []Score) {
	t.Helper()
	get := func(m, id string, r int) Score {
		return scores[map[string]int{offline.Oracle: 0, offline.Identity: 6}[m]+map[string]int{"05-a": 0, "05-b": 2, "05-c": 4}[id]+r]
	}
	if s := get(offline.Oracle, "05-b", 0); s.Status != StatusScored || s.Metric == nil || s.Metric.Drift != 0 || !s.Metric.EditApplied {
		t.Errorf("oracle B: %+v", s)
	}
	if s := get(offline.Oracle, "05-a", 1); s.Judge == nil || !s.Judge.Faithful || s.Answer == nil || !s.Answer.Valid {
		t.Errorf("oracle A: judged %+v, answer %+v", s.Judge, s.Answer)
	}
	if s := get(offline.Identity, "05-a", 0); s.Judge == nil || s.Judge.Faithful {
		t.Errorf("identity A (answers \"unknown\" without evidence) judged faithful")
	}
	if s := get(offline.Identity, "05-c", 1); s.Status != StatusAPIError || s.Metric != nil || s.Error == nil {
		t.Errorf("API failure scored: %+v", s)
	}
	failed := get(offline.Identity, "05-c", 1)
	if _, ok := failed.Drift(); ok {
		t.Error("an API failure has a drift")
	}
	if s := get(offline.Identity, "05-b", 0); s.Status != StatusMissing || s.Transcript != "" {
		t.Errorf("missing transcript: %+v", s)
	}
}

// TestNeverSentCostsNothing: a job skipped after its model failed fatally
// was never sent, so its cost is a known 0; a call that was sent and failed
// without saying what it cost stays unknown (nil).
func TestNeverSentCostsNothing(t *testing.T) {
	set := tasktest.Set(t)
	tk := set.Task("05-b")
	skipped := &transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: "05-b", Attempts: []transcript.Attempt{},
		Error: &transcript.CallError{Code: transcript.CodeSkipped, Message: "not requested", Fatal: true}}
	sent := &transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: "05-b", Attempts: []transcript.Attempt{{Number: 1, Status: 401}},
		Error: &transcript.CallError{Status: 401, Message: "HTTP 401", Fatal: true}}
	if s := scoreOne(tk, "m", 0, skipped, nil, metric.DefaultWeights()); s.Usage.Cost == nil || *s.Usage.Cost != 0 {
		t.Errorf("skipped job: cost %v, want a known 0", s.Usage.Cost)
	}
	if s := scoreOne(tk, "m", 0, sent, nil, metric.DefaultWeights()); s.Usage.Cost != nil {
		t.Errorf("a sent call without usage: cost %v, want unknown (nil)", *s.Usage.Cost)
	}
}

func TestCutOff(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		finish, content       string
		completion, reasoning int64
		want, reason          string
	}{
		{"stop", "{}", 1000, 900, "", "an answer that stopped by itself was not cut off"},
		{"length", "", 1000, 0, CutOffReasoning, "nothing but reasoning came out: the budget went to reasoning"},
		{"length", "{\"blocks\": [", 1000, 900, CutOffReasoning, "most of the budget went to reasoning"},
		{"length", "{\"blocks\": [", 1000, 100, CutOffOutput, "the document itself was truncated"},
	}) {
		r := &transcript.Response{FinishReason: tc.finish, Content: tc.content,
			Usage: transcript.Usage{CompletionTokens: tc.completion, ReasoningTokens: tc.reasoning}}
		if got := cutOff(r); got != tc.want {
			t.Errorf("cutOff(%s, %d/%d) = %q, want %q (%s)", tc.finish, tc.reasoning, tc.completion, got, tc.want, tc.reason)
		}
	}
}

// TestEndChains: after the step whose answer held no document, a relay
// chain's later steps, never asked, are scored as not run with drift 1; a
// chain that stalled on an API error keeps its missing steps missing (the
// run is incomplete and a resume goes on).
func TestEndChains(t *testing.T) {
	set, _, err := relay.Build(tasktest.Set(t), 4)
	if err != nil {
		t.Fatal(err)
	}
	w := metric.DefaultWeights()
	var scores []Score
	for _, id := range []string{"01-s01", "01-s02", "01-s03", "01-s04", "02-s01", "02-s02", "02-s03", "02-s04"} {
		tk := set.Task(id)
		s := Score{Model: "m", TaskID: id, Class: tk.Class, Status: StatusMissing, Chain: tk.Chain, Step: tk.Step}
		switch id {
		case "01-s01", "02-s01":
			res := metric.Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, string(bend.Marshal(tk.Expected)), w)
			s.Status, s.Metric = StatusScored, &res
		case "01-s02":
			res := metric.Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, "I cannot do that.", w)
			s.Status, s.Metric = StatusScored, &res
		case "02-s02":
			s.Status = StatusAPIError
		}
		scores = append(scores, s)
	}
	EndChains(scores, set, w)
	for _, s := range scores {
		ended := s.TaskID == "01-s03" || s.TaskID == "01-s04"
		d, scored := s.Drift()
		if ended != s.NotRun || ended && (!scored || d != 1) {
			t.Errorf("%s: not run %v, drift %v (scored %v); want not run = %v with drift 1", s.TaskID, s.NotRun, d, scored, ended)
		}
		if (s.TaskID == "02-s03" || s.TaskID == "02-s04") && s.Status != StatusMissing {
			t.Errorf("%s: status %s, want missing: its chain stalled on an API error, it did not end", s.TaskID, s.Status)
		}
	}
}
