package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/task"
)

func cmdJudge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("judge", "judge calibrate --models JUDGE[,JUDGE...] [--corpus DIR] [--instructions DIR] [--cases DIR] [--json]", `
		harness judge calibrate --models offline/judge
		OPENROUTER_API_KEY=... harness judge calibrate --models anthropic/claude-opus-5,openai/gpt-5.6-sol,google/gemini-3.1-pro-preview
		harness judge calibrate --models offline/judge --json > calibration.json`, stderr)
	models := fs.String("models", "", "comma-separated judge models (offline/judge runs offline; any other needs OPENROUTER_API_KEY)")
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	casesDir := fs.String("cases", "", "directory of labelled answers NN-a.json (default: the embedded calibration set)")
	asJSON := fs.Bool("json", false, "print the report as JSON instead of tables")
	configFile := configFlag(fs, new(string), "retries and timeouts of online judges")
	baseURL := baseURLFlag(fs, new(string), "")
	// The subcommand may come before or after the flags.
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if sub == "" && fs.NArg() > 0 {
		sub = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return wrongUsage(fs, "judge: unexpected arguments %q", fs.Args())
	}
	if sub != "calibrate" {
		return wrongUsage(fs, "judge: the only subcommand is calibrate")
	}
	judges := splitList(*models)
	if len(judges) == 0 {
		return wrongUsage(fs, "judge calibrate: give the judges with --models")
	}
	// The key as run reads it: $OPENROUTER_API_KEY, else ./.env.
	key, err := keyFor(judges)
	if err != nil {
		return err
	}
	report, err := calibrateJudges(ctx, calibration{judges: judges, corpusDir: *corpusDir, taskDir: *taskDir,
		casesDir: *casesDir, configFile: *configFile, baseURL: cmp.Or(*baseURL, model.BaseURLFromEnv()), apiKey: key})
	switch {
	case err != nil:
		return err
	case *asJSON:
		return report.WriteJSON(stdout)
	}
	return report.WriteText(stdout)
}

// calibration is what harness judge calibrate's flags and environment
// resolve to.
type calibration struct {
	judges []string
	// corpusDir and taskDir are the data directories (task.LoadAll);
	// casesDir holds the labelled answers, "" for the embedded set.
	corpusDir, taskDir, casesDir string
	// configFile gives online judges their retries and timeouts
	// (config.LoadOrDefault).
	configFile string
	// baseURL and apiKey are how online judges are reached
	// (pipeline.Connection).
	baseURL, apiKey string
}

// calibrateJudges loads the tasks, the labelled cases and the
// configuration, refuses judges that cannot judge (pipeline.CheckJudges),
// and calibrates the judges through the one client factory
// (pipeline.Calibrate).
func calibrateJudges(ctx context.Context, c calibration) (*judge.CalibrationReport, error) {
	set, _, err := task.LoadAll(c.corpusDir, c.taskDir)
	if err != nil {
		return nil, err
	}
	cases, err := judge.LoadCasesDir(c.casesDir)
	if err != nil {
		return nil, err
	}
	cfg, err := config.LoadOrDefault(c.configFile)
	if err != nil {
		return nil, err
	}
	if err := pipeline.CheckJudges(c.judges); err != nil {
		return nil, err
	}
	clients, _, err := pipeline.ConnectionFrom(cfg, c.baseURL, c.apiKey).Clients(c.judges, set)
	if err != nil {
		return nil, fmt.Errorf("judge calibrate: %w", err)
	}
	return pipeline.Calibrate(ctx, clients, set, cases, c.judges, cfg.Timeouts.Job.Duration)
}
