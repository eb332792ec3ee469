package main

import (
	"cmp"
	"context"
	"io"
	"math"
	"os/exec"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/cmd/harness/internal/progress"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/suites/delegate"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// runRequest is harness run's command line. Its flags bind straight to the
// fields: those that mean the same in a run bind to pipeline.Options and
// its Inputs (--out, --run-id, --reports, --resume, --dry-run,
// --no-preflight, --summary, --base-url, --corpus,
// --instructions, --suite, --steps); the others, which override the
// configuration or become a selection, are the fields below. startRun
// resolves them (the configuration, the environment, the data) into the
// Options that pipeline.Run takes.
type runRequest struct {
	pipeline.Options
	ConfigFile, Models, Judges, ProgressMode, Rungs, Tasks, Classes, Docs, Format, Formats string
	// MaxCost is --max-cost: it overrides the configuration's max_cost (a
	// new run) or raises the manifest's cap (a resume), into Inputs.MaxCost.
	MaxCost                          float64
	Repeats, PerModel, Global, Limit int
	Seed                             int64
	// Given are the flags given, by name, as flag.Value prints them: a
	// flag given with its default value still overrides (0 is a seed), and
	// a resume refuses one that contradicts the manifest.
	Given map[string]string
	// Stderr receives the progress and, with --format json, the notes.
	Stderr io.Writer
	// JSONOut, with --format json, is the command's stdout, which
	// receives the JSON report alone (startRun sets it).
	JSONOut io.Writer
}

func (r *runRequest) given(name string) bool { _, ok := r.Given[name]; return ok }

// check refuses flag values that cannot mean anything, naming the flag and
// what it takes, instead of running with a default.
func (r *runRequest) check() error {
	if err := r.checkNumbers(); err != nil {
		return err
	}
	if err := r.checkNames(); err != nil {
		return err
	}
	return r.checkCombinations()
}

// checkNumbers checks the counts that override the configuration's.
func (r *runRequest) checkNumbers() error {
	switch {
	case r.given("repeats") && (r.Repeats < 1 || r.Repeats > config.MaxRepeats):
		return usage.Errorf("run: --repeats takes a whole number from 1 to %d, not %d", config.MaxRepeats, r.Repeats)
	case r.given("per-model") && r.PerModel < 1:
		return usage.Errorf("run: --per-model takes a whole number of at least 1, not %d", r.PerModel)
	case r.given("global") && r.Global < 1:
		return usage.Errorf("run: --global takes a whole number of at least 1, not %d", r.Global)
	case r.given("feedback") && (r.Inputs.Feedback < 0 || r.Inputs.Feedback > task.MaxFeedback):
		return usage.Errorf("run: --feedback takes a whole number from 0 to %d, not %d", task.MaxFeedback, r.Inputs.Feedback)
	}
	return nil
}

// checkNames checks the flags that name things: the progress mode, the
// models and judges, the run id and the suite.
func (r *runRequest) checkNames() error {
	switch {
	case !slices.Contains(progress.Modes, r.ProgressMode):
		return usage.Errorf("run: --progress takes auto, bars, lines or none, not %q", r.ProgressMode)
	case r.given("models") && len(splitList(r.Models)) == 0:
		return usage.Errorf("run: --models takes a comma-separated list of models, not %q", r.Models)
	case r.given("judges") && len(splitList(r.Judges)) == 0:
		return usage.Errorf("run: --judges takes a comma-separated list of models, not %q", r.Judges)
	case r.given("run-id") && !pipeline.ValidRunID(r.RunID):
		return usage.Errorf("run: --run-id takes one path element of letters, digits, '.', '-' and '_', not %q", r.RunID)
	case !slices.Contains(suites.Names(), r.Inputs.Suite):
		return usage.Errorf("run: --suite takes %s, not %q", strings.Join(suites.Names(), " or "), r.Inputs.Suite)
	}
	return nil
}

// checkCombinations checks the flags whose meaning depends on others (a
// suite's own flags, a resume's), the limits and the output format, in
// that order: the first that fails says why.
func (r *runRequest) checkCombinations() error {
	for _, check := range []func() error{r.checkSuiteFlags, r.checkLimits, r.checkFormat} {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// checkSuiteFlags checks the flags of one suite (--rungs, --steps,
// --round-trips): given only with a suite that takes them, and in range.
func (r *runRequest) checkSuiteFlags() error {
	switch {
	case r.given("rungs") && !slices.Contains(suites.UsingFlag("rungs"), r.Inputs.Suite):
		return usage.Errorf("run: --rungs goes with --suite %s", strings.Join(suites.UsingFlag("rungs"), " or "))
	case r.given("steps") && !slices.Contains(suites.UsingFlag("steps"), r.Inputs.Suite):
		return usage.Errorf("run: --steps goes with --suite %s", strings.Join(suites.UsingFlag("steps"), " or "))
	case r.given("steps") && (r.Inputs.Steps < 1 || r.Inputs.Steps > relay.MaxSteps):
		return usage.Errorf("run: --steps takes a whole number from 1 to %d, not %d", relay.MaxSteps, r.Inputs.Steps)
	case r.given("round-trips") && !slices.Contains(suites.UsingFlag("round-trips"), r.Inputs.Suite):
		return usage.Errorf("run: --round-trips goes with --suite %s", strings.Join(suites.UsingFlag("round-trips"), " or "))
	case r.given("round-trips") && (r.Inputs.RoundTrips < 1 || r.Inputs.RoundTrips > delegate.MaxRoundTrips):
		return usage.Errorf("run: --round-trips takes a whole number from 1 to %d, not %d", delegate.MaxRoundTrips, r.Inputs.RoundTrips)
	}
	return nil
}

// checkLimits checks --resume against --run-id, and the limits --limit
// and --max-cost.
func (r *runRequest) checkLimits() error {
	switch {
	case r.given("resume") && r.given("run-id"):
		return usage.Errorf("run: --resume names the run; --run-id is for a new run")
	case r.given("limit") && r.Limit < 1:
		return usage.Errorf("run: --limit takes a whole number of at least 1, not %d", r.Limit)
	case r.given("max-cost") && (!(r.MaxCost > 0) || math.IsInf(r.MaxCost, 0)):
		return usage.Errorf("run: --max-cost takes a positive number of US dollars, not %v", r.MaxCost)
	}
	return nil
}

// checkFormat checks --format, then that a resume selects nothing (its
// selection is its manifest's).
func (r *runRequest) checkFormat() error {
	switch {
	case r.Format != "text" && r.Format != "json" && formats.Lookup(r.Format) != nil:
		// --format (what stdout prints) and --formats (how models answer)
		// are one letter apart (issue 34).
		return usage.Errorf("run: --format takes text or json, not %q; %q is an answer format: --formats %s", r.Format, r.Format, r.Format)
	case r.Format != "text" && r.Format != "json":
		return usage.Errorf("run: --format takes text or json, not %q", r.Format)
	case r.given("resume") && (r.given("tasks") || r.given("classes") || r.given("docs") || r.given("limit")):
		return usage.Errorf("resume: the run's selection is in its manifest; --tasks, --classes, --docs and --limit are for a new run")
	}
	return nil
}

// selection is the run's selection from the flags; nil when none is given.
func (r *runRequest) selection() *transcript.Selection {
	sel := &transcript.Selection{Tasks: splitList(r.Tasks), Classes: splitList(r.Classes), Docs: splitList(r.Docs), Limit: r.Limit}
	if len(sel.Tasks)+len(sel.Classes)+len(sel.Docs) == 0 && sel.Limit == 0 {
		return nil
	}
	return sel
}

// startRun carries out harness run: a new run from the configuration and
// the flags, or (--resume) the resume of an archived one (resume). With
// --format json the notes go to Stderr and Stdout receives the JSON report
// alone. The key comes from the environment (model.APIKeyFromEnv), as the
// API root does when neither the flag nor the run names one. The result
// and error are pipeline.Run's.
func startRun(ctx context.Context, r runRequest) (*pipeline.Result, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	if r.Format == "json" {
		// Stdout holds the JSON report alone: every note goes to stderr,
		// a resume's first ("resume: reports go to ...") included.
		r.JSONOut, r.Stdout = r.Stdout, r.Stderr
	}
	if r.ResumeDir != "" {
		return r.resume(ctx)
	}
	cfg, err := config.LoadOrDefault(r.ConfigFile)
	if err != nil {
		return nil, err
	}
	configured := slices.Clone(cfg.Models)
	r.override(cfg)
	in := &r.Inputs
	if !sameSet(configured, cfg.Models) {
		in.ConfiguredModels = configured
	}
	in.Rungs, in.Selection = splitList(r.Rungs), r.selection()
	in.MaxCost = cmp.Or(r.MaxCost, cfg.MaxCost)
	if suites.Of(in.Suite).Takes("round-trips") {
		in.Shuffle = cfg.Request.Seed // the forward order's seed, recorded
	}
	if in.Formats, err = formatsOf(r.Formats); err != nil {
		return nil, err
	}
	r.Conn.BaseURL = cmp.Or(r.Conn.BaseURL, model.BaseURLFromEnv())
	return r.start(ctx, cfg, nil)
}

// sameSet reports whether a and b hold the same ids, in any order.
func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// override applies the flags that override the configuration of a new
// run: each only when given.
func (r *runRequest) override(cfg *config.Config) {
	if r.given("models") {
		cfg.Models = splitList(r.Models)
	}
	if r.given("judges") {
		cfg.Judges = config.Judges{Models: splitList(r.Judges)}
	}
	if r.given("seed") { // 0 is a seed
		cfg.Request.Seed = r.Seed
	}
	cfg.Repeats = cmp.Or(r.Repeats, cfg.Repeats) // given, it is at least 1
}

// resume continues the run in ResumeDir with everything its manifest
// recorded; only the spending cap, concurrency and progress may change.
func (r *runRequest) resume(ctx context.Context) (*pipeline.Result, error) {
	url := cmp.Or(r.Conn.BaseURL, model.BaseURLFromEnv())
	dir, err := runDirOf("resume", r.ResumeDir)
	if err != nil {
		return nil, err
	}
	r.ResumeDir = dir
	m, cfg, in, err := resumeRun(r.ResumeDir, r.Given, url, r.Command, r.Stdout)
	if err != nil {
		return nil, err
	}
	if r.given("max-cost") {
		// A capped run resumes with a higher cap; the manifest keeps it.
		in.MaxCost, m.Inputs.MaxCost = r.MaxCost, r.MaxCost
	}
	r.Inputs = in
	r.Conn.BaseURL = url
	return r.start(ctx, cfg, m)
}

// start applies the concurrency flags, loads the tasks and runs; r.Inputs
// and r.Conn.BaseURL are the new run's or the resumed one's.
func (r *runRequest) start(ctx context.Context, cfg *config.Config, m *transcript.Manifest) (*pipeline.Result, error) {
	cfg.Concurrency.PerModel = cmp.Or(r.PerModel, cfg.Concurrency.PerModel)
	cfg.Concurrency.Global = cmp.Or(r.Global, cfg.Concurrency.Global)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	corpusSet, prompts, err := task.LoadAll(r.Inputs.CorpusDir, r.Inputs.InstructionsDir)
	if err != nil {
		return nil, err
	}
	if r.Set, err = pipeline.SuiteSet(corpusSet, r.Inputs); err != nil {
		return nil, err
	}
	key, err := keyFor(append(slices.Clone(cfg.Models), pipeline.JudgeModels(cfg)...))
	if err != nil {
		return nil, err
	}
	r.Config, r.Prompts, r.Resume = cfg, prompts, m
	r.Conn = pipeline.ConnectionFrom(cfg, r.Conn.BaseURL, key)
	r.GitCommit, r.Progress = gitCommit(), progress.For(r.ProgressMode, r.Stderr)
	res, err := pipeline.Run(ctx, r.Options)
	if err := r.printJSON(res); err != nil {
		return nil, err
	}
	return res, err
}

// printJSON writes, with --format json, the JSON report a run wrote
// (res, a failing verdict's included) to the command's stdout.
func (r *runRequest) printJSON(res *pipeline.Result) error {
	if r.JSONOut == nil || res == nil {
		return nil
	}
	return copyJSON(r.JSONOut, res)
}

// copyJSON writes the JSON report of the run or rescore to w, as its
// file holds it (report.WriteJSON, the writer of reports/<run-id>.json).
func copyJSON(w io.Writer, res *pipeline.Result) error {
	return report.WriteJSON(w, res.Report)
}

// formatsOf parses --formats (formats.Parse) as a run records it: the
// formats in table order, none for the whole document alone (as a run
// before formats recorded it).
func formatsOf(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	names, err := formats.Parse(list)
	if err != nil {
		return nil, usage.Errorf("run: --formats: %v", err)
	}
	if !formats.Several(names) {
		return nil, nil
	}
	return names, nil
}

// keyFor returns the API key when one of models is online
// (model.APIKeyFromEnv: $OPENROUTER_API_KEY, else ./.env), and "" when all
// are offline, which need none: an offline run does not read ./.env, so a
// .env that is no key file (a Python virtualenv's folder) cannot stop it.
func keyFor(models []string) (string, error) {
	if !slices.ContainsFunc(models, func(m string) bool { return !offline.IsOffline(m) }) {
		return "", nil
	}
	return model.APIKeyFromEnv()
}

// gitCommit returns the checked-out commit, recorded in the manifest
// (pipeline.Options.GitCommit), or "" outside a git checkout.
func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
