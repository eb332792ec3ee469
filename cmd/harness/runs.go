package main

import (
	"cmp"
	"context"
	"io"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
)

// cmdRuns lists the runs in a directory of run directories.
func cmdRuns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("runs", "runs [DIR]", `
		harness runs              # the runs in runs/
		harness runs nights/1/runs   # the runs of another directory`, stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usage.Errorf("runs: give at most one directory")
	}
	return pipeline.WriteRuns(stdout, stderr, cmp.Or(fs.Arg(0), "runs"))
}
