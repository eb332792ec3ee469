// Package jobs turns the corpus and the tasks into runner jobs: the
// answers a run asks for, the steps of chains built from the answer
// before (chains.go), feedback rounds for answers that fail
// (feedback.go), and the judge votes that follow from class A answers.
// The runner sends jobs without knowing what they are for; the score
// phase reads back what they archived.
package jobs

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
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
	// document needs and the reasoning allowance (Budget), for suites whose
	// documents are large.
	FitOutput bool
	// Context is the model's context window in tokens (from its listing;
	// 0 when unknown). A request whose prompt and output budget cannot fit
	// it is not sent (runner.Job.Skip).
	Context int
	// MaxOutput is the model's maximum output in tokens (the listing's
	// top_provider.max_completion_tokens; 0 when unknown): no budget is
	// above it (Budget), and a feedback round after a cut-off answer
	// raises the budget up to it (CutOffRound).
	MaxOutput int
	// ReasoningAllowance is the output tokens the model's policy leaves
	// for reasoning (model.Policy), added to a fitted budget.
	ReasoningAllowance int
	// Session sends a session_id per run, model and document (SessionID),
	// so that OpenRouter routes a document's requests to the provider
	// that cached its prefix.
	Session bool
}

// FromPolicy returns the parameters of a model's answers under its
// policy: what the policy sends, its budget and the listing's limits.
func FromPolicy(pol model.Policy, m string, context int) Params {
	return Params{Temperature: pol.Temperature, Seed: pol.Seed, MaxTokens: pol.MaxTokens, Reasoning: pol.Reasoning, Provider: pol.Provider,
		Cache: CachesAtBreakpoints(m), Context: context, MaxOutput: pol.MaxOutput, ReasoningAllowance: pol.ReasoningAllowance, Session: true}
}

// SessionID is the session_id of run runID's requests to model m about
// document doc (model.SessionID, which judge votes share).
func SessionID(runID, m, doc string) string { return model.SessionID(runID, m, doc) }

// Budget is the output budget of p's answer to t, and why it is not
// sent or was capped: a whole-document answer of a fitting suite asks
// for the document's tokens plus the policy's reasoning allowance (at
// least 4,096 tokens of room); no budget is above p.MaxOutput. A
// document that alone needs more output than the model's maximum is not
// sent (skip); a budget above the maximum is capped to it (capped).
func Budget(t *task.Task, p Params) (budget int, capped, skip string) {
	budget = p.MaxTokens
	need := 0
	if p.FitOutput && t.Class != task.ClassA && t.Format == "" {
		// A patch answer's budget is the configured one: it does not
		// re-emit the document.
		need = model.Tokens(len(t.Source.Bytes))
		budget = max(budget, need+max(4096, p.ReasoningAllowance))
	}
	switch {
	case p.MaxOutput <= 0 || budget <= p.MaxOutput:
		return budget, "", ""
	case need > p.MaxOutput:
		return budget, "", fmt.Sprintf("not sent: re-emitting the document needs about %d output tokens, above the model's maximum output of %d (top_provider.max_completion_tokens)", need, p.MaxOutput)
	}
	return p.MaxOutput, fmt.Sprintf("output budget capped from %d to the model's maximum output of %d (top_provider.max_completion_tokens): %d tokens are left for reasoning", budget, p.MaxOutput, p.MaxOutput-need), ""
}

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
//
// Answers holds the plan, not the jobs: each job is made when it is asked
// for (First, Then), and its prompt is rendered only when the runner
// starts it (runner.Job.Render), so a run of any size holds the prompts of
// the jobs in flight alone.
type Answers struct {
	models  []string
	repeats int
	prompts *task.Prompts
	params  map[string]Params // every model's, defaults filled in
	runID   string
	docs    [][]*task.Task // each document's tasks, its leading task first
	leads   map[string]int // a leading task's id → its document in docs
}

// NewAnswers plans every (model, task, repeat) of tasks with each model's
// parameters (params; a model without an entry gets ParamsFor(cfg, m, nil)).
func NewAnswers(cfg *config.Config, prompts *task.Prompts, tasks []*task.Task, params map[string]Params, runID string) *Answers {
	a := &Answers{models: cfg.Models, repeats: cfg.Repeats, prompts: prompts, params: map[string]Params{}, runID: runID, leads: map[string]int{}}
	for _, m := range cfg.Models {
		p, ok := params[m]
		if !ok {
			p = ParamsFor(cfg, m, nil)
		}
		a.params[m] = p
	}
	ordered := firstByDocument(tasks)
	for k, t := range ordered {
		if k == 0 || t.DocumentName != ordered[k-1].DocumentName {
			a.leads[t.ID] = len(a.docs)
			a.docs = append(a.docs, nil)
		}
		a.docs[len(a.docs)-1] = append(a.docs[len(a.docs)-1], t)
	}
	return a
}

// All returns every answer job, by model, then task id, then repeat, each
// with its prompt rendered (for estimates and tests: a run asks First
// and Then for its jobs).
func (a *Answers) All() []runner.Job {
	var out []runner.Job
	for _, m := range a.models {
		for _, doc := range a.docs {
			for r := range a.repeats {
				for k, t := range doc {
					j := AnswerJob(m, t, r, a.params[m], a.prompts, a.runID)
					j.Counted = k > 0
					out = append(out, j)
				}
			}
		}
	}
	// All keeps the Counted mark of the jobs that follow a leading one.
	slices.SortStableFunc(out, func(x, y runner.Job) int {
		return cmp.Or(cmp.Compare(slices.Index(a.models, x.Model), slices.Index(a.models, y.Model)),
			cmp.Compare(x.Record.TaskID, y.Record.TaskID), cmp.Compare(x.Record.Repeat, y.Record.Repeat))
	})
	return out
}

// lazy is model m's answer job to task t in repeat r with its prompt not
// yet rendered: AnswerJob's record, and Render to build the rest.
func (a *Answers) lazy(m string, t *task.Task, r int) runner.Job {
	p := a.params[m]
	return runner.Job{Model: m, Record: AnswerRecord(m, t, r, a.prompts, a.runID),
		Render: func(j *runner.Job) {
			full := AnswerJob(m, t, r, p, a.prompts, a.runID)
			j.Request, j.Record.Request, j.Skip, j.Decode = full.Request, full.Record.Request, full.Skip, full.Decode
		}}
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

// Later returns the jobs that follow a document's leading task, by model,
// document and repeat, their prompts not rendered; they are marked
// Counted, so the caller counts them in the progress totals before the
// run.
func (a *Answers) Later() []runner.Job {
	var out []runner.Job
	for _, m := range a.models {
		for _, doc := range a.docs {
			for r := range a.repeats {
				out = append(out, a.followers(m, doc, r)...)
			}
		}
	}
	return out
}

// First returns the jobs to start with: each document's leading task, by
// model, document and repeat, their prompts not rendered.
func (a *Answers) First() []runner.Job {
	var out []runner.Job
	for _, m := range a.models {
		for _, doc := range a.docs {
			for r := range a.repeats {
				out = append(out, a.lazy(m, doc[0], r))
			}
		}
	}
	return out
}

// Then is the runner's follow-up rule for answers: when a document's
// leading task is archived (answered, failed or kept from before), its
// other tasks join the queue, for the same model and repeat.
func (a *Answers) Then(res runner.Result) []runner.Job {
	rec := res.Job.Record
	d, ok := a.leads[rec.TaskID]
	if !ok || rec.Kind != transcript.KindTask || rec.Repeat < 0 || rec.Repeat >= a.repeats || !slices.Contains(a.models, rec.Model) {
		return nil
	}
	return a.followers(rec.Model, a.docs[d], rec.Repeat)
}

// followers are the jobs of doc's tasks after its leading one, Counted.
func (a *Answers) followers(m string, doc []*task.Task, r int) []runner.Job {
	var out []runner.Job
	for _, t := range doc[1:] {
		j := a.lazy(m, t, r)
		j.Counted = true
		out = append(out, j)
	}
	return out
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
	budget, _, skip := Budget(t, p)
	req.MaxTokens = budget
	if p.Session {
		req.SessionID = SessionID(runID, m, t.DocumentName)
	}
	if p.Seed != nil {
		req.Seed = new(*p.Seed + int64(r))
	}
	j := runner.Job{Model: m, Request: req, Record: AnswerRecord(m, t, r, prompts, runID), Decode: decoder(t)}
	j.Record.Request = transcript.RequestOf(req)
	if skip != "" {
		j.Skip = skip
	} else if prompt := model.Tokens(len(system) + len(doc) + len(body)); p.Context > 0 && prompt+req.MaxTokens > p.Context {
		j.Skip = fmt.Sprintf("not sent: the prompt (about %d tokens) and the output budget (%d) exceed the model's context of %d tokens", prompt, req.MaxTokens, p.Context)
	}
	return j
}

// decoder is runner.Job.Decode for an answer to t: a patch answer applied
// to the document t gives (a relay step's: the step before's), nil for a
// whole-document answer or a class A answer, read as they are.
func decoder(t *task.Task) func(string) []byte {
	form := formats.Lookup(t.Format)
	if t.Class == task.ClassA || form == nil || form.Whole {
		return nil
	}
	given := t.Source.Bytes
	return func(content string) []byte {
		out, _ := form.Apply(given, content)
		return out
	}
}

// AnswerRecord is the transcript record of model m's answer to task t in
// repeat r before the call, without its request: what names the job and
// its inputs.
func AnswerRecord(m string, t *task.Task, r int, prompts *task.Prompts, runID string) transcript.Transcript {
	return transcript.Transcript{
		Kind: transcript.KindTask, RunID: runID, Model: m, TaskID: t.ID, Class: t.Class, Repeat: r,
		Hashes: transcript.Hashes{Prompt: prompts.TaskHash(t), Task: t.Hash, Document: t.Source.Hash},
	}
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
// before the run, and an answer that brings none (an API error, an answer
// that is not valid) takes its panel's votes off them (progress, when not
// nil), so that a finished run shows done = total. A vote's prompt is rendered when it is started
// (runner.Job.Render); until then it holds of the answer only its ids,
// hashes and content, so that votes waiting for a slower judge do not hold
// prompts or whole transcripts.
func JudgeVotes(set *task.Set, jc judge.Config, progress runner.Progress) func(runner.Result) []runner.Job {
	return func(res runner.Result) []runner.Job {
		a := res.Transcript
		t := set.Task(a.TaskID)
		if a.Kind != transcript.KindTask || t == nil {
			return nil
		}
		voters := jc.Voters(t, a)
		if len(voters) == 0 {
			if t.Class == task.ClassA && progress != nil {
				for _, j := range judge.Panel(a.Model, jc.Gating, jc.Fixed) {
					progress.Add(j, -1) // planned, not asked
				}
			}
			return nil
		}
		answer := &transcript.Transcript{Kind: a.Kind, RunID: a.RunID, Model: a.Model, TaskID: a.TaskID, Class: a.Class, Repeat: a.Repeat,
			Hashes: a.Hashes, Hash: a.Hash, Response: &transcript.Response{Content: a.Response.Content}}
		var out []runner.Job
		for _, j := range voters {
			out = append(out, runner.Job{Model: j, Record: jc.Record(t, answer, j), Counted: true,
				Keep: func(archived *transcript.Transcript) bool { return jc.Current(archived, answer) },
				Render: func(job *runner.Job) {
					c := jc.CallOn(t, answer, j)
					job.Request, job.Record.Request = c.Request, c.Record.Request
				}})
		}
		return out
	}
}
