package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/transcript"
)

// runOptions are the flags of harness run.
type runOptions struct {
	configFile   string
	models       string
	judges       string
	repeats      int
	seed         int64
	out          string
	reports      string
	resume       string
	runID        string
	dryRun       bool
	noPreflight  bool
	baseURL      string
	corpusDir    string
	taskDir      string
	perModel     int
	global       int
	progressMode string
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := newFlagSet("run", "run [--config FILE] [--models a,b,c] [--judges a,b] [--repeats N] [--out DIR] [--resume DIR] [--dry-run]", `
		harness run                                   # the gating run (needs OPENROUTER_API_KEY)
		harness run --dry-run                         # preflight: check models, print size and cost, stop
		harness run --models offline/oracle,offline/identity,offline/noisy --judges offline/judge
		harness run --resume runs/20261122T101500Z    # finish an interrupted run
		OPENROUTER_BASE_URL=http://localhost:8000/v1 harness run --models my-model --no-preflight`, stderr)
	fs.StringVar(&o.configFile, "config", "harness.yaml", "configuration file (built-in defaults when it does not exist)")
	fs.StringVar(&o.models, "models", "", "comma-separated models instead of the configured ones (informational runs)")
	fs.StringVar(&o.judges, "judges", "", "comma-separated judge models instead of the configured panel")
	fs.IntVar(&o.repeats, "repeats", 0, "runs per (model, task); 0 uses the configuration")
	fs.Int64Var(&o.seed, "seed", math.MinInt64, "base seed; repeat r uses seed+r (default: the configuration's)")
	fs.StringVar(&o.out, "out", "runs", "directory of run directories")
	fs.StringVar(&o.reports, "reports", "reports", "directory of reports")
	fs.StringVar(&o.resume, "resume", "", "resume the run in this directory, requesting only jobs without a successful transcript")
	fs.StringVar(&o.runID, "run-id", "", "name of the new run directory (default: the UTC start time)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the models and print the run's size and estimated cost, then stop")
	fs.BoolVar(&o.noPreflight, "no-preflight", false, "skip the model-list check (for servers without /models)")
	fs.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API root (default $OPENROUTER_BASE_URL, else OpenRouter)")
	fs.StringVar(&o.corpusDir, "corpus", "corpus", "corpus directory (embedded corpus when it does not exist)")
	fs.StringVar(&o.taskDir, "instructions", "instructions", "task directory (embedded tasks when it does not exist)")
	fs.IntVar(&o.perModel, "per-model", 0, "requests in flight per model; 0 uses the configuration")
	fs.IntVar(&o.global, "global", 0, "requests in flight in all; 0 uses the configuration")
	fs.StringVar(&o.progressMode, "progress", "auto", "progress output: auto (bars on a terminal), bars, lines or none")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return usageError("run: unexpected arguments %q", fs.Args())
	}
	return runHarness(ctx, o, stdout, stderr)
}

// loadConfig reads the configuration file, or the defaults when the file
// does not exist and was not asked for explicitly.
func loadConfig(path string) (*config.Config, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && path == "harness.yaml" {
		return config.Default(), nil
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, &exitError{exitCantRun, err}
	}
	return c, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runHarness(ctx context.Context, o runOptions, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(o.configFile)
	if err != nil {
		return err
	}
	var manifest *transcript.Manifest
	if o.resume != "" {
		if manifest, cfg, err = pipeline.ReadRun(o.resume); err != nil {
			return &exitError{exitCantRun, fmt.Errorf("resume: %w", err)}
		}
		if o.models != "" || o.judges != "" || o.repeats != 0 {
			fmt.Fprintln(stderr, "resume: --models, --judges and --repeats are taken from the run's manifest")
		}
	} else {
		if o.models != "" {
			cfg.Models = splitList(o.models)
		}
		if o.judges != "" {
			cfg.Judges = config.Judges{Models: splitList(o.judges)}
		}
		if o.repeats > 0 {
			cfg.Repeats = o.repeats
		}
		if o.seed != math.MinInt64 {
			cfg.Request.Seed = o.seed
		}
	}
	if o.perModel > 0 {
		cfg.Concurrency.PerModel = o.perModel
	}
	if o.global > 0 {
		cfg.Concurrency.Global = o.global
	}
	if err := cfg.Validate(); err != nil {
		return &exitError{exitCantRun, err}
	}
	set, prompts, err := loadTasks(o.corpusDir, o.taskDir)
	if err != nil {
		return err
	}
	_, err = pipeline.Run(ctx, pipeline.Options{
		Config: cfg, Set: set, Prompts: prompts,
		Conn:   pipeline.ConnectionFrom(cfg, o.baseURL, os.Getenv(model.EnvAPIKey)),
		Resume: manifest, ResumeDir: o.resume,
		OutDir: o.out, RunID: o.runID, ReportDir: o.reports,
		DryRun: o.dryRun, NoPreflight: o.noPreflight,
		HarnessVersion: Version, GitCommit: gitCommit(),
		Progress: progressFor(o.progressMode, stderr),
		Stdout:   stdout, Stderr: stderr,
	})
	return pipelineError(err, stderr)
}

// pipelineError maps the pipeline's errors to exit codes: a failing verdict
// 1 (the report already said why), anything else 2; an interruption prints
// how to resume.
func pipelineError(err error, stderr io.Writer) error {
	var ie *pipeline.InterruptedError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pipeline.ErrVerdictFail):
		return failed()
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "\n%v\n", ie)
		return &exitError{exitCantRun, errSilent}
	}
	return &exitError{exitCantRun, err}
}

func progressFor(mode string, w io.Writer) runner.Progress {
	switch mode {
	case "none":
		return nil
	case "bars":
		return &runner.Bars{W: w}
	case "lines":
		return &runner.Lines{W: w}
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("CI") == "" {
			return &runner.Bars{W: w}
		}
	}
	return &runner.Lines{W: w}
}

// gitCommit returns the checked-out commit, or "" outside a git checkout.
func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
