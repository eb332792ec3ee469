package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"bendscript.com/round-trip-harness/pipeline"
)

// cmdRuns lists the runs in a directory of run directories.
func cmdRuns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("runs", "runs [DIR]", `
		harness runs              # the runs in runs/
		harness runs /tmp/runs`, stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError("runs: give at most one directory")
	}
	dir := cmp.Or(fs.Arg(0), "runs")
	rows, warnings, err := pipeline.ListRuns(dir)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, w)
	}
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "no runs in %s\n", dir)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED\tSUITE\tMODELS\tVERDICT\tSTATE\tCOST")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started, r.Suite, r.Models, r.Verdict, r.State, r.Cost)
	}
	return tw.Flush()
}
