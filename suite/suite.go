// Package suite turns the corpus and the tasks into runner jobs: the
// answers a run asks for, and the judge votes that follow from class A
// answers. The runner sends jobs without knowing what they are for; the
// score phase reads back what they archived.
package suite

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Params are what one model's requests carry, once its capabilities are
// known: a determinism control the model does not honour is not sent (nil),
// so the transcript records exactly what was asked.
type Params struct {
	Temperature *float64              // nil: not sent
	Seed        *int64                // the base seed, repeat r sends Seed+r; nil: not sent
	MaxTokens   int                   // 0: not sent
	Reasoning   *model.ReasoningPrefs // OpenRouter's reasoning object; nil: not sent
	Provider    *model.ProviderPrefs  // provider pinning; nil: OpenRouter's routing
	// Cache marks the document part of the prompt with cache_control, for
	// providers that cache only at explicit breakpoints (Anthropic).
	Cache bool
	// FitOutput raises MaxTokens per task to what re-emitting the task's
	// document needs (OutputBudget), for suites whose documents are large.
	FitOutput bool
	// Context is the model's context window in tokens (from its listing;
	// 0 when unknown). A request whose prompt and output budget cannot fit
	// it is not sent (runner.Job.Skip).
	Context int
}

// OutputBudget is the output budget, in tokens, that re-emitting a
// document of b bytes needs: b/3 tokens (JSON of prose runs at 3-4 bytes
// a token; the lower figure leaves room) and 4,096 more for whatever the
// model says or reasons besides.
func OutputBudget(b int) int { return model.Tokens(b) + 4096 }

// ParamsFor returns model m's parameters under cfg. lacking lists the
// determinism controls ("temperature", "seed") m does not honour.
func ParamsFor(cfg *config.Config, m string, lacking []string) Params {
	p := Params{MaxTokens: cfg.MaxTokens(m), Cache: CachesAtBreakpoints(m)}
	if !slices.Contains(lacking, "temperature") {
		p.Temperature = new(cfg.Request.Temperature)
	}
	if !slices.Contains(lacking, "seed") {
		p.Seed = new(cfg.Request.Seed)
	}
	s := cfg.ModelSettings[m]
	if r := s.Reasoning; r != nil {
		p.Reasoning = &model.ReasoningPrefs{Effort: r.Effort, MaxTokens: r.MaxTokens, Exclude: r.Exclude}
	}
	if pr := s.Provider; pr != nil {
		p.Provider = &model.ProviderPrefs{Order: pr.Order, AllowFallbacks: pr.AllowFallbacks}
	}
	return p
}

// CachesAtBreakpoints reports whether model m's provider caches a prompt
// prefix only where the request marks it (Anthropic's models); OpenAI and
// Google cache long prefixes by themselves.
func CachesAtBreakpoints(m string) bool { return strings.HasPrefix(m, "anthropic/") }

// Answers are the answer jobs of a run. A document's class A task goes
// first; its other tasks follow when it is archived (Then), so the shared
// prefix (system primer and document) is written to the provider's cache
// once and read by the others, and the class A answer's judge votes can
// start early.
type Answers struct {
	// All is every answer job, by model, then task id, then repeat.
	All   []runner.Job
	first []runner.Job
	after map[string][]runner.Job // by the first job's path
}

// NewAnswers plans every (model, task, repeat) of tasks with each model's
// parameters (params; a model without an entry gets ParamsFor(cfg, m, nil)).
func NewAnswers(cfg *config.Config, prompts *task.Prompts, tasks []*task.Task, params map[string]Params, runID string) *Answers {
	a := &Answers{after: map[string][]runner.Job{}}
	for _, m := range cfg.Models {
		p, ok := params[m]
		if !ok {
			p = ParamsFor(cfg, m, nil)
		}
		leader := map[string]string{} // document and repeat → the first job's path
		for _, t := range firstByDocument(tasks) {
			for r := range cfg.Repeats {
				j := AnswerJob(m, t, r, p, prompts, runID)
				key := fmt.Sprintf("%s\x00%d", t.DocumentName, r)
				if lead, ok := leader[key]; ok {
					j.Counted = true
					a.All = append(a.All, j)
					a.after[lead] = append(a.after[lead], j)
					continue
				}
				a.All = append(a.All, j)
				leader[key] = j.Path("")
				a.first = append(a.first, j)
			}
		}
	}
	// All keeps the Counted mark of the jobs that follow a leading one.
	slices.SortStableFunc(a.All, func(x, y runner.Job) int {
		return cmp.Or(cmp.Compare(slices.Index(cfg.Models, x.Model), slices.Index(cfg.Models, y.Model)),
			cmp.Compare(x.Record.TaskID, y.Record.TaskID), cmp.Compare(x.Record.Repeat, y.Record.Repeat))
	})
	return a
}

// firstByDocument orders tasks so that each document's class A task (or
// else its first task) comes before the document's others.
func firstByDocument(tasks []*task.Task) []*task.Task {
	var docs []string
	byDoc := map[string][]*task.Task{}
	for _, t := range tasks {
		if _, ok := byDoc[t.DocumentName]; !ok {
			docs = append(docs, t.DocumentName)
		}
		if t.Class == task.ClassA {
			byDoc[t.DocumentName] = append([]*task.Task{t}, byDoc[t.DocumentName]...)
		} else {
			byDoc[t.DocumentName] = append(byDoc[t.DocumentName], t)
		}
	}
	out := make([]*task.Task, 0, len(tasks))
	for _, d := range docs {
		out = append(out, byDoc[d]...)
	}
	return out
}

// Later returns the jobs that follow a document's leading task, in plan
// order; they are marked Counted, so the caller counts them in the
// progress totals before the run.
func (a *Answers) Later() []runner.Job {
	var out []runner.Job
	for _, j := range a.All {
		if j.Counted {
			out = append(out, j)
		}
	}
	return out
}

// First returns the jobs to start with: each document's leading task.
func (a *Answers) First() []runner.Job { return a.first }

// Then is the runner's follow-up rule for answers: when a document's
// leading task is archived (answered, failed or kept from before), its
// other tasks join the queue.
func (a *Answers) Then(res runner.Result) []runner.Job { return a.after[res.Job.Path("")] }

// AnswerJobs lists every (model, task, repeat) in a fixed order: by model,
// then task id, then repeat, each model with the configured parameters.
func AnswerJobs(cfg *config.Config, prompts *task.Prompts, tasks []*task.Task, runID string) []runner.Job {
	return NewAnswers(cfg, prompts, tasks, nil, runID).All
}

// AnswerJob is model m's answer to task t in repeat r: the system primer,
// then one user message of two parts, the document (the cacheable prefix,
// marked for providers that need it) and the task; p's parameters, with
// seed p.Seed+r.
func AnswerJob(m string, t *task.Task, r int, p Params, prompts *task.Prompts, runID string) runner.Job {
	system, doc, body := prompts.Parts(t)
	user := model.Message{Role: "user", Content: doc + body}
	if p.Cache {
		user = model.Message{Role: "user", Parts: []model.Part{{Text: doc, Cache: true}, {Text: body}}}
	}
	req := model.Request{
		Model: m, Messages: []model.Message{{Role: "system", Content: system}, user},
		Temperature: p.Temperature, MaxTokens: p.MaxTokens, Reasoning: p.Reasoning, Provider: p.Provider, TaskID: t.ID,
	}
	if p.FitOutput && t.Class != task.ClassA && t.Format == "" {
		// A patch answer's budget is the configured one: it does not
		// re-emit the document.
		req.MaxTokens = max(req.MaxTokens, OutputBudget(len(t.Source.Bytes)))
	}
	if p.Seed != nil {
		req.Seed = new(*p.Seed + int64(r))
	}
	j := runner.Job{Model: m, Request: req, Record: transcript.Transcript{
		Kind: transcript.KindTask, RunID: runID, Model: m, TaskID: t.ID, Class: t.Class, Repeat: r,
		Hashes:  transcript.Hashes{Prompt: prompts.FormatHash(t.Format), Task: t.Hash, Document: t.Source.Hash},
		Request: transcript.RequestOf(req),
	}}
	if prompt := model.Tokens(len(system) + len(doc) + len(body)); p.Context > 0 && prompt+req.MaxTokens > p.Context {
		j.Skip = fmt.Sprintf("not sent: the prompt (about %d tokens) and the output budget (%d) exceed the model's context of %d tokens", prompt, req.MaxTokens, p.Context)
	}
	return j
}

// PlannedVotes counts, per judge, the votes a run plans: one per class A
// answer (model, task, repeat) and judge of the answering model's panel.
// An answer that fails brings no vote, so fewer may be asked.
func PlannedVotes(cfg *config.Config, tasks []*task.Task, jc judge.Config) map[string]int {
	out := map[string]int{}
	for _, t := range tasks {
		if t.Class != task.ClassA {
			continue
		}
		for _, m := range cfg.Models {
			for _, j := range judge.Panel(m, jc.Gating, jc.Fixed) {
				out[j] += cfg.Repeats
			}
		}
	}
	return out
}

// Chain combines follow-up rules: a job's follow-ups are those of every
// rule, in order.
func Chain(rules ...func(runner.Result) []runner.Job) func(runner.Result) []runner.Job {
	return func(res runner.Result) []runner.Job {
		var out []runner.Job
		for _, rule := range rules {
			if rule != nil {
				out = append(out, rule(res)...)
			}
		}
		return out
	}
}

// JudgeVotes returns the runner's follow-up rule: every archived class A
// answer with a response brings one vote job per judge of its panel. A
// vote archived for the same answer with the same template is kept. The
// votes are Counted: PlannedVotes counts them for the progress totals
// before the run.
func JudgeVotes(set *task.Set, jc judge.Config) func(runner.Result) []runner.Job {
	return func(res runner.Result) []runner.Job {
		a := res.Transcript
		t := set.Task(a.TaskID)
		if a.Kind != transcript.KindTask || t == nil {
			return nil
		}
		var out []runner.Job
		for _, c := range jc.Calls(t, a) {
			out = append(out, runner.Job{Model: c.Judge, Request: c.Request, Record: c.Record, Counted: true,
				Keep: func(archived *transcript.Transcript) bool { return jc.Current(archived, a) }})
		}
		return out
	}
}
