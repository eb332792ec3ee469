package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
)

// cmdRuns lists the runs in a directory of run directories.
func cmdRuns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("runs", "runs [DIR]", `
		harness runs              # the runs in runs/
		harness runs runs/        # the runs of a directory of run directories`, stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usage.Errorf("runs: give at most one directory")
	}
	return writeRuns(stdout, stderr, cmp.Or(fs.Arg(0), "runs"))
}

// writeRuns prints the runs in dir (pipeline.ListRuns) as harness runs shows them:
// a table, or a line saying there is none; the warnings go to warn.
func writeRuns(w, warn io.Writer, dir string) error {
	rows, warnings, err := pipeline.ListRuns(dir)
	if err != nil {
		return err
	}
	for _, e := range warnings {
		fmt.Fprintln(warn, e)
	}
	if len(rows) == 0 {
		_, err := fmt.Fprintf(w, "no runs in %s\n", dir)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED\tSUITE\tMODELS\tVERDICT\tREADING\tSTATE\tCOST")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started, r.Suite, r.Models, r.Verdict, r.Reading, r.State, r.Cost)
	}
	return tw.Flush()
}
