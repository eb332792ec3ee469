package pipeline

import (
	"cmp"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

var gating = []string{"a/alpha", "b/beta", "c/gamma"}

func corpusSet(t testing.TB) *task.Set { return tasktest.Set(t) }

func answerTranscript(t *testing.T, modelID, taskID, content string) *transcript.Transcript {
	return tasktest.Answer(t, modelID, taskID, content)
}

// runVotes asks the judges about answers as a run does: each answer's
// votes are runner jobs (judgeVotes), under a per-model limit. It returns
// the judge transcripts sorted by answerer, task, repeat and judge.
func runVotes(ctx context.Context, clients map[string]model.Client, set *task.Set, answers []*transcript.Transcript, dir string, cfg judge.Config, perModel int) ([]*transcript.Transcript, error) {
	votes := jobs.JudgeVotes(set, cfg, nil)
	var jobs []runner.Job
	for _, a := range answers {
		jobs = append(jobs, votes(runner.Result{Transcript: a})...)
	}
	r := &runner.Runner{Clients: clients, Dir: dir, PerModel: max(perModel, 1), Global: 8, JobTimeout: time.Minute}
	res, err := r.Run(ctx, jobs)
	if err != nil {
		return nil, err
	}
	var out []*transcript.Transcript
	for _, x := range res {
		out = append(out, x.Transcript)
	}
	slices.SortFunc(out, func(a, b *transcript.Transcript) int {
		return cmp.Or(cmp.Compare(a.Judged.Model, b.Judged.Model), cmp.Compare(a.TaskID, b.TaskID),
			cmp.Compare(a.Repeat, b.Repeat), cmp.Compare(a.Model, b.Model))
	})
	return out, nil
}

// fakeJudges starts the fake OpenAI-compatible server answering with
// replies[judge][answer] (the answer is the request's last message) and
// returns a client for every gating model.
func fakeJudges(t *testing.T, replies map[string]map[string]modeltest.Reply) (*modeltest.Server, map[string]model.Client) {
	t.Helper()
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		answer := req.Messages[len(req.Messages)-1].Content
		r, ok := replies[req.Model][answer]
		if !ok {
			t.Errorf("unexpected request: %s judging %.60q", req.Model, answer)
			return modeltest.StatusError(400)
		}
		return r
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	clients := map[string]model.Client{}
	for _, m := range gating {
		clients[m] = c
	}
	return srv, clients
}

const (
	yesVote = `{"faithful": true, "quotes": [], "reason": "supported"}`
	noVote  = `{"faithful": false, "quotes": [], "reason": "invented"}`
)

// scenario is the judge replies of TestRun: one answer per case the issue
// lists, each judged by the two gating models that did not give it.
type scenario struct {
	answers []*transcript.Transcript
	replies map[string]map[string]modeltest.Reply
}

func newScenario(t *testing.T) *scenario {
	s := &scenario{replies: map[string]map[string]modeltest.Reply{}}
	add := func(answerer, taskID, answer string, judges map[string]modeltest.Reply) {
		s.answers = append(s.answers, answerTranscript(t, answerer, taskID, answer))
		for j, r := range judges {
			if s.replies[j] == nil {
				s.replies[j] = map[string]modeltest.Reply{}
			}
			s.replies[j][answer] = r
		}
	}
	// Faithful: both judges agree.
	add("a/alpha", "01-a", `{"answer": "41 species and 386 individuals.", "evidence": ["blk-5e6f.spn-01"]}`, map[string]modeltest.Reply{
		"b/beta":  modeltest.Text(`{"faithful": true, "quotes": ["The count totalled 41 species and 386 individuals."], "reason": "stated"}`),
		"c/gamma": modeltest.Text(yesVote),
	})
	// Unfaithful, one judge answering in a fenced block.
	add("b/beta", "02-a", `{"answer": "Paris and Marseille.", "evidence": ["blk-4a90.spn-03"]}`, map[string]modeltest.Reply{
		"a/alpha": modeltest.Fenced(noVote),
		"c/gamma": modeltest.Text(noVote),
	})
	// A panel split 1-1.
	add("c/gamma", "03-a", `{"answer": "An expired TLS certificate.", "evidence": ["blk-7b04.spn-02"]}`, map[string]modeltest.Reply{
		"a/alpha": modeltest.Text(yesVote),
		"b/beta":  modeltest.Text(noVote),
	})
	// A refusal and invalid JSON: judge errors, not verdicts.
	add("a/alpha", "04-a", `{"answer": "Re-run it once.", "evidence": ["blk-6b3d.spn-01"]}`, map[string]modeltest.Reply{
		"b/beta":  modeltest.Text("I'm sorry, I can't help with that."),
		"c/gamma": modeltest.Text(`{"faithful": tru`),
	})
	// A quote that is not in the document, and an API failure.
	add("b/beta", "05-a", `{"answer": "The first edition.", "evidence": ["blk-9d20.spn-01"]}`, map[string]modeltest.Reply{
		"a/alpha": modeltest.Text(`{"faithful": true, "quotes": ["Always read the first edition."], "reason": "quoted"}`),
		"c/gamma": modeltest.StatusError(500),
	})
	// Not judged: a class B transcript and a failed class A call.
	s.answers = append(s.answers,
		answerTranscript(t, "a/alpha", "01-b", "{}"),
		&transcript.Transcript{Kind: transcript.KindTask, Model: "c/gamma", TaskID: "06-a", Class: "A", Error: &transcript.CallError{Message: "timeout"}},
	)
	return s
}

func TestRun(t *testing.T) {
	set := corpusSet(t)
	s := newScenario(t)
	srv, clients := fakeJudges(t, s.replies)
	runDir := t.TempDir()
	cfg := judge.Config{Gating: gating, Seed: 7}

	got, err := runVotes(context.Background(), clients, set, s.answers, runDir, cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 || srv.Count() != 10 {
		t.Fatalf("%d judge transcripts from %d requests; want 10 and 10 (two judges for each of five answers)", len(got), srv.Count())
	}
	votesInOrder(t, got)
	judgeRequests(t, srv.Requests(), s.answers)

	// Everything below is recomputed from the files alone, as rescore does.
	all, err := transcripttest.ReadAll(runDir)
	if err != nil {
		t.Fatalf("the judge transcripts do not read back and verify: %v", err)
	}
	for _, tr := range all {
		if tr.Hashes.Task != judge.DefaultPrompt().Hash || tr.Kind != transcript.KindJudge {
			t.Errorf("%s: kind %s, template hash %s; want judge and the judge template's hash", tr.Path(runDir), tr.Kind, tr.Hashes.Task)
		}
	}
	tests := []struct {
		task       string
		faithful   bool
		decision   string
		f, u, e    int
		ungrounded int
		reason     string
	}{
		{"01-a", true, judge.DecisionMajority, 2, 0, 0, 0, "a faithful verdict"},
		{"02-a", false, judge.DecisionMajority, 0, 2, 0, 0, "an unfaithful verdict, one vote read from a fenced block"},
		{"03-a", false, judge.DecisionTie, 1, 1, 0, 0, "a panel split 1-1 is unfaithful"},
		{"04-a", false, judge.DecisionNoVote, 0, 0, 2, 0, "a refusal and invalid JSON are judge errors, not verdicts"},
		{"05-a", true, judge.DecisionMajority, 1, 0, 1, 1, "an invented quote is flagged; an API failure is a judge error"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.task, func(t *testing.T) {
			var answer *transcript.Transcript
			for _, a := range s.answers {
				if a.TaskID == tt.task {
					answer = a
				}
			}
			v := judge.VerdictFrom(set.Task(tt.task), answer, all)
			if v.Faithful != tt.faithful || v.Decision != tt.decision || v.FaithfulVotes != tt.f || v.UnfaithfulVotes != tt.u || v.ErrorVotes != tt.e || v.UngroundedVotes != tt.ungrounded {
				t.Errorf("verdict %v (%s) %d/%d/%d, %d ungrounded; want %v (%s) %d/%d/%d, %d ungrounded (%s)",
					v.Faithful, v.Decision, v.FaithfulVotes, v.UnfaithfulVotes, v.ErrorVotes, v.UngroundedVotes,
					tt.faithful, tt.decision, tt.f, tt.u, tt.e, tt.ungrounded, tt.reason)
			}
		})
	}

	var failed *transcript.Transcript
	for _, tr := range got {
		if tr.Error != nil {
			failed = tr
		}
	}
	if failed == nil || failed.Model != "c/gamma" || failed.Error.Status != 500 || failed.OK() {
		t.Fatalf("the HTTP 500 was not recorded as an error transcript of c/gamma: %+v", failed)
	}
}

// votesInOrder: judge transcripts come by judged model, task and judge.
func votesInOrder(t *testing.T, got []*transcript.Transcript) {
	t.Helper()
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		if a.Judged.Model+a.TaskID+a.Model > b.Judged.Model+b.TaskID+b.Model {
			t.Errorf("transcripts out of order: %s/%s/%s before %s/%s/%s", a.Judged.Model, a.TaskID, a.Model, b.Judged.Model, b.TaskID, b.Model)
		}
	}
}

// judgeRequests: no judge was asked about its own answer, and every vote
// was asked with temperature 0, seed 7 and the judge's schema.
func judgeRequests(t *testing.T, reqs []modeltest.ChatRequest, answers []*transcript.Transcript) {
	t.Helper()
	answerer := map[string]string{}
	for _, a := range answers {
		if a.OK() {
			answerer[a.Response.Content] = a.Model
		}
	}
	for _, req := range reqs {
		if m := answerer[req.Messages[len(req.Messages)-1].Content]; model.SameWeights(m, req.Model) {
			t.Errorf("%s was asked to judge its own answer", req.Model)
		}
		if req.Temperature == nil || *req.Temperature != 0 || req.Seed == nil || *req.Seed != 7 {
			t.Errorf("request to %s: temperature %v seed %v; want 0 and 7 sent explicitly", req.Model, req.Temperature, req.Seed)
		}
		if !strings.Contains(string(req.ResponseFormat), `"json_schema"`) || !strings.Contains(string(req.ResponseFormat), judge.SchemaName) {
			t.Errorf("request to %s without structured output: %s", req.Model, req.ResponseFormat)
		}
	}
}

func TestRunResumes(t *testing.T) {
	set := corpusSet(t)
	s := newScenario(t)
	srv, clients := fakeJudges(t, s.replies)
	runDir := t.TempDir()
	cfg := judge.Config{Gating: gating, Seed: 7}
	first, err := runVotes(context.Background(), clients, set, s.answers, runDir, cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Count()
	second, err := runVotes(context.Background(), clients, set, s.answers, runDir, cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count() - before; n != 1 {
		t.Errorf("resuming made %d calls; want 1: only the failed call is asked again", n)
	}
	for i := range first {
		if first[i].Error == nil && first[i].Hash != second[i].Hash {
			t.Errorf("%s: a finished judge transcript changed on resume", first[i].Path(runDir))
		}
	}

	// A changed answer makes its judge transcripts stale: they are asked
	// again, and nothing else is.
	changed := *s.answers[0]
	changed.Response = &transcript.Response{Content: s.answers[0].Response.Content, FinishReason: "length"}
	if err := changed.Seal(); err != nil {
		t.Fatal(err)
	}
	answers := append([]*transcript.Transcript{&changed}, s.answers[1:]...)
	before = srv.Count()
	if _, err := runVotes(context.Background(), clients, set, answers, runDir, cfg, 4); err != nil {
		t.Fatal(err)
	}
	if n := srv.Count() - before; n != 3 {
		t.Errorf("after one answer changed, resuming made %d calls; want 3 (its two judges and the failed call)", n)
	}
}

func TestRunTamperedTranscriptIsAnError(t *testing.T) {
	set := corpusSet(t)
	s := newScenario(t)
	_, clients := fakeJudges(t, s.replies)
	runDir := t.TempDir()
	got, err := runVotes(context.Background(), clients, set, s.answers, runDir, judge.Config{Gating: gating}, 4)
	if err != nil {
		t.Fatal(err)
	}
	path := got[0].Path(runDir)
	b, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), "supported", "SUPPORTED", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := runVotes(context.Background(), clients, set, s.answers, runDir, judge.Config{Gating: gating}, 4); !errors.Is(err, transcript.ErrTampered) {
		t.Errorf("resuming over an edited transcript: %v; want ErrTampered, never a silent re-ask", err)
	}
}

func TestRunFatalErrorStopsTheJudge(t *testing.T) {
	set := corpusSet(t)
	var answers []*transcript.Transcript
	for _, id := range []string{"01-a", "02-a", "03-a"} {
		answers = append(answers, answerTranscript(t, "a/alpha", id, `{"answer": "`+id+`", "evidence": []}`))
	}
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if req.Model == "b/beta" {
			return modeltest.Unauthorized()
		}
		return modeltest.Text(noVote)
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	clients := map[string]model.Client{"b/beta": c, "c/gamma": c}
	got, err := runVotes(context.Background(), clients, set, answers, t.TempDir(), judge.Config{Gating: gating}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.CountModel("b/beta"); n != 1 {
		t.Errorf("b/beta was called %d times after a 401; want 1", n)
	}
	skipped := 0
	for _, tr := range got {
		if tr.Model == "b/beta" {
			if tr.Error == nil || !tr.Error.Fatal {
				t.Errorf("%s: %+v; want a fatal error transcript", tr.TaskID, tr.Error)
			} else if tr.Error.Code == transcript.CodeSkipped {
				skipped++
			}
		}
	}
	if skipped != 2 || srv.CountModel("c/gamma") != 3 {
		t.Errorf("%d b/beta calls recorded as skipped, c/gamma called %d times; want 2 and 3: one judge's failure stops only that judge", skipped, srv.CountModel("c/gamma"))
	}
}

func TestRunUnstructuredJudge(t *testing.T) {
	set := corpusSet(t)
	answers := []*transcript.Transcript{answerTranscript(t, "a/alpha", "01-a", `{"answer": "41", "evidence": ["blk-5e6f"]}`)}
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text("My verdict: " + yesVote)
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	clients := map[string]model.Client{"b/beta": c, "c/gamma": c}
	got, err := runVotes(context.Background(), clients, set, answers, t.TempDir(), judge.Config{Gating: gating, Unstructured: []string{"c/gamma"}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range srv.Requests() {
		if has := len(req.ResponseFormat) > 0; has != (req.Model == "b/beta") {
			t.Errorf("%s: response_format sent = %v; want it for every judge but the unstructured one", req.Model, has)
		}
	}
	if v := judge.VerdictFrom(set.Task("01-a"), answers[0], got); v.FaithfulVotes != 2 {
		t.Errorf("%d faithful votes; want 2: a vote in prose is read tolerantly", v.FaithfulVotes)
	}
}

func TestRunConfigurationErrors(t *testing.T) {
	set := corpusSet(t)
	answer := answerTranscript(t, "a/alpha", "01-a", `{"answer": "41", "evidence": []}`)
	clients := map[string]model.Client{"b/beta": judge.NewOffline(set)}
	dir := t.TempDir()
	if _, err := runVotes(context.Background(), clients, set, []*transcript.Transcript{answer}, dir, judge.Config{Gating: []string{"a/alpha", "d/delta"}}, 4); err == nil {
		t.Error("a judge without a client was accepted; every judge needs a client before any call")
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Error("files were written before the configuration failed")
	}
}

// TestRunInterruptedArchivesAsSent: a vote in flight when the run is
// cancelled is archived as interrupted, its attempt as sent (it may have
// been paid), and is no result: a resume asks it again.
func TestRunInterruptedArchivesAsSent(t *testing.T) {
	set := corpusSet(t)
	answers := []*transcript.Transcript{answerTranscript(t, "a/alpha", "01-a", `{"answer": "41", "evidence": []}`)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		once.Do(cancel)
		return modeltest.Hang()
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	dir := t.TempDir()
	_, err := runVotes(ctx, map[string]model.Client{"b/beta": c}, set, answers, dir, judge.Config{Gating: gating, Fixed: []string{"b/beta"}}, 4)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	all, _ := transcripttest.ReadAll(dir)
	if len(all) != 1 || all[0].OK() || all[0].Error.Code != transcript.CodeInterrupted || len(all[0].Attempts) != 1 || !all[0].Attempts[0].Interrupted {
		t.Errorf("an interrupted call left %d transcripts (%+v); want one, interrupted, its attempt as sent", len(all), all)
	}
}

func TestRunOfflineJudge(t *testing.T) {
	set := corpusSet(t)
	answers := []*transcript.Transcript{
		answerTranscript(t, "offline/oracle", "01-a", `{"answer": "41 species and 386 individuals.", "evidence": ["blk-5e6f.spn-01"]}`),
		answerTranscript(t, "offline/noisy", "01-a", `{"answer": "41 species (as also noted in the appendix)", "evidence": ["blk-5e6f.spn-01", "blk-f4b1.spn-99"]}`),
	}
	clients := map[string]model.Client{judge.OfflineJudge: judge.NewOffline(set)}
	got, err := runVotes(context.Background(), clients, set, answers, t.TempDir(), judge.Config{Fixed: []string{judge.OfflineJudge}}, 4)
	if err != nil {
		t.Fatal(err)
	}
	oracle, noisy := judge.VerdictFrom(set.Task("01-a"), answers[0], got), judge.VerdictFrom(set.Task("01-a"), answers[1], got)
	if !oracle.Faithful || noisy.Faithful || noisy.Grounding.EvidenceValid != 1 || oracle.UngroundedVotes != 0 {
		t.Errorf("oracle %v, noisy %v (%d of %d ids valid); want the oracle faithful and grounded, the fabricated citation unfaithful",
			oracle.Faithful, noisy.Faithful, noisy.Grounding.EvidenceValid, noisy.Grounding.EvidenceCited)
	}
}

// TestEchoedDocumentIsNotAnAnswer: a class A response that is not the
// requested answer object (here the document echoed back) is unfaithful
// whatever a judge would say, and no judge is asked (or paid) about it.
func TestEchoedDocumentIsNotAnAnswer(t *testing.T) {
	set := corpusSet(t)
	echo := answerTranscript(t, "a/alpha", "01-a", string(set.Task("01-a").Source.Bytes))
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply { return modeltest.Text(yesVote) })
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	got, err := runVotes(context.Background(), map[string]model.Client{"b/beta": c, "c/gamma": c}, set, []*transcript.Transcript{echo}, t.TempDir(), judge.Config{Gating: gating}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count(); n != 0 || len(got) != 0 {
		t.Errorf("%d judge requests, %d judge transcripts for a response that is not an answer; want none", n, len(got))
	}
	v := judge.VerdictFrom(set.Task("01-a"), echo, nil)
	if v.Faithful || v.Decision != judge.DecisionNotAnAnswer || v.AnswerReason == "" {
		t.Errorf("verdict %+v; want unfaithful, decided as not an answer, with the reason", v)
	}
}
