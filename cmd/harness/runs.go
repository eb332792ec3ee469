package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/report"
)

// cmdRuns lists the runs in a directory of run directories.
func cmdRuns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("runs", "runs [DIR]", `
		harness runs              # the runs in runs/
		harness runs nights/1/runs   # the runs of another directory
		harness runs --reconcile runs/demo   # price the attempts of unknown cost (GET /generation)`, stderr)
	reconcile := fs.String("reconcile", "", "ask GET /generation for the cost of every attempt of `RUN` that has a generation id and no cost (needs OPENROUTER_API_KEY), and write RUN/"+pipeline.ReconcileName)
	baseURL := baseURLFlag(fs, new(string), " (with --reconcile)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *reconcile != "" {
		if fs.NArg() > 0 {
			return usage.Errorf("runs: --reconcile takes no directory")
		}
		return reconcileRun(ctx, stdout, *reconcile, cmp.Or(*baseURL, model.BaseURLFromEnv()))
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
	fmt.Fprintln(tw, "RUN\tSTARTED\tSUITE\tMODELS\tVERDICT\tREADING\tSTATE\tCOST\tAPI")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Started, r.Suite, r.Models, r.Verdict, r.Reading, r.State, r.Cost, r.API)
	}
	return tw.Flush()
}

// reconcileRun prices a run's attempts of unknown cost
// (pipeline.ReconcileRun) and says what it found.
func reconcileRun(ctx context.Context, w io.Writer, runDir, baseURL string) error {
	key, err := model.APIKeyFromEnv()
	if err != nil {
		return err
	}
	if key == "" {
		return pipeline.ErrNoKey
	}
	cfg := config.Default()
	rec, err := pipeline.ReconcileRun(ctx, runDir, pipeline.ConnectionFrom(cfg, baseURL, key))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d %s of unknown cost; GET /generation priced them at $%.4f", len(rec.Generations),
		report.Plural(len(rec.Generations), "attempt", "attempts"), rec.USD)
	if rec.Unresolved > 0 {
		fmt.Fprintf(w, "; %d not priced", rec.Unresolved)
	}
	_, err = fmt.Fprintf(w, "\nwrote %s\n", filepath.Join(runDir, pipeline.ReconcileName))
	return err
}
