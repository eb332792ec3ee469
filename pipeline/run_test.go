package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// peak counts requests in flight per model at the fake server, answers and
// judge votes together, and keeps the highest count.
type peak struct {
	mu       sync.Mutex
	now, top map[string]int
	votes    int
}

func (p *peak) handler(delay time.Duration) modeltest.Handler {
	p.now, p.top = map[string]int{}, map[string]int{}
	return func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		vote := len(req.ResponseFormat) > 0 // only judges ask for structured output
		p.mu.Lock()
		p.now[req.Model]++
		p.top[req.Model] = max(p.top[req.Model], p.now[req.Model])
		if vote {
			p.votes++
		}
		p.mu.Unlock()
		time.Sleep(delay)
		p.mu.Lock()
		p.now[req.Model]--
		p.mu.Unlock()
		if vote {
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "stated"}`)
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	}
}

func testOptions(t testing.TB, models []string, url string) (Options, *bytes.Buffer) {
	t.Helper()
	set := corpusSet(t)
	prompts, err := task.LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Models = models
	cfg.Concurrency = config.Concurrency{PerModel: 2, Global: 5}
	cfg.Retries.Max = 0
	var out, progress bytes.Buffer
	dir := t.TempDir()
	return Options{
		Config: cfg, Set: set, Prompts: prompts,
		Conn:   Connection{BaseURL: url, APIKey: "test-key", Retries: cfg.Retries, IdleTimeout: time.Minute},
		OutDir: dir + "/runs", RunID: "t", Inputs: transcript.Inputs{ReportDir: dir + "/reports"},
		Progress: &lineLog{w: &progress}, Stdout: &out,
	}, &progress
}

// TestRunJudgesAsRunnerJobs: in a gating run (the cross-vendor panel), the
// judge votes are runner jobs: they appear in the progress output, start
// while answers are still being given, and count against their model's
// per-model limit together with its answers.
//
// The last answer asked is held until a vote has ended: a runner that
// gives votes while answers are still being given ends one then, and one
// that waits for every answer first waits for it in vain (a minute).
// Without the hold, the overlap seen depended on which of the last
// requests a loaded machine answered first.
func TestRunJudgesAsRunnerJobs(t *testing.T) {
	t.Parallel()
	var p peak
	peakHandler := p.handler(15 * time.Millisecond)
	var (
		answersAsked atomic.Int32
		answers      int // the answers the run asks, set before it starts
	)
	voted := make(chan struct{})
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		if len(req.ResponseFormat) == 0 && int(answersAsked.Add(1)) == answers {
			select {
			case <-voted:
			case <-time.After(time.Minute):
			}
		}
		return peakHandler(call, req)
	})
	models := []string{"a/x", "b/y", "c/z"}
	srv.SetModels(modeltest.Entry("a/x"), modeltest.Entry("b/y"), modeltest.Entry("c/z"))
	o, progress := testOptions(t, models, srv.URL)
	answers = len(o.Set.Tasks) * len(models)
	o.Progress = &voteEnded{Progress: o.Progress, ended: voted}
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	if res == nil || len(res.Reports) != 5 {
		t.Fatalf("result %+v: want five reports (JSON, Markdown, HTML, CSV, JUnit)", res)
	}
	if p.votes != 120 {
		t.Errorf("%d judge votes asked, want 120 (20 class A answers × 3 models × 2 other judges)", p.votes)
	}
	for _, m := range models {
		if p.top[m] > 2 {
			t.Errorf("%s had %d requests in flight (answers and votes together); the per-model limit is 2", m, p.top[m])
		}
	}
	firstVote, lastAnswer, votes := -1, -1, 0
	for i, line := range strings.Split(progress.String(), "\n") {
		switch {
		case strings.Contains(line, " judges "):
			votes++
			if firstVote < 0 {
				firstVote = i
			}
		case strings.HasPrefix(line, "["):
			lastAnswer = i
		}
	}
	if votes != 120 {
		t.Errorf("the progress output shows %d judge votes; want 120", votes)
	}
	if firstVote < 0 || firstVote > lastAnswer {
		t.Errorf("the first vote ended at progress line %d, the last answer at %d: judging did not overlap answering", firstVote, lastAnswer)
	}
}

// voteEnded closes ended once a judge vote has ended.
type voteEnded struct {
	runner.Progress
	once  sync.Once
	ended chan struct{}
}

func (v *voteEnded) Done(res runner.Result) {
	v.Progress.Done(res)
	if t := res.Transcript; t != nil && t.Kind == transcript.KindJudge {
		v.once.Do(func() { close(v.ended) })
	}
}

// TestRunRefusesUnjudgeablePanel: with the default panel and one model,
// nobody else could judge its class A answers. The run is refused before
// any request (preflight included), naming the fix.
func TestRunRefusesUnjudgeablePanel(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply { return modeltest.Text("{}") })
	srv.SetModels(modeltest.Entry("a/x"))
	o, _ := testOptions(t, []string{"a/x"}, srv.URL)
	_, err := Run(context.Background(), o)
	var ue *usage.Error
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--judges") {
		t.Fatalf("Run = %v; want a usage error naming --judges", err)
	}
	if n, lists := srv.Count(), len(srv.ModelsRequests()); n != 0 || lists != 0 {
		t.Errorf("%d chat requests and %d model listings before refusing; want none", n, lists)
	}
}

// TestScoreReproducesRunAndReadRunChecksHashes: an offline run, then the
// score phase again from its directory alone (as rescore does), give the
// same JSON report but for rescored_at; a manifest whose configuration was
// edited after the run is refused, naming the file and the pointer.
func TestScoreReproducesRunAndReadRunChecksHashes(t *testing.T) {
	t.Parallel()
	o, _ := testOptions(t, []string{"offline/oracle", "offline/noisy"}, "")
	o.Config.Judges = config.Judges{Models: []string{"offline/judge"}}
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	fresh, err := os.ReadFile(res.Reports[0])
	if err != nil {
		t.Fatal(err)
	}
	m, cfg, err := ReadRun(res.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	m.Inputs.ReportDir = t.TempDir()
	re, err := Score(ScoreOptions{RunDir: res.RunDir, Manifest: m, Config: cfg, Set: o.Set, RescoredAt: &now, Integrity: Unsealed})
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	again, err := os.ReadFile(re.Reports[0])
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Replace(string(again), "  \"rescored_at\": \"2026-11-22T12:00:00Z\",\n", "", 1); got != string(fresh) {
		t.Errorf("rescored report differs from the run's beyond rescored_at:\n%s", linediff.Unified(string(fresh), got, 2))
	}
	manifest := filepath.Join(res.RunDir, "run.json")
	b, _ := os.ReadFile(manifest)
	if err := os.WriteFile(manifest, bytes.Replace(b, []byte(`"class_b_median_max": 0.05`), []byte(`"class_b_median_max": 0.5`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadRun(res.RunDir); err == nil || !strings.Contains(err.Error(), "run.json: /config: the configuration does not match config_hash") {
		t.Errorf("ReadRun of an edited configuration = %v; want the config_hash mismatch named", err)
	}
}

// TestRunIDsInTheSameMillisecond: two runs that start at the same instant
// without a run id get different, time-sorted directories, and both run.
func TestRunIDsInTheSameMillisecond(t *testing.T) {
	t.Parallel()
	o, _ := testOptions(t, []string{"offline/oracle"}, "")
	o.Config.Judges = config.Judges{Models: []string{"offline/judge"}}
	o.RunID = ""
	// One task: the test is about the runs' ids, not what they run (and
	// a partial run's verdict is never pass).
	set, err := Select(o.Set, &transcript.Selection{Tasks: []string{"03-b"}})
	if err != nil {
		t.Fatal(err)
	}
	o.Set = set
	at := time.Date(2026, 11, 22, 10, 15, 0, 123e6, time.UTC)
	o.Now = func() time.Time { return at }
	var dirs []string
	for range 2 {
		res, err := Run(context.Background(), o)
		if err != nil && !errors.Is(err, ErrVerdictFail) {
			t.Fatal(err)
		}
		dirs = append(dirs, filepath.Base(res.RunDir))
	}
	if dirs[0] == dirs[1] || !strings.HasPrefix(dirs[0], "20261122T101500.123Z-") || !strings.HasPrefix(dirs[1], "20261122T101500.123Z-") {
		t.Errorf("run ids %q; want two different ids that start with the start time", dirs)
	}
}

// TestResumeCommandIsRunnable: the printed --resume command names the
// binary as it was run (bin/harness from make), or go run for a binary go
// run built (issue 23: it said harness, which is not on PATH).
func TestResumeCommandIsRunnable(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct{ arg0, want, reason string }{
		{"bin/harness", "bin/harness", "make builds bin/harness and runs it from the checkout"},
		{"./harness", "./harness", "a path as typed runs again from the same directory"},
		{"harness", "harness", "a name found on PATH"},
		{"/tmp/go-build123/b001/exe/harness", "go run ./cmd/harness", "go run's binary is deleted when it exits"},
		{"", "harness", "no argv[0] at all"},
	}) {
		if got := SelfCommand(c.arg0); got != c.want {
			t.Errorf("SelfCommand(%q) = %q, want %q (%s)", c.arg0, got, c.want, c.reason)
		}
	}
}

// TestOneClock: a run and its rescore read every time they record from
// the one injected clock (Options.Now, RescoreOptions.Now): the start and
// the finish in the manifest, rescored_at in the report. finish, the
// manifest and rescore each read time.Now until issue 36.
func TestOneClock(t *testing.T) {
	t.Parallel()
	o, _ := testOptions(t, []string{"offline/oracle"}, "")
	o.Config.Judges = config.Judges{Models: []string{"offline/judge"}}
	// One task, selected as the command selects it, so that the rescore
	// rebuilds the same set from the manifest.
	o.Inputs.Suite, o.Inputs.Selection = suites.Gating, &transcript.Selection{Tasks: []string{"03-b"}}
	set, err := SuiteSet(o.Set, o.Inputs)
	if err != nil {
		t.Fatal(err)
	}
	o.Set = set
	at := time.Date(2026, 11, 22, 10, 15, 0, 0, time.UTC)
	o.Now = func() time.Time { return at }
	res, err := Run(context.Background(), o)
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	m, err := transcript.ReadManifest(res.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	if !m.StartedAt.Equal(at) || m.FinishedAt == nil || !m.FinishedAt.Equal(at) {
		t.Errorf("manifest started %v, finished %v; want both %v, the run's clock", m.StartedAt, m.FinishedAt, at)
	}
	later := at.Add(time.Hour)
	res, err = Rescore(RescoreOptions{RunDir: res.RunDir, ReportDir: t.TempDir(), CorpusDir: "corpus", TaskDir: "instructions",
		Now: func() time.Time { return later }})
	if err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	f, err := os.Open(res.Reports[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := report.ReadJSON(f, res.Reports[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := later.Format(time.RFC3339); rep.RescoredAt != want {
		t.Errorf("rescored_at %q, want %q, the rescore's clock", rep.RescoredAt, want)
	}
}
