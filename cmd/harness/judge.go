package main

import (
	"context"
	"io"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
)

func cmdJudge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("judge", "judge calibrate --models JUDGE[,JUDGE...] [--corpus DIR] [--instructions DIR] [--cases DIR] [--json]", `
		harness judge calibrate --models offline/judge
		OPENROUTER_API_KEY=... harness judge calibrate --models anthropic/claude-opus-4.8,openai/gpt-5.6-sol,google/gemini-3.1-pro-preview
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
	judges := pipeline.SplitList(*models)
	if len(judges) == 0 {
		return wrongUsage(fs, "judge calibrate: give the judges with --models")
	}
	report, err := pipeline.CalibrateJudges(ctx, pipeline.CalibrationRequest{Judges: judges, CorpusDir: *corpusDir, TaskDir: *taskDir,
		CasesDir: *casesDir, ConfigFile: *configFile, BaseURL: *baseURL, APIKey: os.Getenv(model.EnvAPIKey)})
	switch {
	case err != nil:
		return err
	case *asJSON:
		return report.WriteJSON(stdout)
	}
	return report.WriteText(stdout)
}
