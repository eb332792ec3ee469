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
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
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

	// Inputs are recorded in a new run's manifest, and are the one home
	// of what they hold: the reports' directory, the spending cap (USD,
	// runner.Budget; 0 is none) and whether the model-list check is
	// skipped are read from here, never copied beside it. Their BaseURL
	// is the manifest's alone: where requests go is Conn.BaseURL, and a
	// new run's manifest records it from there (an offline run records
	// none); a resume's Inputs carry the recorded one, which nothing
	// here reads.
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
	defer softMemoryLimit()() // the collector's headroom, as in Score (issue 55)
	p, err := planRun(o)
	if err != nil {
		return nil, err
	}
	caps, err := preflight(ctx, o, p)
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
		return nil, sealStopped(runDir, o.SealKey, err)
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
	return Score(ScoreOptions{RunDir: runDir, Manifest: m, Config: o.Config, Set: o.Set,
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
		} else if sealedRun(o.ResumeDir, o.Resume) {
			// Without the key the resume could not re-seal what it
			// adds, and the run would lose its seal (issue 53).
			release()
			return "", nil, nil, fmt.Errorf("resume: %w: a resume adds transcripts, which would break the seal, and only the key can re-seal it; set %s to resume the run (its seal is verified first)",
				ErrSealedNoKey, SealKeyEnv)
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
			reconcileAtEnd(ctx, o.Stdout, runDir, g, cfg.Timeouts.ReconcileTimeout())
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

// DefaultReportDir is the reports directory when --reports is not given.
const DefaultReportDir = "reports"

// reportDir is where a run's reports go: its recorded directory, or the
// default for a manifest from before it was recorded.
func reportDir(in transcript.Inputs) string { return cmp.Or(in.ReportDir, DefaultReportDir) }

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
