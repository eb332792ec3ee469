package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
)

// cmdRescore is the score phase over an archived run (pipeline.Rescore).
func cmdRescore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rescore", "rescore [--out DIR] [--format text|json] [--summary] RUN", `
		harness rescore runs/demo                   # make demo's gating run: exits 1, its verdict fails by design
		harness rescore --summary demo              # RUN may be a run id in runs/; the Markdown printed too, as run --summary
		harness rescore --out rescored runs/demo; diff <(grep -v '"rescored_at"' rescored/demo.json) <(grep -v '"rescored_at"' reports/demo.json) && echo same
		harness rescore --format json runs/demo | jq .verdict`, stderr)
	out := reportsFlag(fs, new(string), "out", "")
	// run's flags, with run's meaning (issue 34: rescore printed the whole
	// Markdown where run needs --summary, and took md|json where run takes
	// text|json); md, the old default, is text with --summary.
	format := fs.String("format", "text", "what to print on stdout: text (the verdict and the report paths) or json (the JSON report)")
	summary := fs.Bool("summary", false, "print the whole Markdown report before the verdict")
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return wrongUsage(fs, "rescore: give one run (its directory, or its id in runs/)")
	}
	switch *format {
	case "md":
		*summary = true
	case "text", "json":
	default:
		return usage.Errorf("rescore: --format takes text or json, not %q", *format)
	}
	runDir, err := runDirOf("rescore", fs.Arg(0))
	if err != nil {
		return err
	}
	o := pipeline.RescoreOptions{RunDir: runDir, ReportDir: *out, CorpusDir: *corpusDir, TaskDir: *taskDir, Summary: *summary, Stdout: stdout,
		Ctx: ctx, Command: commandName, SealKey: sealKey()}
	if *format == "json" {
		o.Stdout = nil // stdout holds the JSON report alone
	}
	res, err := pipeline.Rescore(o)
	if *format == "json" && res != nil {
		if err := copyJSON(stdout, res); err != nil {
			return err
		}
	}
	return err
}
