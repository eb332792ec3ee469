package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/unit"
)

// cmdRuns lists the runs in a directory of run directories.
func cmdRuns(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("runs", "runs [--wide] [DIR]", `
		harness runs              # the runs in runs/
		harness runs --wide       # every field whole, however wide the table
		harness runs runs/        # the runs of a directory of run directories
		harness runs --reconcile runs/demo   # price the attempts of unknown cost (GET /generation, with OPENROUTER_API_KEY); make demo's offline run has none`, stderr)
	wide := fs.Bool("wide", false, fmt.Sprintf("print every field whole (up to %d characters) rather than fitting the table in %d columns", maxRunsField, runsWidth))
	reconcile := fs.String("reconcile", "", "ask GET /generation for the cost of every attempt of `RUN` (a run directory, or its id in runs/) that has a generation id and no cost (needs OPENROUTER_API_KEY when there is one), within the run's timeouts.reconcile, and write RUN/"+pipeline.ReconcileName+"; a sealed run needs "+pipeline.SealKeyEnv+", and is re-sealed")
	baseURL := baseURLFlag(fs, new(string), " (with --reconcile)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *reconcile != "" {
		if fs.NArg() > 0 {
			return usage.Errorf("runs: --reconcile takes no directory")
		}
		runDir, err := runDirOf("runs --reconcile", *reconcile)
		if err != nil {
			return err
		}
		return reconcileRun(ctx, stdout, runDir, cmp.Or(*baseURL, model.BaseURLFromEnv()))
	}
	if fs.NArg() > 1 {
		return usage.Errorf("runs: give at most one directory")
	}
	return writeRuns(stdout, stderr, cmp.Or(fs.Arg(0), runsDir), *wide)
}

// runsWidth is the width harness runs fits its table in, unless --wide:
// a terminal's 120 columns (issue 46: a row was about 200 wide).
const runsWidth = 120

// maxRunsField caps what harness runs prints of any one field, --wide
// included (issue 45: a run.json listing 20,000 models made every row
// 269,000 characters wide, 103 MB of output).
const maxRunsField = 300

// runsColumns are the table's columns: the heading, and the narrowest a
// column is cut to when the table must fit runsWidth. The suite and the
// models give way first; the run id (the field one copies into show,
// rescore and --resume), the start and the cost are never cut (issue 56:
// the table was 124 columns wide, the run id cut to "20261129T020202.71…").
var runsColumns = []struct {
	head     string
	min      int
	yieldsTo bool // cut before the others
	whole    bool // never cut
}{
	{"RUN", 0, false, true}, {"STARTED", 0, false, true}, {"SUITE", 6, true, false}, {"MODELS", 6, true, false},
	{"VERDICT", 6, false, false}, {"READING", 6, false, false}, {"STATE", 8, false, false}, {"COST", 0, false, true}, {"API", 6, false, false},
}

// writeRuns prints the runs in dir (pipeline.ListRuns) as harness runs shows them:
// a table, or a line saying there is none; the warnings go to warn.
func writeRuns(w, warn io.Writer, dir string, wide bool) error {
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
	table := make([][]string, 0, len(rows)+1)
	var head []string
	for _, c := range runsColumns {
		head = append(head, c.head)
	}
	table = append(table, head)
	for _, r := range rows {
		table = append(table, []string{cutField(r.ID, maxRunsField), cutField(r.Started, maxRunsField), cutField(r.Suite, maxRunsField),
			cutField(r.Models, maxRunsField), cutField(r.Verdict, maxRunsField), cutField(r.Reading, maxRunsField), cutField(r.State, maxRunsField), cutField(r.Cost, maxRunsField), cutField(r.API, maxRunsField)})
	}
	widths := make([]int, len(runsColumns))
	for _, row := range table {
		for i, cell := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	cut := false
	if !wide {
		cut = fitWidths(widths, runsWidth-2*(len(widths)-1))
	}
	var b strings.Builder
	for _, row := range table {
		b.Reset()
		for i, cell := range row {
			cell = cutField(cell, widths[i])
			b.WriteString(cell)
			if i < len(row)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell)+2))
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	if cut {
		fmt.Fprintf(warn, "runs: fields cut (…) to fit %d columns; harness runs --wide prints them whole\n", runsWidth)
	}
	return nil
}

// fitWidths narrows the columns until their widths sum to at most total:
// the widest of the columns that yield first, down to their minimum, then
// the widest of all. It reports whether it narrowed any.
func fitWidths(widths []int, total int) bool {
	sum := 0
	for _, w := range widths {
		sum += w
	}
	narrowed := false
	for _, yieldingOnly := range []bool{true, false} {
		for sum > total {
			widest := -1
			for i, c := range runsColumns {
				if !c.whole && (c.yieldsTo || !yieldingOnly) && widths[i] > c.min && (widest < 0 || widths[i] > widths[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break
			}
			widths[widest]--
			sum--
			narrowed = true
		}
	}
	return narrowed
}

// cutField is s cut to n characters, its last one "…" when it was cut.
func cutField(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:max(n-1, 0)]) + "…"
}

// reconcileRun prices a run's attempts of unknown cost
// (pipeline.ReconcileRun) and says what it found.
func reconcileRun(ctx context.Context, w io.Writer, runDir, baseURL string) error {
	// Issue 56: an offline run (make demo's) needed a key, was told to run
	// make demo without one, and with one read "GET /generation priced
	// them at $0.0000" where nothing had been asked.
	n, err := pipeline.UnknownCosts(runDir)
	if err != nil {
		return err
	}
	if n == 0 {
		_, err := fmt.Fprintf(w, "nothing to price: no attempt of %s has a generation id without a cost (an offline run has none); GET /generation was not asked, and nothing was written\n", runDir)
		return err
	}
	key, err := model.APIKeyFromEnv()
	if err != nil {
		return err
	}
	if key == "" {
		return fmt.Errorf("runs --reconcile: %d %s of %s %s no cost; pricing them asks OpenRouter's GET /generation, which needs the key that ran them: export %s=sk-or-... and run this again",
			n, unit.Plural(n, "attempt", "attempts"), runDir, unit.Plural(n, "has", "have"), model.EnvAPIKey)
	}
	// Each call and the whole reconcile are bounded by the run's own
	// timeouts.bookkeeping and timeouts.reconcile (issue 53).
	conn := pipeline.ConnectionFrom(config.Default(), baseURL, key)
	conn.Bookkeeping = 0
	rec, err := pipeline.ReconcileRun(ctx, runDir, conn, pipeline.ReconcileRunOptions{Stdout: w, SealKey: sealKey()})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d %s of unknown cost; GET /generation priced them at $%.4f", len(rec.Generations),
		unit.Plural(len(rec.Generations), "attempt", "attempts"), rec.USD)
	if rec.Unresolved > 0 {
		fmt.Fprintf(w, "; %d not priced", rec.Unresolved)
	}
	_, err = fmt.Fprintf(w, "\nwrote %s\n", filepath.Join(runDir, pipeline.ReconcileName))
	pipeline.UnpricedLines(w, rec)
	return err
}
