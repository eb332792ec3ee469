// Package pipeline is the harness's spine: plan → collect → score →
// report. Run plans the jobs of a run (an answer per model, task and
// repeat; a judge vote per class A answer and judge), collects their
// transcripts through the one runner, and hands the run directory to
// Score, the one score phase that rescore calls too. Clients builds every
// model client; nothing else does.
//
// The command (cmd/harness) parses flags and calls these functions; the
// phases, the hash checks and the verdict live here, so they are tested
// without the command.
package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
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
	// in from Conn when the run has online models).
	Inputs transcript.Inputs

	OutDir    string // parent of new run directories
	RunID     string // the new run's directory name (ValidRunID); "" is NewRunID
	ReportDir string // where the reports go

	// Summary prints the whole Markdown report before the verdict.
	Summary bool
	// MaxCost is the spending cap in USD (runner.Budget); 0 is none.
	MaxCost float64
	// Command is how the user runs the harness (e.g. "bin/harness"), for
	// the printed resume command; "" is "harness".
	Command string

	DryRun      bool // preflight, then stop
	NoPreflight bool // skip the model-list check

	HarnessVersion, GitCommit string

	// Now is the clock of the run's start; nil is time.Now.
	Now func() time.Time

	Progress       runner.Progress // nil: none
	Stdout, Stderr io.Writer
}

// JudgeModels returns the class A judges: the fixed list, or with a panel
// the gating models themselves (each judging the others' answers).
func JudgeModels(cfg *config.Config) []string {
	if len(cfg.Judges.Models) > 0 {
		return cfg.Judges.Models
	}
	if cfg.Judges.Panel {
		return slices.Clone(cfg.Models)
	}
	return nil
}

// plan is what a run will do.
type plan struct {
	tasks   []*task.Task
	judges  []string
	clients map[string]model.Client
	online  []string
}

// Result is what a finished run or rescore wrote.
type Result struct {
	RunDir  string
	Passed  bool
	Reports []string // the JSON, Markdown, HTML and CSV reports' paths
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
	det := determinism(p, caps, o.NoPreflight)
	runDir, m, release, err := start(o, p, det)
	if err != nil {
		return nil, err
	}
	defer release()
	known := &transcript.Known{}
	tally, err := collect(ctx, o, p, caps, runDir, m, known)
	if err != nil {
		return nil, err
	}
	if err := finish(runDir, m, tally.AllReused()); err != nil {
		return nil, err
	}
	// The runner kept no transcript: the score phase reads them back, as
	// rescore does, so memory does not grow with the run; what the runner
	// wrote or verified is not hashed again.
	return Score(ScoreOptions{RunDir: runDir, Manifest: m, Config: o.Config, Set: o.Set, ReportDir: o.ReportDir,
		Stdout: o.Stdout, Summary: o.Summary, Known: known,
		Ctx: ctx, Again: ResumeCommand(o.Command, runDir, m.Inputs), Command: o.Command})
}

// preflightStep checks the online models against the provider's listing
// and prints the estimate (preflight), or says what the run will do
// without one.
func preflightStep(ctx context.Context, o Options, p *plan) (*capabilities, error) {
	cfg := o.Config
	for _, why := range o.Set.Skipped {
		fmt.Fprintf(o.Stdout, "run: left out of the suite: %s\n", why)
	}
	if n := o.Inputs.Feedback; n > 0 {
		// Rounds are asked only for answers that fail, so no estimate
		// can count them ahead.
		rounds := "rounds"
		if n == 1 {
			rounds = "round"
		}
		fmt.Fprintf(o.Stdout, "run: up to %d feedback %s per class B/C answer that does not parse, apply or validate; not in the estimate below\n", n, rounds)
	}
	caps := &capabilities{lacking: map[string][]string{}, listed: map[string]model.ModelInfo{}}
	if len(p.online) > 0 && !o.NoPreflight {
		votes := map[string]int{}
		if len(p.judges) > 0 {
			votes = jobs.PlannedVotes(cfg, p.tasks, judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models})
		}
		// The estimate reads the answer jobs as they will be asked, less
		// what the listing decides (parameters): built here for it alone.
		jobs := jobs.NewAnswers(cfg, o.Prompts, p.tasks, nil, "").All()
		return preflight(ctx, p.online, p.clients, jobs, votes, o.Set, fitsOutput(o.Inputs.Suite), o.MaxCost, o.Stdout)
	}
	fmt.Fprintf(o.Stdout, "run: %s × %s × %s = %s\n", count(len(cfg.Models), "model"), count(len(p.tasks), "task"), count(cfg.Repeats, "repeat"),
		count(len(cfg.Models)*len(p.tasks)*cfg.Repeats, "job"))
	if o.MaxCost > 0 {
		fmt.Fprintf(o.Stdout, "run: spending cap $%.2f: without a model listing's prices there is no estimate; only reported costs count against it\n", o.MaxCost)
	}
	if len(p.online) > 0 {
		fmt.Fprintln(o.Stdout, "run: no preflight: temperature and seed are sent to every online model, unchecked")
	}
	if o.DryRun {
		dryRunLines(o, p)
	}
	return caps, nil
}

// dryRunLines prints, for a dry run without a model listing (offline
// models, --no-preflight), each model's jobs and tokens as the preflight
// does: a dry run printed one line where the README promised the table
// (issue 34). Without a listing there are no prices.
func dryRunLines(o Options, p *plan) {
	jobs := jobs.NewAnswers(o.Config, o.Prompts, p.tasks, nil, "").All()
	est := estimate(jobs, o.Set)
	for _, m := range o.Config.Models {
		cost := "no cost (offline)"
		if !offline.IsOffline(m) {
			cost = "cost unknown (no listing's prices without the preflight)"
		}
		e := est[m]
		fmt.Fprintf(o.Stdout, "  %-40s %3d jobs  ~%d prompt + ~%d completion tokens  %s\n", m, e.jobs, e.prompt, e.completion, cost)
	}
}

// count is "1 model", "3 models": n and a noun in its number.
func count(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, report.Plural(n, noun, noun+"s"))
}

// paramsOf returns each answering model's request parameters: what its
// listing honours and, for a suite that fits output budgets to documents,
// the budget and context that go with it.
func paramsOf(o Options, caps *capabilities) map[string]jobs.Params {
	params := map[string]jobs.Params{}
	for _, mod := range o.Config.Models {
		pm := jobs.ParamsFor(o.Config, mod, caps.lacking[mod])
		if fitsOutput(o.Inputs.Suite) {
			// Every answer re-emits a document of up to 512 KB: the output
			// budget follows the document, and a request that cannot fit
			// the model's context is not sent.
			pm.FitOutput, pm.Context = true, caps.listed[mod].ContextLength
		}
		params[mod] = pm
	}
	return params
}

// start makes or reopens the run directory, takes its lock (one writer
// per run directory, from before the manifest records the run to after
// the reports are written), writes the manifest and clears what a killed
// writer left. release drops the lock.
func start(o Options, p *plan, det map[string]transcript.Determinism) (runDir string, m *transcript.Manifest, release func(), err error) {
	release = func() {}
	if o.Resume != nil {
		if release, err = lockRun(o.ResumeDir); err != nil {
			return "", nil, nil, err
		}
	}
	if runDir, m, err = startManifest(o, p, det); err != nil {
		release()
		return "", nil, nil, err
	}
	if o.Resume == nil {
		if release, err = lockRun(runDir); err != nil {
			return "", nil, nil, err
		}
	}
	if err := transcript.RemoveOrphans(runDir); err != nil {
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
	if o.MaxCost > 0 {
		r.Budget = &runner.Budget{Max: o.MaxCost, Estimate: func(j runner.Job) float64 { return jobCost(j, o.Set, caps.listed) }}
	}
	first := follow(o, p, caps, r, m.RunID)
	tally, err := r.Drain(ctx, first)
	resume := ResumeCommand(o.Command, runDir, m.Inputs)
	switch {
	case ctx.Err() != nil:
		return tally, &InterruptedError{RunDir: runDir, Resume: resume}
	case errors.Is(err, runner.ErrBudget):
		return tally, &BudgetError{RunDir: runDir, Spent: tally.Spent, Max: o.MaxCost, Resume: resume + fmt.Sprintf(" --max-cost %s", suggestCap(o.MaxCost))}
	case err != nil:
		// An I/O failure (a full disk): the transcripts written are kept,
		// and the run is resumed as an interrupted one is.
		return tally, fmt.Errorf("%w\nthe transcripts written are kept; when the problem is fixed, resume with\n  %s", err, resume)
	case len(tally.Down) > 0:
		// An API that is down, a bad key, no credit: a report would show
		// a model that was never measured as a model that failed.
		return tally, &DownError{RunDir: runDir, Down: tally.Down, Resume: resume}
	}
	return tally, nil
}

// follow sets the runner's follow-up rules (a document's B and C after its
// A, the next relay step, judge votes), counts the jobs they will add for
// the progress bars, and returns the jobs to start with.
func follow(o Options, p *plan, caps *capabilities, r *runner.Runner, runID string) []runner.Job {
	cfg := o.Config
	params := paramsOf(o, caps)
	var single []*task.Task
	for _, t := range p.tasks {
		if t.Step == 0 {
			single = append(single, t)
		}
	}
	answers := jobs.NewAnswers(cfg, o.Prompts, single, params, runID)
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
		chains := jobs.NewChains(o.Set, o.Prompts, cfg.Models, cfg.Repeats, params, runID).WithProgress(o.Progress)
		if feedback != nil {
			chains.WithFeedback(feedback)
		}
		first = append(first, chains.First()...)
		for mod, n := range chains.Later() {
			later[mod] += n
		}
		r.Then = jobs.Chain(r.Then, chains.Then)
	}
	jc := judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models, Seed: cfg.Request.Seed, Unstructured: caps.unstructured, Lacking: caps.lacking, RunID: runID}
	if len(p.judges) > 0 {
		r.Then = jobs.Chain(r.Then, jobs.JudgeVotes(o.Set, jc))
	}
	if o.Progress != nil {
		for _, mod := range slices.Sorted(maps.Keys(later)) {
			o.Progress.Add(mod, later[mod])
		}
		if len(p.judges) > 0 {
			for j, n := range jobs.PlannedVotes(cfg, p.tasks, jc) {
				o.Progress.Add(j, n)
			}
		}
	}
	return first
}

// finish records the run's end in its manifest. Resuming a finished run
// that asked nothing new (allReused) keeps the first finish, so its report
// stays byte-identical.
func finish(runDir string, m *transcript.Manifest, allReused bool) error {
	previous := m.FinishedAt
	fin := time.Now().UTC()
	m.FinishedAt = &fin
	if previous != nil && allReused {
		m.FinishedAt = previous
	}
	return transcript.WriteManifest(runDir, m)
}

// determinism records, per model (answering and judging), which
// determinism controls its requests carry: from the listing for online
// models, both for the offline models (deterministic by construction),
// both unchecked when the preflight was skipped.
func determinism(p *plan, caps *capabilities, noPreflight bool) map[string]transcript.Determinism {
	out := map[string]transcript.Determinism{}
	for mod := range p.clients {
		d := transcript.Determinism{Source: transcript.DeterminismOffline, Honoured: []string{"temperature", "seed"}, Lacking: []string{}}
		if slices.Contains(p.online, mod) {
			d.Source = transcript.DeterminismListing
			if noPreflight {
				d.Source = transcript.DeterminismUnchecked
			}
			d.Honoured = []string{}
			for _, param := range []string{"temperature", "seed"} {
				if slices.Contains(caps.lacking[mod], param) {
					d.Lacking = append(d.Lacking, param)
				} else {
					d.Honoured = append(d.Honoured, param)
				}
			}
		}
		out[mod] = d
	}
	return out
}

// planRun resolves the run's tasks, judges and clients and checks that
// every class A answer can be judged, before anything is sent.
func planRun(o Options) (*plan, error) {
	cfg := o.Config
	p := &plan{tasks: o.Set.Tasks, judges: JudgeModels(cfg)}
	if m := o.Resume; m != nil {
		if m.CorpusHash != o.Set.Hash() || m.PromptHash != o.Prompts.HashFor(m.Inputs.Formats) {
			return nil, fmt.Errorf("resume: the corpus, tasks or prompts changed since the run started (hashes differ); start a new run")
		}
		p.tasks = nil
		for _, id := range m.TaskIDs {
			if t := o.Set.Task(id); t != nil {
				p.tasks = append(p.tasks, t)
			}
		}
	}
	if err := o.Prompts.CheckFormats(p.tasks); err != nil {
		return nil, err
	}
	if err := CheckJudges(p.judges); err != nil {
		return nil, err
	}
	if err := checkDirs(append(slices.Clone(cfg.Models), p.judges...)); err != nil {
		return nil, err
	}
	if err := checkPanel(cfg, p.judges, p.tasks); err != nil {
		return nil, err
	}
	var err error
	all := append(slices.Clone(cfg.Models), p.judges...)
	if p.clients, p.online, err = o.Conn.Clients(all, o.Set); err != nil {
		return nil, err
	}
	if err := checkSize(len(cfg.Models), len(p.tasks), cfg.Repeats); err != nil {
		return nil, err
	}
	return p, nil
}

// MaxJobs bounds models × tasks × repeats, the count that sizes a run's
// jobs, scores and report rows: a run or a run.json beyond it is refused
// before anything is allocated for it (issue 20: 100,000,000 repeats
// asked for 24 GB at planning, and rescore for 4.3 TB). It is ten times
// the gating suite at config.MaxRepeats.
const MaxJobs = 2_000_000

// checkSize refuses a run whose plan would be larger than MaxJobs.
func checkSize(models, tasks, repeats int) error {
	if repeats < 1 || repeats > config.MaxRepeats {
		return usage.Errorf("repeats: a whole number from 1 to %d, not %d", config.MaxRepeats, repeats)
	}
	if models > MaxJobs || tasks > MaxJobs || models*tasks > MaxJobs/repeats {
		return usage.Errorf("%d models × %d tasks × %d repeats is more than the %d jobs a run may have", models, tasks, repeats, MaxJobs)
	}
	return nil
}

// checkDirs refuses, before any request, two model ids whose transcripts
// would share a directory (transcript.Slug maps both to one name, or names
// that differ only in case, which are one directory on some file
// systems): they would overwrite each other's transcripts and the run
// could never complete.
func checkDirs(models []string) error {
	seen := map[string]string{}
	for _, m := range models {
		dir := strings.ToLower(transcript.Slug(m))
		if other, ok := seen[dir]; ok && other != m {
			return usage.Errorf("models %q and %q would share the transcript directory %q; run them separately", other, m, transcript.Slug(m))
		}
		seen[dir] = m
	}
	return nil
}

// checkPanel refuses, before any request, a run whose class A answers
// would go unjudged: judges are configured, but for some answering model
// none is another model (the default panel with a single model).
func checkPanel(cfg *config.Config, judges []string, tasks []*task.Task) error {
	if len(judges) == 0 || !slices.ContainsFunc(tasks, func(t *task.Task) bool { return t.Class == task.ClassA }) {
		return nil
	}
	for _, m := range cfg.Models {
		if len(judge.Panel(m, cfg.Models, cfg.Judges.Models)) == 0 {
			return usage.Errorf("no judge other than %s itself could judge its class A answers: pass --judges with another model (offline: --judges %s)", m, judge.OfflineJudge)
		}
	}
	return nil
}

// startManifest creates the run directory and its manifest, or records a
// resume in the existing one.
func startManifest(o Options, p *plan, det map[string]transcript.Determinism) (string, *transcript.Manifest, error) {
	cfg := o.Config
	now := time.Now().UTC()
	if o.Now != nil {
		now = o.Now().UTC()
	}
	if m := o.Resume; m != nil {
		m.ResumedAt = append(m.ResumedAt, now)
		m.Determinism = det
		finished := m.FinishedAt
		m.FinishedAt = nil
		err := transcript.WriteManifest(o.ResumeDir, m)
		m.FinishedAt = finished
		return o.ResumeDir, m, err
	}
	id := o.RunID
	switch {
	case id == "":
		id = freeRunID(o.OutDir, now)
	case !ValidRunID(id):
		return "", nil, usage.Errorf("run id %q is not one path element of letters, digits, '.', '-' and '_'", id)
	}
	runDir := filepath.Join(o.OutDir, id)
	if _, err := os.Stat(runDir); err == nil {
		return "", nil, usage.Errorf("run: %s exists; use --resume %s or another --run-id", runDir, runDir)
	}
	ids := make([]string, len(p.tasks))
	for i, t := range p.tasks {
		ids[i] = t.ID
	}
	dirs := map[string]string{}
	for _, mod := range append(slices.Clone(cfg.Models), p.judges...) {
		dirs[mod] = transcript.Slug(mod)
	}
	m := &transcript.Manifest{
		RunID: id, HarnessVersion: o.HarnessVersion, GitCommit: o.GitCommit,
		Models: cfg.Models, Judges: p.judges, ModelDirs: dirs, Repeats: cfg.Repeats, Seed: cfg.Request.Seed,
		TaskIDs: ids, CorpusHash: o.Set.Hash(), PromptHash: o.Prompts.HashFor(o.Inputs.Formats),
		ConfigHash: cfg.Hash(), Config: cfg.JSON(), Inputs: o.Inputs, Determinism: det, StartedAt: now,
	}
	m.Inputs.BaseURL = ""
	if len(p.online) > 0 {
		m.Inputs.BaseURL = o.Conn.baseURL()
	}
	return runDir, m, transcript.WriteManifest(runDir, m)
}

// DefaultReportDir is the reports directory when --reports is not given.
const DefaultReportDir = "reports"

// fitsOutput reports whether the suite of a name fits a B/C answer's
// output budget to its document (suites.Suite.FitsOutput).
func fitsOutput(name string) bool {
	s, err := suites.Lookup(name)
	return err == nil && s.FitsOutput
}

// ResumeCommand is the command line that resumes the run in runDir. A
// resume sends requests (and the key) only to the API root its own
// command line or environment names: run.json's record of it is checked
// against that, never trusted alone. So the command names the run's API
// root when it is not OpenRouter's.
func ResumeCommand(command, runDir string, in transcript.Inputs) string {
	cmd := cmp.Or(command, "harness") + " run --resume " + runDir
	if in.BaseURL != "" && in.BaseURL != model.DefaultBaseURL {
		cmd += " --base-url " + in.BaseURL
	}
	return cmd
}

// SelfCommand is the command that runs this binary again from the same
// directory, given its os.Args[0]: the path as typed (bin/harness,
// ./harness, a name on PATH), or "go run ./cmd/harness" for a binary go
// run built in a temporary directory (deleted when it exits).
func SelfCommand(arg0 string) string {
	switch {
	case arg0 == "":
		return "harness"
	case strings.Contains(arg0, "go-build"):
		return "go run ./cmd/harness"
	}
	return arg0
}

// ValidRunID reports whether id can name a run directory and its reports
// (transcript.ValidRunID: the one rule, for flags and files alike).
func ValidRunID(id string) bool { return transcript.ValidRunID(id) }

// NewRunID is the default run id: the UTC start time to the millisecond
// and four random hex digits, so that runs started in the same second do
// not collide and ids still sort by start time.
func NewRunID(now time.Time) string {
	return fmt.Sprintf("%s-%04x", now.UTC().Format("20060102T150405.000Z"), rand.IntN(1<<16))
}

// freeRunID draws default run ids until one names no existing run: two
// runs started in the same millisecond get different ids.
func freeRunID(outDir string, now time.Time) string {
	id := NewRunID(now)
	for range 16 {
		if _, err := os.Stat(filepath.Join(outDir, id)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		id = NewRunID(now)
	}
	return id
}

// suggestCap is the cap a resume after a capped run suggests: twice the
// old one, which the user may change.
func suggestCap(old float64) string {
	return strconv.FormatFloat(2*old, 'f', -1, 64)
}
