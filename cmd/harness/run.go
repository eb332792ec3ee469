package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/relay"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// runOptions are the flags of harness run.
type runOptions struct {
	configFile, reports, baseURL, corpusDir, taskDir                                             *string
	models, judges, out, resume, runID, progressMode, suite, rungs, tasks, classes, docs, format string
	repeats, perModel, global, steps, limit                                                      int
	seed                                                                                         int64
	maxCost                                                                                      float64
	dryRun, noPreflight, summary                                                                 bool
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := newFlagSet("run", "run [--config FILE] [--models a,b,c] [--judges a,b] [--tasks IDS] [--max-cost USD] [--out DIR] [--resume DIR] [--dry-run]", `
		harness run                                   # the gating run (needs OPENROUTER_API_KEY)
		harness run --dry-run --max-cost 20           # preflight: check models, print size and cost against the cap, stop
		harness run --tasks '03-b,17-*' --summary     # task 03-b and document 17's tasks (a partial run), the Markdown printed too
		harness run --models offline/oracle,offline/identity,offline/noisy --judges offline/judge
		harness run --resume runs/20261122T101500Z    # finish an interrupted run
		OPENROUTER_BASE_URL=http://localhost:8000/v1 harness run --models my-model --no-preflight`, stderr)
	o.configFile = configFlag(fs, "models, judges, parameters, concurrency, timeouts, retries, thresholds, weights")
	fs.StringVar(&o.models, "models", "", "comma-separated models instead of the configured ones (informational runs)")
	fs.StringVar(&o.judges, "judges", "", "comma-separated judge models instead of the configured panel")
	fs.IntVar(&o.repeats, "repeats", 0, "runs per (model, task), at least 1 (default: the configuration's)")
	fs.Int64Var(&o.seed, "seed", 0, "base seed; repeat r uses seed+r (default: the configuration's)")
	fs.StringVar(&o.out, "out", "runs", "directory of run directories")
	o.reports = reportsFlag(fs, "reports", " (a resume uses the run's, and says so)")
	fs.StringVar(&o.resume, "resume", "", "resume the run in this directory, requesting only jobs without a successful transcript")
	fs.StringVar(&o.runID, "run-id", "", "name of the new run directory: letters, digits, '.', '-', '_' (default: the UTC start time to the millisecond and a random suffix)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the models and print the run's size and estimated cost, then stop")
	fs.BoolVar(&o.noPreflight, "no-preflight", false, "skip the model-list check (for servers without /models)")
	o.baseURL = baseURLFlag(fs, "; a resume must name the run's own, or is refused")
	o.corpusDir, o.taskDir = corpusFlag(fs, "corpus"), instructionsFlag(fs, "instructions")
	fs.IntVar(&o.perModel, "per-model", 0, "requests in flight per model, at least 1 (default: the configuration's)")
	fs.IntVar(&o.global, "global", 0, "requests in flight in all, at least 1 (default: the configuration's)")
	fs.StringVar(&o.progressMode, "progress", "auto", "progress output: auto (bars on a terminal), bars, lines or none")
	fs.StringVar(&o.suite, "suite", suites.Gating, suiteHelp())
	fs.StringVar(&o.rungs, "rungs", "", "size suite: the rungs to run, e.g. 8k,32k,128k (default 8k,32k,128k,512k)")
	fs.IntVar(&o.steps, "steps", 0, "relay suite: steps per chain, at least 1 (default 8: B, C, C⁻¹, B⁻¹ twice)")
	fs.StringVar(&o.tasks, "tasks", "", "run only these tasks: ids and globs, e.g. 03-b,17-* (a partial run: never the gating verdict pass)")
	fs.StringVar(&o.classes, "classes", "", "run only these classes, e.g. b,c (a partial run)")
	fs.StringVar(&o.docs, "docs", "", "run only the tasks of these documents: numbers, names or globs, e.g. 03,17 (a partial run)")
	fs.IntVar(&o.limit, "limit", 0, "run at most N tasks of the selection, in id order; a relay chain counts as one (a partial run)")
	fs.Float64Var(&o.maxCost, "max-cost", 0, "spending cap in USD: no new request once the known cost plus the estimate of the requests in flight reaches it (default: the configuration's max_cost, else none)")
	fs.BoolVar(&o.summary, "summary", false, "also print the full Markdown report (it is always written to the reports directory)")
	fs.StringVar(&o.format, "format", "text", "what to print on stdout: text (progress notes and the verdict) or json (the JSON report; notes go to stderr)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("run: unexpected arguments %q (flags go before them; run -h for help)", fs.Args())
	}
	given := map[string]string{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = f.Value.String() })
	if err := checkRunFlags(o, given); err != nil {
		return err
	}
	if o.resume != "" {
		return resumeRun(ctx, o, given, stdout, stderr)
	}
	return newRun(ctx, o, given, stdout, stderr)
}

// checkRunFlags refuses flag values that cannot mean anything, naming the
// flag and what it takes, instead of running with a default.
func checkRunFlags(o runOptions, flags map[string]string) error {
	given := func(name string) bool { _, ok := flags[name]; return ok }
	switch {
	case given("repeats") && (o.repeats < 1 || o.repeats > config.MaxRepeats):
		return usageError("run: --repeats takes a whole number from 1 to %d, not %d", config.MaxRepeats, o.repeats)
	case given("per-model") && o.perModel < 1:
		return usageError("run: --per-model takes a whole number of at least 1, not %d", o.perModel)
	case given("global") && o.global < 1:
		return usageError("run: --global takes a whole number of at least 1, not %d", o.global)
	case !slices.Contains(runner.ProgressModes, o.progressMode):
		return usageError("run: --progress takes auto, bars, lines or none, not %q", o.progressMode)
	case given("models") && len(splitList(o.models)) == 0:
		return usageError("run: --models takes a comma-separated list of models, not %q", o.models)
	case given("judges") && len(splitList(o.judges)) == 0:
		return usageError("run: --judges takes a comma-separated list of models, not %q", o.judges)
	case given("run-id") && !pipeline.ValidRunID(o.runID):
		return usageError("run: --run-id takes one path element of letters, digits, '.', '-' and '_', not %q", o.runID)
	case !slices.Contains(suites.Names(), o.suite):
		return usageError("run: --suite takes %s, not %q", strings.Join(suites.Names(), " or "), o.suite)
	case given("rungs") && !slices.Contains(suites.UsingFlag("rungs"), o.suite):
		return usageError("run: --rungs goes with --suite %s", strings.Join(suites.UsingFlag("rungs"), " or "))
	case given("steps") && !slices.Contains(suites.UsingFlag("steps"), o.suite):
		return usageError("run: --steps goes with --suite %s", strings.Join(suites.UsingFlag("steps"), " or "))
	case given("steps") && (o.steps < 1 || o.steps > relay.MaxSteps):
		return usageError("run: --steps takes a whole number from 1 to %d, not %d", relay.MaxSteps, o.steps)
	case given("resume") && given("run-id"):
		return usageError("run: --resume names the run; --run-id is for a new run")
	case given("limit") && o.limit < 1:
		return usageError("run: --limit takes a whole number of at least 1, not %d", o.limit)
	case given("max-cost") && (!(o.maxCost > 0) || math.IsInf(o.maxCost, 0)):
		return usageError("run: --max-cost takes a positive number of US dollars, not %v", o.maxCost)
	case o.format != "text" && o.format != "json":
		return usageError("run: --format takes text or json, not %q", o.format)
	case given("resume") && (given("tasks") || given("classes") || given("docs") || given("limit")):
		return usageError("resume: the run's selection is in its manifest; --tasks, --classes, --docs and --limit are for a new run")
	}
	return nil
}

// selection is the run's selection from the flags; nil when none is given.
func selection(o runOptions) *transcript.Selection {
	sel := &transcript.Selection{Tasks: splitList(o.tasks), Classes: splitList(o.classes), Docs: splitList(o.docs), Limit: o.limit}
	if len(sel.Tasks)+len(sel.Classes)+len(sel.Docs) == 0 && sel.Limit == 0 {
		return nil
	}
	return sel
}

// suiteHelp is the --suite flag's help, from the suite table.
func suiteHelp() string {
	var parts []string
	for _, s := range suites.Table {
		parts = append(parts, fmt.Sprintf("%s (%s)", s.Name, s.Help))
	}
	return "task suite: " + strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

// newRun starts a run from the configuration and the flags given.
func newRun(ctx context.Context, o runOptions, given map[string]string, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(*o.configFile)
	if err != nil {
		return err
	}
	has := func(name string) bool { _, ok := given[name]; return ok }
	if has("models") {
		cfg.Models = splitList(o.models)
	}
	if has("judges") {
		cfg.Judges = config.Judges{Models: splitList(o.judges)}
	}
	if has("seed") { // 0 is a seed
		cfg.Request.Seed = o.seed
	}
	cfg.Repeats = cmp.Or(o.repeats, cfg.Repeats) // given, it is at least 1
	inputs := transcript.Inputs{BaseURL: *o.baseURL, CorpusDir: *o.corpusDir, InstructionsDir: *o.taskDir, ReportDir: *o.reports,
		Suite: o.suite, Rungs: splitList(o.rungs), Steps: o.steps, Selection: selection(o), NoPreflight: o.noPreflight, MaxCost: cfg.MaxCost}
	inputs.MaxCost = cmp.Or(o.maxCost, inputs.MaxCost)
	return startRun(ctx, o, cfg, nil, inputs, stdout, stderr)
}

// resumeRun continues the run in o.resume with everything its manifest
// recorded (pipeline.Resume); only the spending cap, concurrency and
// progress may change.
func resumeRun(ctx context.Context, o runOptions, given map[string]string, stdout, stderr io.Writer) error {
	url := cmp.Or(*o.baseURL, model.BaseURLFromEnv())
	m, cfg, in, err := pipeline.Resume(pipeline.ResumeRequest{Dir: o.resume, Flags: given, BaseURL: url, Command: commandName, Notes: stdout})
	if err != nil {
		return err
	}
	if _, ok := given["max-cost"]; ok {
		// A capped run resumes with a higher cap; the manifest keeps it.
		in.MaxCost, m.Inputs.MaxCost = o.maxCost, o.maxCost
	}
	*o.corpusDir, *o.taskDir, *o.reports, o.noPreflight, *o.baseURL = in.CorpusDir, in.InstructionsDir, in.ReportDir, in.NoPreflight, url
	return startRun(ctx, o, cfg, m, in, stdout, stderr)
}

// startRun applies the concurrency flags, loads the tasks and hands the
// run to the pipeline.
func startRun(ctx context.Context, o runOptions, cfg *config.Config, m *transcript.Manifest, inputs transcript.Inputs, stdout, stderr io.Writer) error {
	cfg.Concurrency.PerModel = cmp.Or(o.perModel, cfg.Concurrency.PerModel)
	cfg.Concurrency.Global = cmp.Or(o.global, cfg.Concurrency.Global)
	if err := cfg.Validate(); err != nil {
		return err
	}
	corpusSet, prompts, err := loadTasks(*o.corpusDir, *o.taskDir)
	if err != nil {
		return err
	}
	set, err := pipeline.SuiteSet(corpusSet, inputs)
	if err != nil {
		return pipelineError(err, stderr)
	}
	notes := stdout
	if o.format == "json" {
		notes = stderr // stdout holds the JSON report alone
	}
	key, err := model.APIKeyFromEnv()
	if err != nil {
		return err
	}
	res, err := pipeline.Run(ctx, pipeline.Options{
		Config: cfg, Set: set, Prompts: prompts,
		Conn:   pipeline.ConnectionFrom(cfg, *o.baseURL, key),
		Resume: m, ResumeDir: o.resume, Inputs: inputs,
		OutDir: o.out, RunID: o.runID, ReportDir: *o.reports,
		DryRun: o.dryRun, NoPreflight: o.noPreflight,
		MaxCost: inputs.MaxCost, Summary: o.summary, Command: commandName,
		HarnessVersion: Version, GitCommit: pipeline.GitCommit(),
		Progress: runner.ProgressFor(o.progressMode, stderr),
		Stdout:   notes, Stderr: stderr,
	})
	if o.format == "json" && res != nil {
		if err := copyFile(stdout, res.Reports[0]); err != nil {
			return err
		}
	}
	return pipelineError(err, stderr)
}

// loadTasks loads the corpus, the tasks and the prompts; every problem is
// an error.
func loadTasks(corpusDir, taskDir string) (*task.Set, *task.Prompts, error) {
	set, dirs, err := task.LoadDirs(corpusDir, taskDir)
	if err != nil {
		return nil, nil, err
	}
	prompts, err := task.LoadPrompts(dirs.Tasks)
	return set, prompts, err
}

// pipelineError maps the pipeline's errors to exit codes: a failing verdict
// 1 (the report already said why), anything else 2; an interruption or a
// spending cap prints how to resume.
func pipelineError(err error, stderr io.Writer) error {
	var ie *pipeline.InterruptedError
	var be *pipeline.BudgetError
	switch {
	case errors.Is(err, pipeline.ErrVerdictFail):
		return failed()
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "\n%v\n", ie)
		return &exitError{exitCantRun, errSilent}
	case errors.As(err, &be):
		fmt.Fprintf(stderr, "\n%v\n", be)
		return &exitError{exitCantRun, errSilent}
	}
	return err
}

// copyFile writes the file at path to w.
func copyFile(w io.Writer, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}
