package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/pipeline"
)

// cmdRescore is the score phase over an archived run (pipeline.Rescore).
func cmdRescore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rescore", "rescore [--out DIR] [--format md|json] RUN_DIR", `
		harness rescore runs/20261122T101500Z
		harness rescore --out rescored runs/demo && diff <(grep -v '^  "rescored_at"' rescored/demo.json) reports/demo.json
		harness rescore --format json runs/demo | jq .verdict`, stderr)
	out := reportsFlag(fs, new(string), "out", "")
	format := fs.String("format", "md", "what to print: md (the Markdown summary) or json (the JSON report)")
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return wrongUsage(fs, "rescore: give one run directory")
	}
	if *format != "md" && *format != "json" {
		return usageError("rescore: --format is md or json, not %q", *format)
	}
	_, err := pipeline.Rescore(pipeline.RescoreRequest{RunDir: fs.Arg(0), ReportDir: *out, CorpusDir: *corpusDir, TaskDir: *taskDir, JSON: *format == "json", Stdout: stdout,
		Ctx: ctx, Command: commandName})
	return err
}
