package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
)

// cmdShow prints one transcript of a run as a person reads it.
func cmdShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "show [--model M] [--repeat R] RUN TASK", `
		harness show --model offline/oracle runs/20261122T101500Z 03-b
		harness show --model offline/noisy demo 17-c     # RUN may be a run id in runs/`, stderr)
	modelFlag := fs.String("model", "", "the model whose answer to show (needed when the run has several)")
	repeat := fs.Int("repeat", 0, "the repeat to show, from 0")
	corpusDir, taskDir := corpusFlag(fs, new(string), ""), instructionsFlag(fs, new(string), "")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usage.Errorf("show: give a run (directory or id) and a task id (harness show -h for help)")
	}
	return pipeline.ShowRun(stdout, pipeline.ShowRequest{Run: fs.Arg(0), Model: *modelFlag, TaskID: fs.Arg(1), Repeat: *repeat, CorpusDir: *corpusDir, TaskDir: *taskDir})
}
