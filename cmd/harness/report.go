package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
)

// cmdRescore is the score phase over an archived run: the same
// scoreAndReport that harness run ends with, so a fresh report and a
// rescored one cannot disagree except in rescored_at.
func cmdRescore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rescore", "rescore [--out DIR] [--format md|json] RUN_DIR", `
		harness rescore runs/20261122T101500Z
		harness rescore --out /tmp/re runs/demo && diff <(grep -v '^  "rescored_at"' /tmp/re/demo.json) reports/demo.json
		harness rescore --format json runs/demo | jq .verdict`, stderr)
	out := fs.String("out", "reports", "directory of reports: writes <run-id>.json, .md, .html and .csv there")
	format := fs.String("format", "md", "what to print: md (the Markdown summary) or json (the JSON report)")
	corpusDir := fs.String("corpus", "corpus", "corpus directory (the embedded corpus when ./corpus does not exist; any other directory must exist)")
	taskDir := fs.String("instructions", "instructions", "task directory (the embedded tasks when ./instructions does not exist; any other directory must exist)")
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
		return &exitError{exitCantRun, fmt.Errorf("rescore: %w", err)}
	}
	corpusSet, prompts, err := loadTasks(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	set, err := pipeline.SuiteSet(corpusSet, m.Inputs)
	if err != nil {
		return pipelineError(err, stderr)
	}
	if err := pipeline.CheckInputs(m, set, prompts); err != nil {
		return &exitError{exitCantRun, fmt.Errorf("rescore: %w", err)}
	}
	now := time.Now().UTC()
	summary := stdout
	if *format == "json" {
		summary = nil
	}
	res, err := pipeline.Score(pipeline.ScoreOptions{RunDir: runDir, Manifest: m, Config: cfg, Set: set, ReportDir: *out, RescoredAt: &now, Stdout: summary, Summary: true})
	if *format == "json" && res != nil {
		b, rerr := os.ReadFile(res.Reports[0])
		if rerr != nil {
			return &exitError{exitCantRun, rerr}
		}
		if _, werr := stdout.Write(b); werr != nil {
			return werr
		}
	}
	return pipelineError(err, stderr)
}

// cmdCompare compares two JSON reports in the manner of benchstat.
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "compare [--format text|md|json] OLD.json NEW.json", `
		harness compare reports/20261101T000000Z.json reports/20261122T101500Z.json
		harness compare --format md reports/old.json reports/new.json >> "$GITHUB_STEP_SUMMARY"`, stderr)
	format := fs.String("format", "text", "text (aligned columns), md (Markdown tables, for pull requests) or json (the report.Comparison struct, for scripts)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return usageError("compare: give two reports")
	}
	if *format != "text" && *format != "md" && *format != "json" {
		return usageError("compare: --format is text, md or json, not %q", *format)
	}
	var reps [2]*report.Report
	for i, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return &exitError{exitCantRun, err}
		}
		reps[i], err = report.ReadJSON(f, name)
		f.Close()
		if err != nil {
			return &exitError{exitCantRun, err}
		}
	}
	// Reports of different suites measure different tasks: their numbers
	// pair by model and class but mean different things.
	if a, b := cmp.Or(reps[0].Suite, suites.Gating), cmp.Or(reps[1].Suite, suites.Gating); a != b {
		return usageError("compare: %s is a %s report and %s a %s report; compare two reports of one suite", fs.Arg(0), a, fs.Arg(1), b)
	}
	c := report.Compare(reps[0], reps[1], fs.Arg(0), fs.Arg(1))
	switch *format {
	case "md":
		return c.WriteMarkdown(stdout)
	case "json":
		return c.WriteJSON(stdout)
	}
	return c.WriteText(stdout)
}
