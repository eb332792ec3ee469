package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/task"
)

// cmdRescore is the score phase over an archived run: the same
// scoreAndReport that harness run ends with, so a fresh report and a
// rescored one cannot disagree except in rescored_at.
func cmdRescore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rescore", "rescore [--out DIR] [--format md|json] RUN_DIR", `
		harness rescore runs/20261122T101500Z
		harness rescore --out /tmp/re runs/demo && diff <(grep -v '^  "rescored_at"' /tmp/re/demo.json) reports/demo.json
		harness rescore --format json runs/demo | jq .verdict`, stderr)
	out := reportsFlag(fs, new(string), "out", "")
	format := fs.String("format", "md", "what to print: md (the Markdown summary) or json (the JSON report)")
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("rescore: give one run directory")
	}
	if *format != "md" && *format != "json" {
		return usageError("rescore: --format is md or json, not %q", *format)
	}
	runDir := fs.Arg(0)
	m, cfg, err := pipeline.ReadRun(runDir)
	if err != nil {
		return fmt.Errorf("rescore: %w", err)
	}
	corpusSet, prompts, err := task.LoadAll(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	set, err := pipeline.SuiteSet(corpusSet, m.Inputs)
	if err != nil {
		return pipelineError(err, stderr)
	}
	if err := pipeline.CheckInputs(m, set, prompts); err != nil {
		return fmt.Errorf("rescore: %w", err)
	}
	now := time.Now().UTC()
	summary := stdout
	if *format == "json" {
		summary = nil
	}
	res, err := pipeline.Score(pipeline.ScoreOptions{RunDir: runDir, Manifest: m, Config: cfg, Set: set, ReportDir: *out, RescoredAt: &now, Stdout: summary, Summary: true})
	if *format == "json" && res != nil {
		if err := res.CopyJSON(stdout); err != nil {
			return err
		}
	}
	return pipelineError(err, stderr)
}
