package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/relay"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/suites"
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
	suite        string
	rungs        string
	steps        int
	tasks        string
	classes      string
	docs         string
	limit        int
	maxCost      float64
	summary      bool
	format       string
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
	fs.StringVar(&o.configFile, "config", "harness.yaml", "configuration file (built-in defaults when it does not exist)")
	fs.StringVar(&o.models, "models", "", "comma-separated models instead of the configured ones (informational runs)")
	fs.StringVar(&o.judges, "judges", "", "comma-separated judge models instead of the configured panel")
	fs.IntVar(&o.repeats, "repeats", 0, "runs per (model, task), at least 1 (default: the configuration's)")
	fs.Int64Var(&o.seed, "seed", 0, "base seed; repeat r uses seed+r (default: the configuration's)")
	fs.StringVar(&o.out, "out", "runs", "directory of run directories")
	fs.StringVar(&o.reports, "reports", pipeline.DefaultReportDir, "directory of reports (a resume uses the run's, and says so)")
	fs.StringVar(&o.resume, "resume", "", "resume the run in this directory, requesting only jobs without a successful transcript")
	fs.StringVar(&o.runID, "run-id", "", "name of the new run directory: letters, digits, '.', '-', '_' (default: the UTC start time to the millisecond and a random suffix)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the models and print the run's size and estimated cost, then stop")
	fs.BoolVar(&o.noPreflight, "no-preflight", false, "skip the model-list check (for servers without /models)")
	fs.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API root (default $OPENROUTER_BASE_URL, else OpenRouter); a resume must name the run's own, or is refused")
	fs.StringVar(&o.corpusDir, "corpus", "corpus", "corpus directory (the embedded corpus when ./corpus does not exist; any other directory must exist)")
	fs.StringVar(&o.taskDir, "instructions", "instructions", "task directory (the embedded tasks when ./instructions does not exist; any other directory must exist)")
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
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if err := checkRunFlags(o, given); err != nil {
		return err
	}
	return runHarness(ctx, o, given, stdout, stderr)
}

// checkRunFlags refuses flag values that cannot mean anything, naming the
// flag and what it takes, instead of running with a default.
func checkRunFlags(o runOptions, given map[string]bool) error {
	switch {
	case given["repeats"] && (o.repeats < 1 || o.repeats > config.MaxRepeats):
		return usageError("run: --repeats takes a whole number from 1 to %d, not %d", config.MaxRepeats, o.repeats)
	case given["per-model"] && o.perModel < 1:
		return usageError("run: --per-model takes a whole number of at least 1, not %d", o.perModel)
	case given["global"] && o.global < 1:
		return usageError("run: --global takes a whole number of at least 1, not %d", o.global)
	case !slices.Contains([]string{"auto", "bars", "lines", "none"}, o.progressMode):
		return usageError("run: --progress takes auto, bars, lines or none, not %q", o.progressMode)
	case given["models"] && len(splitList(o.models)) == 0:
		return usageError("run: --models takes a comma-separated list of models, not %q", o.models)
	case given["judges"] && len(splitList(o.judges)) == 0:
		return usageError("run: --judges takes a comma-separated list of models, not %q", o.judges)
	case given["run-id"] && !pipeline.ValidRunID(o.runID):
		return usageError("run: --run-id takes one path element of letters, digits, '.', '-' and '_', not %q", o.runID)
	case !slices.Contains(suites.Names(), o.suite):
		return usageError("run: --suite takes %s, not %q", strings.Join(suites.Names(), " or "), o.suite)
	case given["rungs"] && !slices.Contains(suites.UsingFlag("rungs"), o.suite):
		return usageError("run: --rungs goes with --suite %s", strings.Join(suites.UsingFlag("rungs"), " or "))
	case given["steps"] && !slices.Contains(suites.UsingFlag("steps"), o.suite):
		return usageError("run: --steps goes with --suite %s", strings.Join(suites.UsingFlag("steps"), " or "))
	case given["steps"] && (o.steps < 1 || o.steps > relay.MaxSteps):
		return usageError("run: --steps takes a whole number from 1 to %d, not %d", relay.MaxSteps, o.steps)
	case given["resume"] && given["run-id"]:
		return usageError("run: --resume names the run; --run-id is for a new run")
	case given["limit"] && o.limit < 1:
		return usageError("run: --limit takes a whole number of at least 1, not %d", o.limit)
	case given["max-cost"] && (!(o.maxCost > 0) || math.IsInf(o.maxCost, 0)):
		return usageError("run: --max-cost takes a positive number of US dollars, not %v", o.maxCost)
	case o.format != "text" && o.format != "json":
		return usageError("run: --format takes text or json, not %q", o.format)
	case given["resume"] && (given["tasks"] || given["classes"] || given["docs"] || given["limit"]):
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

// suiteHelp is the --suite flag's help, from the suite table.
func suiteHelp() string {
	var parts []string
	for _, s := range suites.Table {
		parts = append(parts, fmt.Sprintf("%s (%s)", s.Name, s.Help))
	}
	return "task suite: " + strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
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

func runHarness(ctx context.Context, o runOptions, given map[string]bool, stdout, stderr io.Writer) error {
	if o.resume != "" {
		return resumeRun(ctx, o, given, stdout, stderr)
	}
	cfg, err := loadConfig(o.configFile)
	if err != nil {
		return err
	}
	if given["models"] {
		cfg.Models = splitList(o.models)
	}
	if given["judges"] {
		cfg.Judges = config.Judges{Models: splitList(o.judges)}
	}
	if given["repeats"] {
		cfg.Repeats = o.repeats
	}
	if given["seed"] {
		cfg.Request.Seed = o.seed
	}
	inputs := transcript.Inputs{BaseURL: o.baseURL, CorpusDir: o.corpusDir, InstructionsDir: o.taskDir, ReportDir: o.reports, Suite: o.suite, NoPreflight: o.noPreflight}
	if o.rungs != "" {
		inputs.Rungs = splitList(o.rungs)
	}
	inputs.Steps = o.steps
	inputs.Selection = selection(o)
	inputs.MaxCost = cfg.MaxCost
	if given["max-cost"] {
		inputs.MaxCost = o.maxCost
	}
	return startRun(ctx, o, cfg, nil, inputs, stdout, stderr)
}

// resumeRun continues the run in o.resume with everything its manifest
// recorded; a flag that contradicts the manifest is refused rather than
// silently ignored. Concurrency and progress may change.
func resumeRun(ctx context.Context, o runOptions, given map[string]bool, stdout, stderr io.Writer) error {
	m, cfg, err := pipeline.ReadRun(o.resume)
	if err != nil {
		return &exitError{exitCantRun, fmt.Errorf("resume: %w", err)}
	}
	in := m.Inputs
	if in.ReportDir == "" {
		in.ReportDir = pipeline.DefaultReportDir // a manifest from before reports were recorded
	}
	recorded := map[string]string{
		"models": strings.Join(m.Models, ","), "judges": strings.Join(cfg.Judges.Models, ","),
		"repeats": strconv.Itoa(m.Repeats), "seed": strconv.FormatInt(m.Seed, 10),
		"corpus": in.CorpusDir, "instructions": in.InstructionsDir, "reports": in.ReportDir, "no-preflight": strconv.FormatBool(in.NoPreflight), "config": "",
		"suite": cmp.Or(in.Suite, suites.Gating), "rungs": strings.Join(in.Rungs, ","), "steps": strconv.Itoa(in.Steps),
	}
	asked := map[string]string{
		"models": strings.Join(splitList(o.models), ","), "judges": strings.Join(splitList(o.judges), ","),
		"repeats": strconv.Itoa(o.repeats), "seed": strconv.FormatInt(o.seed, 10),
		"corpus": o.corpusDir, "instructions": o.taskDir, "reports": o.reports, "no-preflight": strconv.FormatBool(o.noPreflight), "config": o.configFile,
		"suite": o.suite, "rungs": strings.Join(splitList(o.rungs), ","), "steps": strconv.Itoa(o.steps),
	}
	for _, name := range slices.Sorted(maps.Keys(recorded)) {
		if given[name] && asked[name] != recorded[name] {
			if name == "config" {
				return usageError("resume: the run's configuration is in its manifest; --config does not apply")
			}
			return usageError("resume: --%s %q contradicts the run's manifest (%q); resume without it, or start a new run", name, asked[name], recorded[name])
		}
	}
	// run.json is no hash-covered record of where requests go: an edited
	// one must not send the key to another server. The resume sends where
	// this command line (or the environment, or the default) says, and the
	// run's record must agree.
	url := cmp.Or(o.baseURL, model.BaseURLFromEnv())
	if in.BaseURL != "" && in.BaseURL != url {
		return usageError("resume: run.json says the run asked %s, but this resume would send the key to %s: to resume against the run's server, name it yourself:\n  %s",
			in.BaseURL, url, pipeline.ResumeCommand(selfCommand(), o.resume, in))
	}
	if given["max-cost"] {
		// A capped run resumes with a higher cap; the manifest keeps it.
		in.MaxCost, m.Inputs.MaxCost = o.maxCost, o.maxCost
	}
	if in.BaseURL != "" {
		fmt.Fprintf(stdout, "resume: requests and the API key go to %s\n", url)
	}
	if !given["reports"] {
		// Writing reports leaks nothing: the recorded directory is used,
		// and said aloud before anything is written.
		fmt.Fprintf(stdout, "resume: reports go to %s (recorded in run.json)\n", in.ReportDir)
	}
	o.corpusDir, o.taskDir, o.reports, o.noPreflight = in.CorpusDir, in.InstructionsDir, in.ReportDir, in.NoPreflight
	o.baseURL = url
	return startRun(ctx, o, cfg, m, in, stdout, stderr)
}

// startRun applies the concurrency flags, loads the tasks and hands the
// run to the pipeline.
func startRun(ctx context.Context, o runOptions, cfg *config.Config, m *transcript.Manifest, inputs transcript.Inputs, stdout, stderr io.Writer) error {
	if o.perModel > 0 {
		cfg.Concurrency.PerModel = o.perModel
	}
	if o.global > 0 {
		cfg.Concurrency.Global = o.global
	}
	if err := cfg.Validate(); err != nil {
		return &exitError{exitCantRun, err}
	}
	corpusSet, prompts, err := loadTasks(o.corpusDir, o.taskDir)
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
	key, err := apiKey()
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	res, err := pipeline.Run(ctx, pipeline.Options{
		Config: cfg, Set: set, Prompts: prompts,
		Conn:   pipeline.ConnectionFrom(cfg, o.baseURL, key),
		Resume: m, ResumeDir: o.resume, Inputs: inputs,
		OutDir: o.out, RunID: o.runID, ReportDir: o.reports,
		DryRun: o.dryRun, NoPreflight: o.noPreflight,
		MaxCost: inputs.MaxCost, Summary: o.summary, Command: selfCommand(),
		HarnessVersion: Version, GitCommit: gitCommit(),
		Progress: progressFor(o.progressMode, stderr),
		Stdout:   notes, Stderr: stderr,
	})
	if o.format == "json" && res != nil {
		if err := copyFile(stdout, res.Reports[0]); err != nil {
			return err
		}
	}
	return pipelineError(err, stderr)
}

// pipelineError maps the pipeline's errors to exit codes: a failing verdict
// 1 (the report already said why), anything else 2; an interruption prints
// how to resume.
func pipelineError(err error, stderr io.Writer) error {
	var ie *pipeline.InterruptedError
	var be *pipeline.BudgetError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, pipeline.ErrVerdictFail):
		return failed()
	case errors.As(err, &ie):
		fmt.Fprintf(stderr, "\n%v\n", ie)
		return &exitError{exitCantRun, errSilent}
	case errors.As(err, &be):
		fmt.Fprintf(stderr, "\n%v\n", be)
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

// commandName is how the user ran the harness, for commands it prints
// (the --resume line): main sets it from os.Args[0].
var commandName = "harness"

// selfName is the command that runs this binary again from the same
// directory: the path as typed (bin/harness, ./harness, a name on PATH),
// or "go run ./cmd/harness" for a binary go run built in a temporary
// directory.
func selfName(arg0 string) string {
	switch {
	case arg0 == "":
		return "harness"
	case strings.Contains(arg0, "go-build"):
		return "go run ./cmd/harness"
	}
	return arg0
}

func selfCommand() string { return commandName }

// copyFile writes the file at path to w.
func copyFile(w io.Writer, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	_, err = w.Write(b)
	return err
}

// apiKey is the OpenRouter key: the environment's, else a
// OPENROUTER_API_KEY line of a .env file in the working directory (as
// inspect_ai and promptfoo read it). The environment wins; the key is
// never written anywhere.
func apiKey() (string, error) {
	if k := os.Getenv(model.EnvAPIKey); k != "" {
		return k, nil
	}
	b, err := os.ReadFile(".env")
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading .env: %w", err)
	}
	return dotenv(string(b))[model.EnvAPIKey], nil
}

// dotenv parses the lines NAME=value of a .env file: "export " before the
// name, blank lines and # comments are allowed, and a value in matching
// single or double quotes loses them.
func dotenv(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(strings.TrimPrefix(line, "export "), "=")
		if !ok {
			continue
		}
		value = strings.TrimSpace(value)
		if n := len(value); n >= 2 && (value[0] == '"' || value[0] == '\'') && value[n-1] == value[0] {
			value = value[1 : n-1]
		}
		out[strings.TrimSpace(name)] = value
	}
	return out
}
