// Package pipeline is the harness's spine: plan → collect → score →
// report. Run plans the jobs of a run (an answer per model, task and
// repeat; a judge vote per class A answer and judge), collects their
// transcripts through the one runner, and hands the run directory to
// Score, the one score phase that rescore calls too. Clients builds every
// model client; nothing else does.
//
// The pipeline takes resolved options only: the command (cmd/harness)
// parses and checks the flags, reads the environment (the API key, the
// API root), the git commit and the configuration file it names, and
// routes stdout and stderr; it then calls these functions with values
// and writers. The phases, the hash checks and the verdict live here, so
// they are tested without the command.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
)

// Options is one harness run.
type Options struct {
	// Config is the effective configuration, flags applied. When resuming
	// it is the manifest's (ReadRun), with the caller's concurrency.
	Config  *config.Config
	Set     *task.Set
	Prompts *task.Prompts
	Conn    Connection

	// Resume, when not nil, is the manifest of the run in ResumeDir to
	// finish; its models, tasks and configuration are the run's.
	Resume    *transcript.Manifest
	ResumeDir string

	// Inputs are recorded in a new run's manifest (its BaseURL is filled
	// in from Conn when the run has online models), and are the one home
	// of what they hold: the reports' directory, the spending cap (USD,
	// runner.Budget; 0 is none) and whether the model-list check is
	// skipped are read from here, never copied beside it.
	Inputs transcript.Inputs

	OutDir string // parent of new run directories
	RunID  string // the new run's directory name (ValidRunID); "" is NewRunID

	// Summary prints the whole Markdown report before the verdict.
	Summary bool
	// Command is how the user runs the harness (e.g. "bin/harness"), for
	// the printed resume command; "" is "harness".
	Command string

	DryRun bool // preflight, then stop

	HarnessVersion, GitCommit string

	// SealKey, when set ($HARNESS_SEAL_KEY), seals the run's archive when
	// its requests are done (Seal); a run without one is unsealed, and a
	// seal a resume would make stale is removed.
	SealKey []byte

	// Now is the run's clock: its start, each resume and its finish are
	// read from it; nil is time.Now.
	Now func() time.Time

	Progress runner.Progress // nil: none
	// Stdout receives the run's notes (the estimate, the run directory)
	// and, at the end, the verdict and the reports' paths (Score).
	Stdout io.Writer
}

// Result is what a finished run or rescore wrote.
type Result struct {
	RunDir  string
	Passed  bool
	Reports []string // the JSON, Markdown, HTML and CSV reports' paths
	// Report is the report those files were written from: a caller that
	// prints it (--format json) writes it, never reads it back.
	Report *report.Report
}

// Run carries out one harness run in named steps: plan (tasks, judges,
// clients, every check that needs no request), preflight (the model
// listing, the estimate; a dry run stops after it), start (the run
// directory, its lock and manifest), collect (answers, relay steps and
// judge votes through one runner), finish (the manifest's end) and score
// (Score, as rescore does). A failing verdict returns the result with
// ErrVerdictFail; an interrupted run returns an *InterruptedError, a run
// that could not reach a model a *DownError.
func Run(ctx context.Context, o Options) (*Result, error) {
	p, err := planRun(o)
	if err != nil {
		return nil, err
	}
	caps, err := preflightStep(ctx, o, p)
	if err != nil || o.DryRun {
		return nil, err
	}
	det := determinism(p, caps, o.Inputs.NoPreflight)
	runDir, m, release, err := start(o, p, det, policies(caps))
	if err != nil {
		return nil, err
	}
	defer release()
	known := &transcript.Known{}
	tally, err := collect(ctx, o, p, caps, runDir, m, known)
	if err != nil {
		return nil, err
	}
	if err := finish(o, runDir, m, tally.AllReused()); err != nil {
		return nil, err
	}
	integrity, err := seal(runDir, o.SealKey)
	if err != nil {
		return nil, err
	}
	// The runner kept no transcript: the score phase reads them back, as
	// rescore does, so memory does not grow with the run; what the runner
	// wrote or verified is not hashed again.
	return Score(ScoreOptions{RunDir: runDir, Manifest: m, Config: o.Config, Set: o.Set, ReportDir: o.Inputs.ReportDir,
		Stdout: o.Stdout, Summary: o.Summary, Known: known, Integrity: integrity,
		Ctx: ctx, Again: ResumeCommand(o.Command, runDir, m.Inputs), Command: o.Command})
}

// start makes or reopens the run directory, takes its lock (one writer
// per run directory, from before the manifest records the run to after
// the reports are written), writes the manifest and clears what a killed
// writer left. release drops the lock.
func start(o Options, p *plan, det map[string]transcript.Determinism, pol map[string]transcript.ModelPolicy) (runDir string, m *transcript.Manifest, release func(), err error) {
	release = func() {}
	if o.Resume != nil {
		if release, err = lockRun(o.ResumeDir); err != nil {
			return "", nil, nil, err
		}
		// A resume with the key re-seals the run: it first checks the
		// seal it would replace, so that it cannot seal an edited archive
		// as the run's own.
		if len(o.SealKey) > 0 {
			if _, err := CheckSeal(o.ResumeDir, o.SealKey); err != nil {
				release()
				return "", nil, nil, fmt.Errorf("resume: %w", err)
			}
		}
	}
	if runDir, m, err = startManifest(o, p, det, pol); err != nil {
		release()
		return "", nil, nil, err
	}
	if o.Resume == nil {
		if release, err = lockRun(runDir); err != nil {
			return "", nil, nil, err
		}
	}
	if err := atomicfile.RemoveOrphans(runDir); err != nil {
		release()
		return "", nil, nil, err
	}
	fmt.Fprintf(o.Stdout, "run: %s\n", runDir)
	return runDir, m, release, nil
}

// collect asks every job through one runner: each task once, a document's
// class A first; relay steps along their chains, each with the model's own
// previous answer; a judge vote for each class A answer as it is archived.
// An interruption, the spending cap or an I/O failure ends it with the
// command that resumes the run. The runner keeps no transcript
// (runner.Drain): it returns how the jobs ended, and known receives the
// hashes of the transcripts it wrote or verified.
func collect(ctx context.Context, o Options, p *plan, caps *capabilities, runDir string, m *transcript.Manifest, known *transcript.Known) (runner.Tally, error) {
	cfg := o.Config
	r := &runner.Runner{
		Clients: p.clients, Dir: runDir,
		PerModel: cfg.Concurrency.PerModel, Global: cfg.Concurrency.Global, JobTimeout: cfg.Timeouts.Job.Duration,
		Progress: o.Progress, Known: known,
	}
	if key := o.Conn.APIKey; key != "" {
		r.Secret = func(s string) bool { return model.SpellsKey(s, key) }
	}
	if o.Inputs.MaxCost > 0 {
		r.Budget = &runner.Budget{Max: o.Inputs.MaxCost, Estimate: func(j runner.Job) float64 { return jobCost(j, o.Set, caps) }}
	}
	first := follow(o, p, caps, r, m.RunID)
	tally, err := r.Drain(ctx, first)
	reasked(o.Stdout, tally.Reasked)
	if len(p.online) > 0 && ctx.Err() == nil {
		if g, ok := p.clients[p.online[0]].(Generations); ok {
			reconcileAtEnd(ctx, o.Stdout, runDir, g)
		}
	}
	resume := ResumeCommand(o.Command, runDir, m.Inputs)
	switch {
	case ctx.Err() != nil:
		return tally, &InterruptedError{RunDir: runDir, Resume: resume}
	case errors.Is(err, runner.ErrBudget):
		left := leftCost(o, p, caps, runDir)
		return tally, &BudgetError{RunDir: runDir, Spent: tally.Spent, Max: o.Inputs.MaxCost, Left: left, Unpriced: tally.Unpriced,
			Resume: resume + fmt.Sprintf(" --max-cost %s", suggestCap(tally.Spent, left, o.Inputs.MaxCost))}
	case err != nil:
		// An I/O failure (a full disk): the transcripts written are kept,
		// and the run is resumed as an interrupted one is.
		return tally, fmt.Errorf("%w\nthe transcripts written are kept; when the problem is fixed, resume with\n  %s", err, resume)
	case len(tally.Down) > 0:
		// An API that is down, a bad key, no credit: a report would show
		// a model that was never measured as a model that failed.
		return tally, &DownError{RunDir: runDir, Down: tally.Down, Resume: resume}
	case len(tally.Resumable) > 0:
		// Out of credit mid-run, rate limits that outlasted the retries:
		// a resume finishes the run once the cause is gone, paying
		// nothing twice.
		return tally, &StoppedError{RunDir: runDir, Causes: tally.Resumable, Resume: resume}
	}
	return tally, nil
}

// follow sets the runner's follow-up rules (a document's B and C after its
// A, the next relay step, judge votes), counts the jobs they will add for
// the progress bars, and returns the jobs to start with.
func follow(o Options, p *plan, caps *capabilities, r *runner.Runner, runID string) []runner.Job {
	cfg := o.Config
	params := paramsOf(o, p, caps)
	answers := jobs.NewAnswers(cfg, o.Prompts, singleTasks(p.tasks), params, runID)
	first, later := answers.First(), map[string]int{}
	for _, j := range answers.Later() {
		later[j.Model]++
	}
	r.Then = answers.Then
	var feedback *jobs.Feedback
	if n := o.Inputs.Feedback; n > 0 {
		// Rounds are asked as answers fail, so none is counted ahead.
		feedback = jobs.NewFeedback(o.Set, n, params, scoring.Check)
		r.Then = jobs.Chain(r.Then, feedback.Then)
	}
	if chained(o.Set) {
		first = append(first, followChains(o, r, params, feedback, runID, later)...)
	}
	// A judge without a policy (--no-preflight: no listing to decide one
	// from) still gets an output budget: a vote's answer and a medium
	// reasoning allowance, since reasoning may be on by default (issue 43:
	// judges were sent with no budget at all).
	jc := judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models, Seed: cfg.Request.Seed, Unstructured: caps.unstructured, Lacking: caps.lacking, RunID: runID, Policies: caps.policies,
		MaxTokens: NoPolicyJudgeTokens}
	if len(p.judges) > 0 {
		r.Then = jobs.Chain(r.Then, jobs.JudgeVotes(o.Set, jc, o.Progress))
	}
	if o.Progress != nil {
		countLater(o, p, jc, later)
	}
	return first
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

// followChains adds the relay chains' rule to r (each step after the
// model's own previous answer, with feedback rounds when asked), counts
// their later steps in later, and returns their first steps.
func followChains(o Options, r *runner.Runner, params map[string]jobs.Params, feedback *jobs.Feedback, runID string, later map[string]int) []runner.Job {
	chains := jobs.NewChains(o.Set, o.Prompts, o.Config.Models, o.Config.Repeats, params, runID).WithProgress(o.Progress)
	if feedback != nil {
		chains.WithFeedback(feedback)
	}
	for mod, n := range chains.Later() {
		later[mod] += n
	}
	r.Then = jobs.Chain(r.Then, chains.Then)
	return chains.First()
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

// DefaultReportDir is the reports directory when --reports is not given.
const DefaultReportDir = "reports"

// reasked says which jobs a resume asked again although an interrupted
// attempt of each may have been paid (docs/interpretations.md: "A resume
// asks an interrupted job again, and says so"): OpenRouter bills what a
// stream generated before it was closed, so the run paid for those jobs
// twice, and its known cost does not count the first time.
func reasked(w io.Writer, jobs []runner.Reask) {
	if len(jobs) == 0 {
		return
	}
	fmt.Fprintf(w, "asked again: %d %s whose interrupted attempt may have been paid (its transcript is kept as .superseded-N; `harness runs --reconcile` prices it):\n",
		len(jobs), unit.Plural(len(jobs), "job", "jobs"))
	for _, j := range jobs {
		fmt.Fprintf(w, "  %s (%s)\n", j.Path, strings.Join(j.IDs, ", "))
	}
}

// NoPolicyJudgeTokens is the output budget of a judge vote sent without a
// request policy (no listing was read): model.JudgeAnswerTokens plus the
// medium reasoning allowance, what a policy gives a judge whose listing
// turns reasoning on without an effort.
var NoPolicyJudgeTokens = model.JudgeAnswerTokens + model.ReasoningAllowance(&model.ReasoningPrefs{Enabled: new(true)})
