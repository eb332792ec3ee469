package pipeline

import (
	"maps"
	"slices"

	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
)

// schedule is the order of a run's jobs, phase by phase: what each
// phase asks and what its jobs wait for. Each phase that applies to the
// run adds its follow-up rule to the runner, in this order (the order in
// which a finished job's follow-ups are started), its first jobs, and the
// jobs it will add for the progress bars. The score phase waits for every
// job: it starts when the runner has drained (Run, Score).
var schedule = []phase{
	{"answers", "a document's class A answer first; its B and C wait for it", nil, scheduleAnswers},
	{"feedback rounds", "an answer or relay step that did not parse, apply or validate (--feedback)",
		func(o Options, _ *plan) bool { return o.Inputs.Feedback > 0 }, scheduleFeedback},
	{"relay steps", "the model's own previous step of the chain, after its feedback rounds",
		func(o Options, _ *plan) bool { return chained(o.Set) }, scheduleChains},
	{"judge votes", "the class A answer they judge, as it is archived",
		func(_ Options, p *plan) bool { return len(p.judges) > 0 }, scheduleVotes},
}

// phase is one phase of the schedule: its name, what its jobs wait for,
// whether the run has it (nil: always) and how it is added.
type phase struct {
	name, waitsFor string
	applies        func(Options, *plan) bool
	add            func(*scheduling)
}

// scheduling is the schedule being set on one runner: the run, the
// jobs to start with, and the jobs the rules will add, per model.
type scheduling struct {
	o        Options
	p        *plan
	caps     *capabilities
	r        *runner.Runner
	runID    string
	params   map[string]jobs.Params
	feedback *jobs.Feedback
	first    []runner.Job
	later    map[string]int
}

// follow sets the runner's follow-up rules by the schedule, counts the
// jobs they will add for the progress bars, and returns the jobs to start
// with.
func follow(o Options, p *plan, caps *capabilities, r *runner.Runner, runID string) []runner.Job {
	s := &scheduling{o: o, p: p, caps: caps, r: r, runID: runID, params: paramsOf(o, p, caps), later: map[string]int{}}
	for _, ph := range schedule {
		if ph.applies == nil || ph.applies(o, p) {
			ph.add(s)
		}
	}
	if o.Progress != nil {
		countLater(o, p, judgeConfig(o, caps, runID), s.later)
	}
	return s.first
}

// scheduleAnswers starts every task asked on its own, a document's B and
// C after its A.
func scheduleAnswers(s *scheduling) {
	answers := jobs.NewAnswers(s.o.Config, s.o.Prompts, singleTasks(s.p.tasks), s.params, s.runID)
	s.first = answers.First()
	for _, j := range answers.Later() {
		s.later[j.Model]++
	}
	s.r.Then = answers.Then
}

// scheduleFeedback asks a failed answer again in its conversation. Rounds
// are asked as answers fail, so none is counted ahead.
func scheduleFeedback(s *scheduling) {
	s.feedback = jobs.NewFeedback(s.o.Set, s.o.Inputs.Feedback, s.params, scoring.Check)
	s.r.Then = jobs.Chain(s.r.Then, s.feedback.Then)
}

// scheduleVotes asks each judge's vote on each class A answer.
func scheduleVotes(s *scheduling) {
	s.r.Then = jobs.Chain(s.r.Then, jobs.JudgeVotes(s.o.Set, judgeConfig(s.o, s.caps, s.runID), s.o.Progress))
}

// judgeConfig is how the run's judges are asked. A judge without a policy
// (--no-preflight: no listing to decide one from) still gets an output
// budget: a vote's answer and a medium reasoning allowance, since
// reasoning may be on by default (issue 43: judges were sent with no
// budget at all).
func judgeConfig(o Options, caps *capabilities, runID string) judge.Config {
	cfg := o.Config
	return judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models, Seed: cfg.Request.Seed, Unstructured: caps.unstructured, Lacking: caps.lacking, RunID: runID, Policies: caps.policies,
		MaxTokens: NoPolicyJudgeTokens}
}

// singleTasks are the tasks asked on their own: every task but the steps
// of relay chains.
func singleTasks(tasks []*task.Task) []*task.Task {
	var single []*task.Task
	for _, t := range tasks {
		if t.Step == 0 {
			single = append(single, t)
		}
	}
	return single
}

// scheduleChains adds the relay chains' rule (each step after the
// model's own previous answer, with feedback rounds when asked), counts
// their later steps, and starts their first steps.
func scheduleChains(s *scheduling) {
	chains := jobs.NewChains(s.o.Set, s.o.Prompts, s.o.Config.Models, s.o.Config.Repeats, s.params, s.runID).WithProgress(s.o.Progress)
	if s.feedback != nil {
		chains.WithFeedback(s.feedback)
	}
	for mod, n := range chains.Later() {
		s.later[mod] += n
	}
	s.r.Then = jobs.Chain(s.r.Then, chains.Then)
	s.first = append(s.first, chains.First()...)
}

// countLater tells the progress bars the jobs the rules will add: later
// answers and relay steps per model, in model order, then the judges'
// votes.
func countLater(o Options, p *plan, jc judge.Config, later map[string]int) {
	for _, mod := range slices.Sorted(maps.Keys(later)) {
		o.Progress.Add(mod, later[mod])
	}
	if len(p.judges) > 0 {
		for j, n := range jobs.PlannedVotes(o.Config, p.tasks, jc) {
			o.Progress.Add(j, n)
		}
	}
}
