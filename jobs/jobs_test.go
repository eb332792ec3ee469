package jobs_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// loadPrompts returns the embedded prompt templates.
func loadPrompts(t *testing.T) *task.Prompts {
	t.Helper()
	p, err := task.LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testConfig is a configuration whose request values differ from each
// other and from the defaults, so a test can tell which one was sent.
func testConfig(models ...string) *config.Config {
	return &config.Config{
		Models:  models,
		Repeats: 2,
		Request: config.Request{Temperature: 0.25, Seed: 40, MaxTokens: 2000},
	}
}

// tasksOf returns the corpus tasks of the given ids, in that order.
func tasksOf(t *testing.T, ids ...string) []*task.Task {
	t.Helper()
	set := tasktest.Set(t)
	out := make([]*task.Task, len(ids))
	for i, id := range ids {
		if out[i] = set.Task(id); out[i] == nil {
			t.Fatalf("no task %s", id)
		}
	}
	return out
}

// TestParamsForLackingNotSent: a determinism control the model does not
// honour is nil (not sent), one it honours carries the configured value.
func TestParamsForLackingNotSent(t *testing.T) {
	cfg := testConfig("openai/gpt")
	tests := []struct {
		lacking     []string
		temperature bool
		seed        bool
		reason      string
	}{
		{nil, true, true, "a model that honours both gets both"},
		{[]string{"temperature"}, false, true, "no temperature: the transcript must not claim one"},
		{[]string{"seed"}, true, false, "no seed: the transcript must not claim one"},
		{[]string{"seed", "temperature"}, false, false, "neither"},
		{[]string{"top_p"}, true, true, "only temperature and seed are determinism controls here"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		p := jobs.ParamsFor(cfg, "openai/gpt", tt.lacking)
		if got := p.Temperature != nil; got != tt.temperature || got && *p.Temperature != 0.25 {
			t.Errorf("lacking %q: temperature %v, want sent=%v with 0.25 (%s)", tt.lacking, deref(p.Temperature), tt.temperature, tt.reason)
		}
		if got := p.Seed != nil; got != tt.seed || got && *p.Seed != 40 {
			t.Errorf("lacking %q: seed %v, want sent=%v with 40 (%s)", tt.lacking, deref(p.Seed), tt.seed, tt.reason)
		}
		if p.MaxTokens != 2000 || p.Reasoning != nil || p.Provider != nil || p.Cache {
			t.Errorf("lacking %q: %+v; want request.max_tokens and nothing else for a model without settings", tt.lacking, p)
		}
	}
}

// TestParamsForModelSettings: a model's model_settings entry replaces
// max_tokens and adds its reasoning and provider; other models keep the
// request's values; Anthropic's models mark the cache breakpoint.
func TestParamsForModelSettings(t *testing.T) {
	cfg := testConfig("anthropic/claude", "openai/gpt")
	no := false
	cfg.ModelSettings = map[string]config.ModelSettings{"anthropic/claude": {
		MaxTokens: 9000,
		Reasoning: &config.Reasoning{Effort: "high", MaxTokens: 3000, Exclude: true},
		Provider:  &config.Provider{Order: []string{"anthropic"}, AllowFallbacks: &no},
	}}
	p := jobs.ParamsFor(cfg, "anthropic/claude", nil)
	if p.MaxTokens != 9000 {
		t.Errorf("max tokens %d, want the model's 9000", p.MaxTokens)
	}
	if r := p.Reasoning; r == nil || r.Effort != "high" || r.MaxTokens != 3000 || !r.Exclude {
		t.Errorf("reasoning %+v, want effort high, 3000 tokens, excluded", r)
	}
	if pr := p.Provider; pr == nil || !slices.Equal(pr.Order, []string{"anthropic"}) || pr.AllowFallbacks == nil || *pr.AllowFallbacks {
		t.Errorf("provider %+v, want anthropic only, no fallbacks", pr)
	}
	if !p.Cache {
		t.Error("an Anthropic model does not mark its cache breakpoint")
	}
	o := jobs.ParamsFor(cfg, "openai/gpt", nil)
	if o.MaxTokens != 2000 || o.Reasoning != nil || o.Provider != nil || o.Cache {
		t.Errorf("openai/gpt: %+v; another model's settings leaked into it", o)
	}
}

// TestCachesAtBreakpoints: only Anthropic's models need the explicit
// cache marker.
func TestCachesAtBreakpoints(t *testing.T) {
	tests := []struct {
		model  string
		want   bool
		reason string
	}{
		{"anthropic/claude-opus-4.8", true, "Anthropic caches only where marked"},
		{"anthropic/claude-sonnet-4:thinking", true, "a variant is still Anthropic's"},
		{"openai/gpt-5.6-sol", false, "OpenAI caches long prefixes by itself"},
		{"google/gemini-3.1-pro-preview", false, "Google caches long prefixes by itself"},
		{"offline/oracle", false, "offline models cache nothing"},
		{"anthropic", false, "a vendor name alone is no model id"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if got := jobs.CachesAtBreakpoints(tt.model); got != tt.want {
			t.Errorf("CachesAtBreakpoints(%q) = %v, want %v (%s)", tt.model, got, tt.want, tt.reason)
		}
	}
}

// TestAnswerJobMessages: the system primer, then one user message of the
// document and the task; with Cache the two are separate parts and only
// the document is marked, and the model reads the same text either way.
func TestAnswerJobMessages(t *testing.T) {
	prompts := loadPrompts(t)
	for _, tk := range tasksOf(t, "01-a", "02-b", "03-c") {
		system, doc, body := prompts.Parts(tk)
		for _, cache := range []bool{false, true} {
			j := jobs.AnswerJob("x/model", tk, 0, jobs.Params{Cache: cache}, prompts, "run")
			msgs := j.Request.Messages
			if len(msgs) != 2 || msgs[0].Role != "system" || msgs[0].Content != system || msgs[0].Parts != nil {
				t.Fatalf("%s cache=%v: messages %+v; want the system primer first, then one user message", tk.ID, cache, msgs)
			}
			u := msgs[1]
			if u.Role != "user" || u.Text() != doc+body {
				t.Errorf("%s cache=%v: the user message is not the document then the task", tk.ID, cache)
			}
			wantParts := []model.Part(nil)
			if cache {
				wantParts = []model.Part{{Text: doc, Cache: true}, {Text: body}}
			}
			if !slices.Equal(u.Parts, wantParts) || cache && u.Content != "" {
				t.Errorf("%s cache=%v: parts %+v, content %d bytes; want parts %+v", tk.ID, cache, u.Parts, len(u.Content), wantParts)
			}
			if got := transcript.RequestOf(j.Request); !slices.EqualFunc(got.Messages, j.Record.Request.Messages, func(a, b transcript.Message) bool {
				return a.Content == b.Content && slices.Equal(a.Parts, b.Parts)
			}) {
				t.Errorf("%s cache=%v: the transcript does not record the messages sent", tk.ID, cache)
			}
		}
	}
}

// TestAnswerJobRecord: the job's transcript names the model, task,
// class, repeat and run, and hashes the prompts, task and document asked
// about, so a resume can tell whether an archived answer still stands.
func TestAnswerJobRecord(t *testing.T) {
	prompts := loadPrompts(t)
	tk := tasksOf(t, "04-b")[0]
	j := jobs.AnswerJob("x/model", tk, 3, jobs.Params{MaxTokens: 700}, prompts, "run-1")
	r := j.Record
	want := transcript.Hashes{Prompt: prompts.Hash, Task: tk.Hash, Document: tk.Source.Hash}
	if r.Kind != transcript.KindTask || r.RunID != "run-1" || r.Model != "x/model" || r.TaskID != "04-b" || r.Class != task.ClassB || r.Repeat != 3 || r.Hashes != want {
		t.Errorf("record kind %s run %s model %s task %s class %s repeat %d hashes %+v; want a task transcript of x/model, 04-b, class B, repeat 3, run-1, hashes %+v",
			r.Kind, r.RunID, r.Model, r.TaskID, r.Class, r.Repeat, r.Hashes, want)
	}
	if j.Model != "x/model" || j.Request.Model != "x/model" || j.Request.TaskID != "04-b" || j.Request.MaxTokens != 700 || j.Skip != "" {
		t.Errorf("job %q request %q task %q max %d skip %q", j.Model, j.Request.Model, j.Request.TaskID, j.Request.MaxTokens, j.Skip)
	}
}

// TestAnswerJobSeedPerRepeat: repeat r sends Seed+r, so repeats differ
// and are reproducible; without a seed none is sent, nor recorded.
func TestAnswerJobSeedPerRepeat(t *testing.T) {
	prompts := loadPrompts(t)
	tk := tasksOf(t, "01-a")[0]
	tests := []struct {
		seed   *int64
		repeat int
		want   *int64
		reason string
	}{
		{new(int64(40)), 0, new(int64(40)), "repeat 0 sends the base seed"},
		{new(int64(40)), 1, new(int64(41)), "each repeat its own seed"},
		{new(int64(40)), 7, new(int64(47)), "Seed+r, not Seed+1"},
		{nil, 3, nil, "a model that lacks seed gets none"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		j := jobs.AnswerJob("x/model", tk, tt.repeat, jobs.Params{Seed: tt.seed}, prompts, "run")
		for what, got := range map[string]*int64{"request": j.Request.Seed, "record": j.Record.Request.Seed} {
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("repeat %d: %s seed %v, want %v (%s)", tt.repeat, what, deref(got), deref(tt.want), tt.reason)
			}
		}
		if tt.seed != nil && *tt.seed != 40 {
			t.Errorf("repeat %d: AnswerJob changed the caller's base seed to %d", tt.repeat, *tt.seed)
		}
	}
}

// deref is what p points to, or nil, for messages.
func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestAnswerJobFitOutput: FitOutput raises the output budget of class B
// and C answers (which re-emit the document) to the document's tokens and
// 4,096 more (Budget, with no reasoning allowance), never lowers it, and
// leaves class A answers and patch answers alone.
func TestAnswerJobFitOutput(t *testing.T) {
	prompts := loadPrompts(t)
	tasks := tasksOf(t, "05-a", "05-b", "05-c")
	budget := model.Tokens(len(tasks[1].Source.Bytes)) + 4096
	tests := []struct {
		task   *task.Task
		p      jobs.Params
		want   int
		reason string
	}{
		{tasks[0], jobs.Params{MaxTokens: 100, FitOutput: true}, 100, "a class A answer re-emits no document"},
		{tasks[1], jobs.Params{MaxTokens: 100, FitOutput: true}, budget, "class B re-emits the document"},
		{tasks[2], jobs.Params{MaxTokens: 100, FitOutput: true}, budget, "class C re-emits the document"},
		{tasks[1], jobs.Params{MaxTokens: budget + 1, FitOutput: true}, budget + 1, "a larger configured budget is kept"},
		{tasks[1], jobs.Params{FitOutput: true}, budget, "no configured budget: the fitted one is sent"},
		{tasks[1], jobs.Params{MaxTokens: 100}, 100, "without FitOutput the configured budget stands"},
		{tasks[1].InFormat("json-patch"), jobs.Params{MaxTokens: 100, FitOutput: true}, 100, "a patch answer keeps the configured budget"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		j := jobs.AnswerJob("x/model", tt.task, 0, tt.p, prompts, "run")
		if j.Request.MaxTokens != tt.want || j.Record.Request.MaxTokens != tt.want {
			t.Errorf("%s %+v: max tokens %d (recorded %d), want %d (%s)", tt.task.ID, tt.p, j.Request.MaxTokens, j.Record.Request.MaxTokens, tt.want, tt.reason)
		}
	}
}

// TestAnswerJobSkipsWhatCannotFit: a prompt (about bytes/3 tokens) and
// output budget larger than a known context window is marked Skip with
// the reason; a window that just fits, or one not known, sends it.
func TestAnswerJobSkipsWhatCannotFit(t *testing.T) {
	prompts := loadPrompts(t)
	tk := tasksOf(t, "06-b")[0]
	system, doc, body := prompts.Parts(tk)
	need := (len(system)+len(doc)+len(body))/3 + 1000
	tests := []struct {
		context int
		skip    bool
		reason  string
	}{
		{0, false, "an unknown context is no reason not to ask"},
		{need, false, "a request that just fits is sent"},
		{need - 1, true, "one token short is not sent"},
		{1000, true, "the output budget alone fills the window"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		j := jobs.AnswerJob("x/model", tk, 0, jobs.Params{MaxTokens: 1000, Context: tt.context}, prompts, "run")
		if (j.Skip != "") != tt.skip {
			t.Errorf("context %d (need %d): skip %q, want skip=%v (%s)", tt.context, need, j.Skip, tt.skip, tt.reason)
		}
		if tt.skip && (!strings.HasPrefix(j.Skip, "not sent: ") || !strings.Contains(j.Skip, fmt.Sprintf("context of %d tokens", tt.context))) {
			t.Errorf("context %d: reason %q does not say why it was not sent", tt.context, j.Skip)
		}
	}
}

// countingClient counts the requests it is sent.
type countingClient struct{ n atomic.Int32 }

func (c *countingClient) Complete(context.Context, model.Request) (*model.Response, error) {
	c.n.Add(1)
	return &model.Response{Content: "{}", FinishReason: "stop"}, nil
}

var _ model.Client = (*countingClient)(nil)

// TestAnswerJobTooLargeNeverSent: the runner archives a job AnswerJob
// marked Skip as not sent, with its reason, and never calls the model.
func TestAnswerJobTooLargeNeverSent(t *testing.T) {
	prompts := loadPrompts(t)
	j := jobs.AnswerJob("x/model", tasksOf(t, "06-b")[0], 0, jobs.Params{MaxTokens: 1000, Context: 1000}, prompts, "run")
	c := &countingClient{}
	r := &runner.Runner{Clients: map[string]model.Client{"x/model": c}, Dir: t.TempDir(), PerModel: 1, Global: 1, JobTimeout: time.Minute}
	res, err := r.Run(context.Background(), []runner.Job{j})
	if err != nil {
		t.Fatal(err)
	}
	if c.n.Load() != 0 {
		t.Errorf("the model was called %d times", c.n.Load())
	}
	if len(res) != 1 {
		t.Fatalf("%d results, want 1", len(res))
	}
	if e := res[0].Transcript.Error; e == nil || e.Code != transcript.CodeNotSent || e.Message != j.Skip {
		t.Errorf("error %+v; want not sent, with the job's reason %q", deref(e), j.Skip)
	}
}

// key is a job's (model, task, repeat), to compare plans.
func key(j runner.Job) string {
	return fmt.Sprintf("%s %s r%d", j.Model, j.Record.TaskID, j.Record.Repeat)
}

func keys(jobs []runner.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = key(j)
	}
	return out
}

// TestNewAnswersOrder: All is by model (in configuration order), task id
// and repeat; each document's class A task
// leads (or else its first task), its other tasks follow it with Then
// and are the Counted ones Later lists.
func TestNewAnswersOrder(t *testing.T) {
	prompts := loadPrompts(t)
	cfg := testConfig("z/last", "a/first")
	// Class A is not first in the input; document 03 has no class A task.
	tasks := tasksOf(t, "01-c", "01-b", "01-a", "02-b", "02-a", "03-c", "03-b")
	a := jobs.NewAnswers(cfg, prompts, tasks, nil, "run")
	var want []string
	for _, m := range cfg.Models {
		for _, id := range []string{"01-a", "01-b", "01-c", "02-a", "02-b", "03-b", "03-c"} {
			for r := range cfg.Repeats {
				want = append(want, fmt.Sprintf("%s %s r%d", m, id, r))
			}
		}
	}
	if got := keys(a.All()); !slices.Equal(got, want) {
		t.Errorf("All:\n%q\nwant\n%q", got, want)
	}
	leaders := map[string]string{"01": "01-a", "02": "02-a", "03": "03-c"}
	first := a.First()
	if len(first) != len(cfg.Models)*3*cfg.Repeats {
		t.Errorf("%d first jobs, want one per model, document and repeat", len(first))
	}
	followers := 0
	for _, j := range first {
		if j.Counted || j.Record.TaskID != leaders[j.Record.TaskID[:2]] {
			t.Errorf("first job %s (counted %v); want the document's leader %s, not counted", key(j), j.Counted, leaders[j.Record.TaskID[:2]])
		}
		then := a.Then(runner.Result{Job: j})
		for _, f := range then {
			if f.Model != j.Model || f.Record.Repeat != j.Record.Repeat || f.Record.TaskID[:2] != j.Record.TaskID[:2] || f.Record.TaskID == j.Record.TaskID || !f.Counted {
				t.Errorf("after %s comes %s (counted %v); want the same model, document and repeat, counted", key(j), key(f), f.Counted)
			}
			if len(a.Then(runner.Result{Job: f})) != 0 {
				t.Errorf("%s, a follower, has followers of its own", key(f))
			}
		}
		followers += len(then)
	}
	later := a.Later()
	if followers != len(later) || len(first)+len(later) != len(a.All()) {
		t.Errorf("%d first, %d later, %d followers by Then, %d in all; want first and later to make all, and Then to bring every later one", len(first), len(later), followers, len(a.All()))
	}
	for _, j := range later {
		if !j.Counted || slices.Contains(slices.Collect(maps.Values(leaders)), j.Record.TaskID) {
			t.Errorf("later job %s (counted %v) is a leader or not counted", key(j), j.Counted)
		}
	}
}

// TestAnswersRenderWhenStarted: the jobs a run starts with and those Then
// brings hold no prompt until the runner renders them (issue 25: every
// prompt built up front, twice, held 260 MB at 24,000 jobs); rendered, each
// is exactly AnswerJob's.
func TestAnswersRenderWhenStarted(t *testing.T) {
	prompts := loadPrompts(t)
	cfg := testConfig("a/one", "b/two")
	tasks := tasksOf(t, "01-a", "01-b", "01-c", "02-b")
	params := map[string]jobs.Params{"a/one": {MaxTokens: 7, Seed: new(int64(3))}}
	a := jobs.NewAnswers(cfg, prompts, tasks, params, "run")
	want := map[string]runner.Job{}
	for _, j := range a.All() {
		want[key(j)] = j
	}
	jobs := a.First()
	for _, j := range a.First() {
		jobs = append(jobs, a.Then(runner.Result{Job: j})...)
	}
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs from First and Then, want %d", len(jobs), len(want))
	}
	for _, j := range jobs {
		if len(j.Request.Messages) > 0 || len(j.Record.Request.Messages) > 0 || j.Render == nil {
			t.Errorf("%s holds its prompt before it is started", key(j))
			continue
		}
		j.Render(&j)
		j.Render = nil
		w := want[key(j)]
		if !reflect.DeepEqual(j.Request, w.Request) || !reflect.DeepEqual(j.Record, w.Record) || j.Skip != w.Skip || j.Counted != w.Counted {
			t.Errorf("%s rendered differs from AnswerJob's", key(j))
		}
	}
}

// TestNewAnswersParams: a model's entry in params is what its requests
// carry; a model without one gets ParamsFor(cfg, m, nil).
func TestNewAnswersParams(t *testing.T) {
	prompts := loadPrompts(t)
	cfg := testConfig("a/given", "b/default")
	params := map[string]jobs.Params{"a/given": {MaxTokens: 123}}
	for _, j := range jobs.NewAnswers(cfg, prompts, tasksOf(t, "01-a", "01-b"), params, "run").All() {
		req, r := j.Request, j.Record.Repeat
		switch j.Model {
		case "a/given":
			if req.MaxTokens != 123 || req.Seed != nil || req.Temperature != nil {
				t.Errorf("%s: max %d seed %v temperature %v; want the given params (123, none, none)", key(j), req.MaxTokens, deref(req.Seed), deref(req.Temperature))
			}
		case "b/default":
			if req.MaxTokens != 2000 || req.Seed == nil || *req.Seed != 40+int64(r) || req.Temperature == nil || *req.Temperature != 0.25 {
				t.Errorf("%s: max %d seed %v temperature %v; want the configuration's (2000, %d, 0.25)", key(j), req.MaxTokens, deref(req.Seed), deref(req.Temperature), 40+r)
			}
		}
	}
}

// TestPlannedVotes: one vote per class A answer and judge of the
// answering model's panel, never the answering model itself.
func TestPlannedVotes(t *testing.T) {
	cfg := testConfig("a/alpha", "b/beta", "c/gamma")
	tasks := tasksOf(t, "01-a", "01-b", "01-c", "02-a", "02-b")
	tests := []struct {
		name   string
		tasks  []*task.Task
		jc     judge.Config
		want   map[string]int
		reason string
	}{
		{"panel", tasks, judge.Config{Gating: cfg.Models},
			map[string]int{"a/alpha": 8, "b/beta": 8, "c/gamma": 8},
			"each model judges the other two's answers: 2 models × 2 tasks × 2 repeats"},
		{"fixed", tasks, judge.Config{Gating: cfg.Models, Fixed: []string{"j/judge", "a/alpha"}},
			map[string]int{"j/judge": 12, "a/alpha": 8},
			"a fixed judge judges every model, but a/alpha not its own answers"},
		{"no class A", tasks[1:3], judge.Config{Gating: cfg.Models},
			map[string]int{},
			"class B and C answers are scored, not judged"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if got := jobs.PlannedVotes(cfg, tt.tasks, tt.jc); !maps.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v (%s)", tt.name, got, tt.want, tt.reason)
		}
	}
}

// TestPlannedVotesMatchJudgeVotes: the progress totals PlannedVotes gives
// are the votes JudgeVotes queues when every class A answer is valid.
func TestPlannedVotesMatchJudgeVotes(t *testing.T) {
	set := tasktest.Set(t)
	cfg := testConfig("a/alpha", "b/beta", "c/gamma")
	tasks := tasksOf(t, "01-a", "01-b", "02-a")
	jc := judge.Config{Gating: cfg.Models, Fixed: []string{"j/judge", "b/beta"}}
	votes := jobs.JudgeVotes(set, jc, nil)
	got := map[string]int{}
	for _, m := range cfg.Models {
		for _, tk := range tasks {
			for r := range cfg.Repeats {
				a := answer(t, m, tk.ID, r, `{"answer": "x", "evidence": []}`)
				for _, j := range votes(runner.Result{Transcript: a}) {
					got[j.Model]++
				}
			}
		}
	}
	if want := jobs.PlannedVotes(cfg, tasks, jc); !maps.Equal(got, want) {
		t.Errorf("queued %v, planned %v", got, want)
	}
}

// TestJudgeVotesRenderWhenStarted: a vote job holds no prompt until the
// runner renders it (issue 25: votes queued behind a slower judge held
// their prompts); rendered, it is exactly the call judge.Config.CallOn
// makes for each of the answer's voters.
func TestJudgeVotesRenderWhenStarted(t *testing.T) {
	set := tasktest.Set(t)
	jc := judge.Config{Gating: []string{"a/alpha", "b/beta", "c/gamma"}, Seed: 7, MaxTokens: 99, Lacking: map[string][]string{"c/gamma": {"seed"}}}
	a := answer(t, "b/beta", "01-a", 1, `{"answer": "x", "evidence": []}`)
	var calls []judge.Call
	for _, j := range jc.Voters(set.Task("01-a"), a) {
		calls = append(calls, jc.CallOn(set.Task("01-a"), a, j))
	}
	jobs := jobs.JudgeVotes(set, jc, nil)(runner.Result{Transcript: a})
	if len(jobs) != len(calls) || len(jobs) != 2 {
		t.Fatalf("%d vote jobs, %d calls; want 2 of each", len(jobs), len(calls))
	}
	for i, j := range jobs {
		if len(j.Request.Messages) > 0 || len(j.Record.Request.Messages) > 0 || j.Render == nil {
			t.Errorf("vote of %s holds its prompt before it is started", j.Model)
			continue
		}
		j.Render(&j)
		if c := calls[i]; j.Model != c.Judge || !reflect.DeepEqual(j.Request, c.Request) || !reflect.DeepEqual(j.Record, c.Record) {
			t.Errorf("vote of %s rendered differs from judge.Config.CallOn's", j.Model)
		}
	}
}

// answer is a sealed answer transcript of model m to task id in repeat r.
func answer(t *testing.T, m, id string, r int, content string) *transcript.Transcript {
	t.Helper()
	a := tasktest.Answer(t, m, id, content)
	a.Repeat, a.Class = r, strings.ToUpper(id[3:])
	if err := a.Seal(); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestChain: a job's follow-ups are those of every rule, in the order of
// the rules, each rule given the same result; a nil rule is skipped.
func TestChain(t *testing.T) {
	rule := func(name string, n int) func(runner.Result) []runner.Job {
		return func(res runner.Result) []runner.Job {
			var out []runner.Job
			for i := range n {
				out = append(out, runner.Job{Model: fmt.Sprintf("%s%d<%s", name, i, res.Job.Model)})
			}
			return out
		}
	}
	tests := []struct {
		rules  []func(runner.Result) []runner.Job
		want   []string
		reason string
	}{
		{nil, nil, "no rule, no follow-up"},
		{[]func(runner.Result) []runner.Job{rule("x", 1), nil, rule("y", 2)}, []string{"x0<m", "y0<m", "y1<m"}, "in rule order, nil skipped"},
		{[]func(runner.Result) []runner.Job{rule("y", 2), rule("x", 1)}, []string{"y0<m", "y1<m", "x0<m"}, "the order is the rules', not sorted"},
		{[]func(runner.Result) []runner.Job{rule("x", 0), rule("y", 1)}, []string{"y0<m"}, "a rule with nothing to add adds nothing"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		var got []string
		for _, j := range jobs.Chain(tt.rules...)(runner.Result{Job: runner.Job{Model: "m"}}) {
			got = append(got, j.Model)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("got %q, want %q (%s)", got, tt.want, tt.reason)
		}
	}
}

// TestJudgeVotes: a class A answer with a response brings one counted
// vote per judge of its panel, sorted by judge, that keeps an archived
// vote on the same answer only; any other transcript brings none.
func TestJudgeVotes(t *testing.T) {
	set := tasktest.Set(t)
	jc := judge.Config{Gating: []string{"a/alpha", "b/beta", "c/gamma"}, Seed: 7}
	votes := jobs.JudgeVotes(set, jc, nil)
	valid := `{"answer": "x", "evidence": []}`

	a := answer(t, "b/beta", "01-a", 1, valid)
	jobs := votes(runner.Result{Transcript: a})
	var judges []string
	for _, j := range jobs {
		judges = append(judges, j.Model)
	}
	if got := judges; !slices.Equal(got, []string{"a/alpha", "c/gamma"}) {
		t.Fatalf("votes by %q; want a/alpha and c/gamma, not b/beta on its own answer", got)
	}
	for _, j := range jobs {
		r := j.Record
		if !j.Counted || r.Kind != transcript.KindJudge || r.Model != j.Model || r.Judged == nil || r.Judged.Model != "b/beta" || r.Judged.Hash != a.Hash || r.Repeat != 1 {
			t.Errorf("vote of %s: counted %v, record kind %s model %s judged %v repeat %d; want a counted judge record of b/beta's answer, repeat 1", j.Model, j.Counted, r.Kind, r.Model, r.Judged, r.Repeat)
		}
		if j.Keep == nil || !j.Keep(&r) {
			t.Errorf("vote of %s: an archived vote on the same answer is not kept", j.Model)
		}
		other := r
		other.Judged = &transcript.Ref{Model: "b/beta", TaskID: "01-a", Repeat: 1, Hash: "changed"}
		if j.Keep(&other) {
			t.Errorf("vote of %s: an archived vote on another answer is kept", j.Model)
		}
	}

	failed := answer(t, "b/beta", "01-a", 0, valid)
	failed.Error = &transcript.CallError{Code: "timeout", Message: "timed out"} // the partial response kept
	judged := answer(t, "b/beta", "01-a", 0, valid)
	judged.Kind = transcript.KindJudge
	none := []struct {
		name   string
		tr     *transcript.Transcript
		reason string
	}{
		{"class B", answer(t, "b/beta", "01-b", 0, valid), "edits are scored by the metric"},
		{"class C", answer(t, "b/beta", "01-c", 0, valid), "edits are scored by the metric"},
		{"failed", failed, "an API failure is no answer, even with a response"},
		{"judge vote", judged, "a vote is not judged in turn"},
		{"unknown task", answer(t, "b/beta", "99-a", 0, valid), "a task not in the set is not judged (and does not panic)"},
		{"not an answer object", answer(t, "b/beta", "01-a", 0, "I do not know."), "decided unfaithful without judges"},
	}
	for _, tt := range tabletest.Cases(t, none) {
		if got := votes(runner.Result{Transcript: tt.tr}); len(got) != 0 {
			t.Errorf("%s: %d votes, want none (%s)", tt.name, len(got), tt.reason)
		}
	}
}
