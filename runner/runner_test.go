package runner_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

const secretKey = "sk-or-v1-TESTSECRET-0123456789abcdef"

func load(t testing.TB) (*task.Set, *task.Prompts) {
	t.Helper()
	set, probs := task.Load(corpus.FS, instructions.FS)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	p, err := task.LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	return set, p
}

var taskRe = regexp.MustCompile(`Task (\d\d-[abc])`)

// taskOf finds the task id in a request's last message.
func taskOf(req modeltest.ChatRequest) string {
	m := taskRe.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content)
	if m == nil {
		return ""
	}
	return m[1]
}

// sleeps records the client's waits instead of sleeping.
type sleeps struct {
	mu sync.Mutex
	d  []time.Duration
}

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.d = append(s.d, d)
	s.mu.Unlock()
	return ctx.Err()
}

// newClient is the client of the tests, with s's waits, and more options
// after the defaults. Its idle timeout, which also bounds how long an
// answer's first byte may take, is long enough that a loaded machine
// (-race on a busy CI core) never retries an answered call, and so never
// adds a request or an attempt that a test counts; a test of a hang sets
// its own (WithIdleTimeout).
func newClient(url string, s *sleeps, opts ...model.Option) *model.OpenRouter {
	return model.NewOpenRouter(append([]model.Option{model.WithBaseURL(url), model.WithAPIKey(secretKey),
		model.WithIdleTimeout(30 * time.Second), model.WithBackoff(time.Millisecond, time.Second),
		model.WithMaxRetries(3), model.WithSleep(s.sleep)}, opts...)...)
}

func newRunner(t testing.TB, dir string, clients map[string]model.Client) *runner.Runner {
	return &runner.Runner{Clients: clients, Dir: dir, PerModel: 4, Global: 8, JobTimeout: time.Minute}
}

// answerJobs lists the answer jobs of models × tasks × repeats, as a run
// plans them.
func answerJobs(t testing.TB, models []string, tasks []*task.Task, repeats int, seed int64) []runner.Job {
	_, p := load(t)
	var out []runner.Job
	for _, m := range models {
		for _, tk := range tasks {
			for r := range repeats {
				out = append(out, jobs.AnswerJob(m, tk, r, jobs.Params{Temperature: new(0.0), Seed: new(seed)}, p, "test"))
			}
		}
	}
	return out
}

// TestFaults drives the real client against a misbehaving server: every job
// ends with a transcript, success or recorded error.
func TestFaults(t *testing.T) {
	set, _ := load(t)
	expected := string(bend.Marshal(set.Task("01-b").Expected))
	scripts := map[string][]modeltest.Reply{
		"01-a": {modeltest.Text(`{"answer":"41","evidence":["blk-5e6f.spn-01"]}`)},
		"01-b": {modeltest.RateLimited(1), modeltest.Text(expected)},
		"01-c": {modeltest.StatusError(500), modeltest.StatusError(502), modeltest.StatusError(503), modeltest.Text("{}")},
		"02-a": {modeltest.Hang(), modeltest.Text(`{"answer":"x","evidence":[]}`)},
		"02-b": {modeltest.NotJSON(), modeltest.NotJSON(), modeltest.NotJSON()},
		"02-c": {modeltest.Fenced(`{"a":1}`)},
		"03-a": {modeltest.Truncated(`{"answer": "trunc`)},
		"03-b": {modeltest.MidGenerationError(502, "upstream died")},
	}
	var mu sync.Mutex
	calls := map[string]int{}
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		id := taskOf(req)
		mu.Lock()
		calls[id]++
		n := calls[id]
		mu.Unlock()
		s := scripts[id]
		return s[min(n, len(s))-1]
	})
	var sl sleeps
	dir := t.TempDir()
	// The hang (02-a) ends by the idle timeout, which also bounds every
	// other answer's first byte: at 300 ms a loaded machine (-race) cut
	// answered calls, whose retries added attempts and requests
	// (TestFatalStopsModel failed so, with this test's client, under
	// -race on a starved core; this test failed once on a loaded
	// machine).
	r := newRunner(t, dir, map[string]model.Client{"m": newClient(srv.URL, &sl, model.WithIdleTimeout(3*time.Second))})
	var tasks []*task.Task
	for id := range scripts {
		tasks = append(tasks, set.Task(id))
	}
	res, err := r.Run(context.Background(), answerJobs(t, []string{"m"}, tasks, 1, 7))
	if err != nil {
		t.Fatal(err)
	}
	byTask := map[string]*transcript.Transcript{}
	for _, x := range res {
		if x.Transcript == nil {
			t.Fatalf("%s: no transcript", x.Job.Record.TaskID)
		}
		onDisk, err := transcript.Read(transcript.TaskPath(dir, "m", x.Job.Record.TaskID, 0))
		if err != nil {
			t.Fatalf("%s: %v", x.Job.Record.TaskID, err)
		}
		byTask[x.Job.Record.TaskID] = onDisk
	}
	check := func(id string, ok bool, attempts int, reason string) {
		t.Helper()
		tr := byTask[id]
		if tr.OK() != ok || len(tr.Attempts) != attempts {
			t.Errorf("%s: ok=%v attempts=%d, want ok=%v attempts=%d (%s); error=%+v", id, tr.OK(), len(tr.Attempts), ok, attempts, reason, tr.Error)
		}
	}
	check("01-a", true, 1, "plain success")
	check("01-b", true, 2, "429 then success")
	check("01-c", true, 4, "500, 502, 503 then success")
	check("02-a", true, 2, "a hang past the attempt timeout is retried")
	check("02-b", false, 3, "a body that is not JSON is retried twice, then an error")
	check("02-c", true, 1, "a fenced completion is a response; extraction happens when scoring")
	check("03-a", true, 1, "a truncated completion is a response")
	check("03-b", false, 4, "a mid-generation error (HTTP 200) is retried, then an error")
	if got := byTask["01-b"].Attempts[0].RetryAfterMS; got != 1000 {
		t.Errorf("Retry-After: 1 recorded as %d ms", got)
	}
	foundWait := false
	for _, d := range sl.d {
		if d == time.Second {
			foundWait = true
		}
	}
	if !foundWait {
		t.Errorf("the client did not wait the 1 s that Retry-After asked for; waits: %v", sl.d)
	}
	if fr := byTask["03-a"].Response.FinishReason; fr != "length" {
		t.Errorf("finish reason %q, want length", fr)
	}
	for _, req := range srv.Requests() {
		if req.Temperature == nil || *req.Temperature != 0 || req.Seed == nil || *req.Seed != 7 {
			t.Fatalf("request without temperature 0 and seed 7: %s", req.Body)
		}
	}
	assertNoSecret(t, dir)
}

// assertNoSecret checks that the API key appears in no file the run wrote.
func assertNoSecret(t *testing.T, dir string) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), secretKey) || strings.Contains(string(b), "TESTSECRET") {
			t.Errorf("%s contains the API key", p)
		}
		return nil
	})
	if n == 0 {
		t.Error("the run wrote no files")
	}
}

// TestFatalStopsModel: after a 401 no request is sent for that model, its
// other jobs are recorded as skipped, and another model is not affected.
func TestFatalStopsModel(t *testing.T) {
	set, _ := load(t)
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if req.Model == "bad" {
			return modeltest.Unauthorized()
		}
		return modeltest.Text("{}")
	})
	var sl sleeps
	c := newClient(srv.URL, &sl)
	dir := t.TempDir()
	r := newRunner(t, dir, map[string]model.Client{"bad": c, "good": c})
	r.PerModel = 1
	res, err := r.Run(context.Background(), answerJobs(t, []string{"bad", "good"}, set.Tasks[:10], 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.CountModel("bad"); n != 1 {
		t.Errorf("%d requests to the model after its 401, want exactly 1", n)
	}
	if n := srv.CountModel("good"); n != 10 {
		t.Errorf("good model: %d requests, want 10", n)
	}
	skipped := 0
	for _, x := range res {
		if x.Job.Model == "bad" {
			if x.Transcript == nil || x.Transcript.Error == nil || !x.Transcript.Error.Fatal {
				t.Fatalf("bad model job without a fatal error transcript: %+v", x)
			}
			if x.Outcome == runner.Skipped {
				skipped++
			}
		}
	}
	if skipped != 9 {
		t.Errorf("%d skipped, want 9", skipped)
	}
}

// cancelAfter cancels the run once n jobs have completed.
type cancelAfter struct {
	n      int32
	done   atomic.Int32
	cancel context.CancelFunc
}

func (c *cancelAfter) Add(string, int) {}
func (c *cancelAfter) Done(runner.Result) {
	if c.done.Add(1) == c.n {
		c.cancel()
	}
}

// TestResume: a run killed part-way, then resumed, requests exactly the
// missing jobs — none twice — and ends with every transcript.
func TestResume(t *testing.T) {
	set, _ := load(t)
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Reply{Content: "{}", Delay: 5 * time.Millisecond}
	})
	var sl sleeps
	c := newClient(srv.URL, &sl)
	dir := t.TempDir()
	jobs := answerJobs(t, []string{"m1", "m2"}, set.Tasks[:15], 1, 1)
	ctx, cancel := context.WithCancel(context.Background())
	r := newRunner(t, dir, map[string]model.Client{"m1": c, "m2": c})
	r.Progress = &cancelAfter{n: 7, cancel: cancel}
	_, err := r.Run(ctx, jobs)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run = %v, want context.Canceled", err)
	}
	first := srv.Count()
	all, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	// A job in flight when the run was cancelled is archived as
	// interrupted (its attempts as sent); only answered jobs are kept.
	var files []string
	interrupted := 0
	for _, f := range all {
		tr, err := transcript.Read(f)
		switch {
		case err != nil:
			t.Fatal(err)
		case tr.OK():
			files = append(files, f)
		case tr.Error.Code == transcript.CodeInterrupted:
			interrupted++
			if len(tr.Attempts) == 0 || !tr.Attempts[len(tr.Attempts)-1].Interrupted {
				t.Errorf("%s: interrupted, but its last attempt is not marked so: %+v", f, tr.Attempts)
			}
		default:
			t.Errorf("%s: unexpected error %+v", f, tr.Error)
		}
	}
	tmp, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(tmp) > 0 {
		t.Errorf("half-written files left: %v", tmp)
	}
	if len(files) == 0 || len(files) >= len(jobs) {
		t.Fatalf("%d transcripts after the interruption; the test needs a partial run", len(files))
	}
	// The resume's client marks its requests, so that a request of the
	// first run that reaches the server late is not counted as the
	// resume's.
	c2 := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey),
		model.WithHeaders(map[string]string{"X-Phase": "resume"}), model.WithSleep(sl.sleep))
	r2 := newRunner(t, dir, map[string]model.Client{"m1": c2, "m2": c2})
	res, err := r2.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	second := 0
	for _, req := range srv.Requests() {
		if req.Header.Get("X-Phase") == "resume" {
			second++
		}
	}
	if want := len(jobs) - len(files); second != want {
		t.Errorf("resume sent %d requests, want %d (jobs %d, transcripts kept %d)", second, want, len(jobs), len(files))
	}
	reused := 0
	for _, x := range res {
		if x.Transcript == nil || !x.Transcript.OK() {
			t.Fatalf("job %s/%s has no successful transcript", x.Job.Model, x.Job.Record.TaskID)
		}
		if x.Outcome == runner.Reused {
			reused++
		}
	}
	if reused != len(files) {
		t.Errorf("%d reused, want %d", reused, len(files))
	}
	// No job that had a transcript after the interruption was requested by
	// the resume. (A job in flight when the run was killed was requested
	// in both: it has no transcript, so it is one of the missing jobs.)
	kept := map[string]bool{}
	for _, f := range files {
		kept[filepath.Base(filepath.Dir(f))+"/"+strings.TrimSuffix(filepath.Base(f), ".r0.json")] = true
	}
	for _, req := range srv.Requests()[first:] {
		if k := req.Model + "/" + taskOf(req); kept[k] {
			t.Errorf("resume re-requested %s, which had a transcript", k)
		}
	}
}

// completions records the order in which the runner learns that jobs
// ended, and lets a test wait for one.
type completions struct {
	mu    sync.Mutex
	order []string
	ended map[string]chan struct{}
}

func newCompletions(ids []string) *completions {
	c := &completions{ended: map[string]chan struct{}{}}
	for _, id := range ids {
		c.ended[id] = make(chan struct{})
	}
	return c
}

func (c *completions) Add(string, int) {}
func (c *completions) Done(res runner.Result) {
	t := res.Transcript
	c.mu.Lock()
	c.order = append(c.order, t.TaskID)
	c.mu.Unlock()
	close(c.ended[t.TaskID])
}

// TestResultsInJobOrder: results follow the job list, not completion
// order. The server holds each task's answer until the runner has
// received the next task's, so completion order is exactly reversed.
func TestResultsInJobOrder(t *testing.T) {
	set, _ := load(t)
	tasks := set.Tasks[:9]
	var ids []string
	for _, tk := range tasks {
		ids = append(ids, tk.ID)
	}
	done := newCompletions(ids)
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		if i := slices.Index(ids, taskOf(req)); i+1 < len(ids) {
			<-done.ended[ids[i+1]]
		}
		return modeltest.Text("{}")
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0))
	r := newRunner(t, t.TempDir(), map[string]model.Client{"m": c})
	r.PerModel, r.Global, r.JobTimeout = len(tasks), len(tasks), time.Minute
	r.Progress = done
	jobs := answerJobs(t, []string{"m"}, tasks, 1, 1)
	res, err := r.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(ids)
	slices.Reverse(want)
	if !slices.Equal(done.order, want) {
		t.Fatalf("completion order %v, want the reverse of %v: the test's premise failed", done.order, ids)
	}
	for i, x := range res {
		if x.Job.Record.TaskID != jobs[i].Record.TaskID || x.Transcript.TaskID != jobs[i].Record.TaskID {
			t.Errorf("result %d is %s, want %s", i, x.Transcript.TaskID, jobs[i].Record.TaskID)
		}
	}
}

// BenchmarkFanOut runs 180 jobs (3 models × 60 tasks) against a server that
// answers after a fixed delay. The ideal wall time is
// ceil(60 / per-model concurrency) × delay; x-ideal is the measured ratio.
// Per-job CPU work (prompt rendering, hashing and writing the transcript)
// is a fixed cost, so the ratio approaches 1 as the delay grows toward real
// model latencies (seconds).
func BenchmarkFanOut(b *testing.B) {
	for _, delay := range []time.Duration{50 * time.Millisecond, 250 * time.Millisecond} {
		b.Run(delay.String(), func(b *testing.B) { benchFanOut(b, delay) })
	}
}

func benchFanOut(b *testing.B, delay time.Duration) {
	const perModel = 6
	set, _ := load(b)
	srv := modeltest.NewServer(b, modeltest.FixedDelay(delay, "{}"))
	models := []string{"anthropic/a", "openai/b", "google/c"}
	jobs := answerJobs(b, models, set.Tasks, 1, 1)
	ideal := time.Duration((60+perModel-1)/perModel) * delay
	var sl sleeps
	c := newClient(srv.URL, &sl)
	for b.Loop() {
		r := &runner.Runner{Clients: map[string]model.Client{models[0]: c, models[1]: c, models[2]: c},
			Dir: b.TempDir(), PerModel: perModel, Global: 3 * perModel, JobTimeout: time.Minute}
		start := time.Now()
		if _, err := r.Run(context.Background(), jobs); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start))/float64(ideal), "x-ideal")
	}
	b.ReportMetric(float64(ideal.Milliseconds()), "ideal-ms")
}

// TestJobDeadline: the job's deadline bounds all its attempts together; a
// job that outlasts it is recorded as an error, not left hanging.
func TestJobDeadline(t *testing.T) {
	set, _ := load(t)
	srv := modeltest.NewScripted(t, modeltest.Hang())
	var sl sleeps
	// Every attempt hangs, so a short idle timeout cuts no answer; and
	// since a timer never fires early, two attempts outlast the job. The
	// job's deadline comes half an attempt after the second starts, and
	// half an attempt before a third could (at 300 ms and 450 ms, a
	// stalled timer had 150 ms to be late).
	r := newRunner(t, t.TempDir(), map[string]model.Client{"m": newClient(srv.URL, &sl, model.WithIdleTimeout(time.Second))})
	r.JobTimeout = 1500 * time.Millisecond // each attempt gives up after 1 s; 4 are allowed
	res, err := r.Run(context.Background(), answerJobs(t, []string{"m"}, set.Tasks[:1], 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	tr := res[0].Transcript
	if tr == nil || tr.Error == nil || tr.Error.Code != "job_timeout" {
		t.Fatalf("transcript %+v, want a job_timeout error", tr)
	}
	if n := len(tr.Attempts); n < 1 || n > 2 {
		t.Errorf("%d attempts within a 1.5 s job of 1 s attempts", n)
	}
}

// inFlight counts requests in flight per model at the server and keeps
// the highest count seen.
type inFlight struct {
	mu       sync.Mutex
	now, top map[string]int
}

func (f *inFlight) handler(delay time.Duration) modeltest.Handler {
	f.now, f.top = map[string]int{}, map[string]int{}
	return func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		f.mu.Lock()
		f.now[req.Model]++
		f.top[req.Model] = max(f.top[req.Model], f.now[req.Model])
		f.mu.Unlock()
		time.Sleep(delay)
		f.mu.Lock()
		f.now[req.Model]--
		f.mu.Unlock()
		return modeltest.Text("{}")
	}
}

// TestFollowUpsShareLimits: jobs that follow from others (judge votes)
// join the queue while the first jobs run, and count against their own
// model's per-model limit and the global one.
func TestFollowUpsShareLimits(t *testing.T) {
	set, _ := load(t)
	var f inFlight
	srv := modeltest.NewServer(t, f.handler(20*time.Millisecond))
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0))
	r := newRunner(t, t.TempDir(), map[string]model.Client{"a": c, "j": c})
	r.PerModel, r.Global = 2, 3
	var firstFollowUp, lastAnswer atomic.Int64
	r.Then = func(res runner.Result) []runner.Job {
		if res.Job.Model != "a" {
			return nil
		}
		lastAnswer.Store(time.Now().UnixNano())
		// Every answer brings three votes by j, each a job of its own.
		var out []runner.Job
		for k := range 3 {
			job := res.Job
			job.Model, job.Request.Model = "j", "j"
			job.Record.Model, job.Record.Repeat = "j", k
			out = append(out, job)
		}
		firstFollowUp.CompareAndSwap(0, time.Now().UnixNano())
		return out
	}
	jobs := answerJobs(t, []string{"a"}, set.Tasks[:12], 1, 1)
	res, err := r.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 12+36 {
		t.Fatalf("%d results, want 12 answers and 36 follow-ups", len(res))
	}
	if n := srv.CountModel("j"); n != 36 {
		t.Errorf("%d requests to j, want 36", n)
	}
	if f.top["a"] > 2 || f.top["j"] > 2 {
		t.Errorf("most in flight: a %d, j %d; the per-model limit is 2", f.top["a"], f.top["j"])
	}
	if firstFollowUp.Load() >= lastAnswer.Load() {
		t.Error("no follow-up was queued before the last answer ended")
	}
	for i, x := range res[12:] {
		if x.Transcript == nil || x.Transcript.Model != "j" {
			t.Fatalf("follow-up %d: %+v", i, x)
		}
		if i > 0 && res[12+i-1].Job.Path("") > x.Job.Path("") {
			t.Errorf("follow-ups are not sorted by path at %d", i)
		}
	}
}

// TestFatalArchivesEveryRequestSent: when a model fails fatally while
// several of its calls are in flight, each call that reached the server is
// archived with its attempt; only jobs never sent are skipped, with no
// attempt and a known cost of nothing.
//
// The 401s are held until the four requests in flight have reached the
// server (a minute at most: a runner that sends fewer fails below). A
// 30 ms delay instead let a loaded machine answer the first before a
// second was sent.
func TestFatalArchivesEveryRequestSent(t *testing.T) {
	set, _ := load(t)
	held := holdUntil(4)
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		held()
		return modeltest.Unauthorized()
	})
	var sl sleeps
	dir := t.TempDir()
	r := newRunner(t, dir, map[string]model.Client{"bad": newClient(srv.URL, &sl)})
	r.PerModel = 4
	res, err := r.Run(context.Background(), answerJobs(t, []string{"bad"}, set.Tasks[:10], 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	sent, skipped := 0, 0
	for _, x := range res {
		tr, err := transcript.Read(x.Job.Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case len(tr.Attempts) > 0 && tr.Error.Code != transcript.CodeSkipped && x.Outcome == runner.Requested:
			sent++
		case len(tr.Attempts) == 0 && tr.Error.Code == transcript.CodeSkipped && x.Outcome == runner.Skipped:
			skipped++
		default:
			t.Errorf("%s: outcome %v, %d attempts, error %+v", tr.TaskID, x.Outcome, len(tr.Attempts), tr.Error)
		}
	}
	if n := srv.CountModel("bad"); sent != n || n < 2 {
		t.Errorf("%d requests reached the server, %d archived as sent; want equal and at least 2 (4 in flight)", n, sent)
	}
	if sent+skipped != 10 {
		t.Errorf("sent %d + skipped %d, want 10", sent, skipped)
	}
}

// TestBudgetStopsWithinOneRequest: with requests in flight in parallel, no
// job starts once the known cost plus the estimates in flight and its own
// reaches past the cap, so the run, whose requests cost what they were
// estimated at, never spends past it (issue 46: the last request started
// below the cap and crossed it) and stops within one request of it,
// returns ErrBudget,
// and a second Run with a higher cap asks only the jobs left, reusing the
// rest (their cost counts against the new cap, nothing is asked twice).
func TestBudgetStopsWithinOneRequest(t *testing.T) {
	set, _ := load(t)
	const perCall = 0.01
	cost := perCall
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Reply{Content: "{}", Usage: &modeltest.Usage{PromptTokens: 10, CompletionTokens: 5, Cost: &cost}}
	})
	var sl sleeps
	dir := t.TempDir()
	// Counting requests at the server, a retry would look like a request
	// paid twice: the attempt timeout is long enough that a loaded
	// machine (-race) never retries an answered call.
	client := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey),
		model.WithIdleTimeout(30*time.Second), model.WithMaxRetries(0), model.WithSleep(sl.sleep))
	r := newRunner(t, dir, map[string]model.Client{"m": client})
	estimate := func(runner.Job) float64 { return perCall }
	const maxCost = 0.205 // between two requests' worth: the next would cross it
	r.Budget = &runner.Budget{Max: maxCost, Estimate: estimate}
	jobs := answerJobs(t, []string{"m"}, set.Tasks, 1, 7)
	res, err := r.Run(context.Background(), jobs)
	if !errors.Is(err, runner.ErrBudget) {
		t.Fatalf("Run: %v, want ErrBudget", err)
	}
	if n := srv.Count(); float64(n)*perCall > maxCost || float64(n)*perCall < maxCost-perCall {
		t.Errorf("%d requests ($%.2f) against a cap of $%.3f: past it, or not within one request of it", n, float64(n)*perCall, maxCost)
	}
	if d := r.Spent(res) - float64(srv.Count())*perCall; d > 1e-9 || d < -1e-9 {
		t.Errorf("Spent = %v, the server was asked %d times", r.Spent(res), srv.Count())
	}
	first := srv.Count()
	r.Budget = &runner.Budget{Max: 10, Estimate: estimate}
	res, err = r.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if n := srv.Count(); n != len(jobs) {
		t.Errorf("%d requests in all (%d in the first run), want %d: a job was asked twice or never", n, first, len(jobs))
	}
	reused := 0
	for _, x := range res {
		if x.Outcome == runner.Reused {
			reused++
		}
	}
	if reused != first {
		t.Errorf("%d jobs reused, want the %d the first run archived", reused, first)
	}
}

// TestRunWithoutDirArchivesNothing: a Runner without Dir (a calibration)
// returns every transcript and writes no file, not even below the working
// directory that an empty Dir would name, and does not read one there:
// a transcript lying where a job's path points is neither kept nor
// overwritten.
func TestRunWithoutDirArchivesNothing(t *testing.T) {
	set, _ := load(t)
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0))
	work := t.TempDir()
	t.Chdir(work)
	jobs := answerJobs(t, []string{"m"}, set.Tasks[:3], 1, 1)
	planted := jobs[0].Path("")
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(planted, []byte("not a transcript"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := newRunner(t, "", map[string]model.Client{"m": c}).Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range res {
		if x.Outcome != runner.Requested || x.Transcript == nil || !x.Transcript.OK() {
			t.Errorf("job %d: outcome %v, transcript %v; want every job requested and answered", i, x.Outcome, x.Transcript)
		}
	}
	var files []string
	filepath.WalkDir(work, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if b, _ := os.ReadFile(planted); len(files) != 1 || string(b) != "not a transcript" {
		t.Errorf("files after a run without a directory: %v (planted file now %q); want only the planted one, untouched", files, b)
	}
}

// TestDrainCountsWhatRunKeeps: Drain runs the same jobs and follow-ups as
// Run and archives every transcript, but returns only how the jobs ended;
// a second Drain over the archive reuses them all and says so.
func TestDrainCountsWhatRunKeeps(t *testing.T) {
	set, _ := load(t)
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text("{}")
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0))
	dir := t.TempDir()
	then := func(res runner.Result) []runner.Job {
		if res.Job.Model != "a" || res.Transcript == nil {
			return nil
		}
		job := res.Job
		job.Model, job.Request.Model, job.Record.Model = "j", "j", "j"
		return []runner.Job{job}
	}
	jobs := answerJobs(t, []string{"a"}, set.Tasks[:6], 2, 1)
	r := newRunner(t, dir, map[string]model.Client{"a": c, "j": c})
	r.Then = then
	tally, err := r.Drain(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if want := (runner.Tally{Jobs: 24, Requested: 24}); !reflect.DeepEqual(tally, want) {
		t.Errorf("first Drain: %+v, want %+v", tally, want)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json")); len(files) != 24 {
		t.Errorf("%d transcripts archived, want 24", len(files))
	}
	r2 := newRunner(t, dir, map[string]model.Client{"a": c, "j": c})
	r2.Then = then
	tally, err = r2.Drain(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if !tally.AllReused() || tally.Jobs != 24 || srv.Count() != 24 {
		t.Errorf("second Drain: %+v after %d requests; want all 24 jobs reused, nothing asked", tally, srv.Count())
	}
}

// TestRenderWhenStarted: a job with Render is rendered once, when it is
// started: the budget's estimate, the request sent and the transcript
// archived all see the rendered request.
func TestRenderWhenStarted(t *testing.T) {
	set, _ := load(t)
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Text("{}")
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0))
	var renders, unrendered atomic.Int32
	var jobs []runner.Job
	for _, full := range answerJobs(t, []string{"m"}, set.Tasks[:5], 1, 1) {
		jobs = append(jobs, runner.Job{Model: full.Model, Record: full.Record, Render: func(j *runner.Job) {
			renders.Add(1)
			j.Request, j.Record.Request = full.Request, full.Record.Request
		}})
		jobs[len(jobs)-1].Record.Request = transcript.Request{}
	}
	r := newRunner(t, t.TempDir(), map[string]model.Client{"m": c})
	r.Budget = &runner.Budget{Max: 100, Estimate: func(j runner.Job) float64 {
		if len(j.Request.Messages) == 0 {
			unrendered.Add(1)
		}
		return 0.01 // a price: a cost the budget could not count would stop the run
	}}
	res, err := r.Run(context.Background(), jobs)
	if err != nil {
		t.Fatal(err)
	}
	if renders.Load() != 5 || unrendered.Load() != 0 {
		t.Errorf("%d renders, %d estimates of an unrendered job; want 5 and 0", renders.Load(), unrendered.Load())
	}
	for _, x := range res {
		if x.Transcript == nil || len(x.Transcript.Request.Messages) == 0 || !strings.Contains(x.Transcript.Request.Messages[1].Content, x.Job.Record.TaskID) {
			t.Errorf("%s: the transcript does not record the rendered request", x.Job.Record.TaskID)
		}
	}
	if srv.Count() != 5 {
		t.Errorf("%d requests, want 5", srv.Count())
	}
}

// TestCapReachedByEstimatesAloneFinishes: a job held back because the
// estimates in flight reached the cap starts when their real, lower costs
// come in, and a run that finished every job is no capped run (issue 43:
// `--max-cost 3` on a run that spent $1.85 in all ended "spending cap
// reached", exit 2, no report).
func TestCapReachedByEstimatesAloneFinishes(t *testing.T) {
	set, _ := load(t)
	cost := 0.01
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Reply{Content: "{}", Usage: &modeltest.Usage{PromptTokens: 10, CompletionTokens: 5, Cost: &cost}}
	})
	client := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithAttemptTimeout(30*time.Second), model.WithMaxRetries(0))
	r := newRunner(t, t.TempDir(), map[string]model.Client{"m": client})
	// Each job is estimated at $1 against a cap of $2.50: two in flight
	// hold the third back, but each costs $0.01.
	r.Budget = &runner.Budget{Max: 2.5, Estimate: func(runner.Job) float64 { return 1 }}
	jobs := answerJobs(t, []string{"m"}, set.Tasks[:6], 1, 7)
	if _, err := r.Run(context.Background(), jobs); err != nil {
		t.Fatalf("Run: %v, want every job finished and no cap", err)
	}
	if n := srv.Count(); n != len(jobs) {
		t.Errorf("%d requests, want all %d", n, len(jobs))
	}
}

// TestPanicInFollowUpKeepsJobsInFlight: a panic while following up one
// answer (reading it, issue 45) crashed the run with requests in flight,
// paid and never archived. The runner now returns an error after the
// jobs in flight end, each archived.
//
// The answers are held until the four requests in flight have reached the
// server (a minute at most), so that jobs are in flight when the first
// answer's follow-up panics: a 20 ms delay instead let a loaded machine
// answer the first before a second was sent.
func TestPanicInFollowUpKeepsJobsInFlight(t *testing.T) {
	set, _ := load(t)
	held := holdUntil(4)
	srv := modeltest.NewServer(t, func(int, modeltest.ChatRequest) modeltest.Reply {
		held()
		return modeltest.Text("{}")
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey(secretKey), model.WithMaxRetries(0))
	dir := t.TempDir()
	r := newRunner(t, dir, map[string]model.Client{"a": c})
	r.PerModel, r.Global = 4, 4
	var calls atomic.Int32
	r.Then = func(runner.Result) []runner.Job {
		if calls.Add(1) == 1 {
			var none []int
			_ = none[0]
		}
		return nil
	}
	_, err := r.Run(context.Background(), answerJobs(t, []string{"a"}, set.Tasks[:8], 1, 1))
	if err == nil || !strings.Contains(err.Error(), "the harness failed") {
		t.Fatalf("error %v; want the panic as an error", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "a", "*.json"))
	if n := srv.Count(); len(files) != n || n < 2 {
		t.Errorf("%d transcripts archived for %d requests sent; want every request archived", len(files), n)
	}
}

// holdUntil returns a func that a server's handler calls to hold each of
// the first n requests until the n-th has arrived, or a minute has
// passed (a runner that never sends n at once is then failed by its
// test's counts, not hung); later requests pass at once.
func holdUntil(n int32) func() {
	var arrived atomic.Int32
	all := make(chan struct{})
	return func() {
		if arrived.Add(1) == n {
			close(all)
		}
		select {
		case <-all:
		case <-time.After(time.Minute):
		}
	}
}
