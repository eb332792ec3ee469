package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/transcript"
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	var rows []runRow
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		m, err := transcript.ReadManifest(filepath.Join(dir, e.Name()))
		if errors.Is(err, iofs.ErrNotExist) {
			continue // not a run directory
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", filepath.Join(dir, e.Name()), err)
			continue
		}
		rows = append(rows, runRowOf(filepath.Join(dir, e.Name()), m))
	}
	slices.SortFunc(rows, func(a, b runRow) int { return cmp.Or(cmp.Compare(a.started, b.started), cmp.Compare(a.id, b.id)) })
	if len(rows) == 0 {
		fmt.Fprintf(stdout, "no runs in %s\n", dir)
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED\tSUITE\tMODELS\tVERDICT\tSTATE\tCOST")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.id, r.started, r.suite, r.models, r.verdict, r.state, r.cost)
	}
	return tw.Flush()
}

// runRow is one line of harness runs.
type runRow struct {
	id, started, suite, models, verdict, state, cost string
}

// runRowOf reads what harness runs shows of a run: its manifest, its
// report when there is one (the verdict and whether it is complete), and
// the cost every transcript reported (answers and judge votes, superseded
// attempts included: all were paid for).
func runRowOf(runDir string, m *transcript.Manifest) runRow {
	r := runRow{id: m.RunID, started: m.StartedAt.UTC().Format(time.RFC3339), suite: cmp.Or(m.Inputs.Suite, suites.Gating),
		models: strings.Join(m.Models, ","), verdict: "-", state: "interrupted"}
	if m.FinishedAt != nil {
		r.state = "finished"
	}
	reportPath := filepath.Join(cmp.Or(m.Inputs.ReportDir, "reports"), m.RunID+".json")
	if f, err := os.Open(reportPath); err == nil {
		rep, err := report.ReadJSON(f, reportPath)
		f.Close()
		if err == nil {
			r.verdict, r.state = rep.Verdict, "complete"
			if slices.ContainsFunc(rep.Failures, func(f report.Failure) bool { return f.Metric == report.MetricIncomplete }) {
				r.state = "incomplete"
			}
		}
	}
	if m.Inputs.Selection != nil {
		r.state += ", partial"
	}
	usd, unknown := runCost(runDir)
	r.cost = fmt.Sprintf("$%.4f", usd)
	if unknown {
		r.cost += "+?"
	}
	return r
}

// runCost sums usage.cost over a run's transcript files, one file at a
// time; unknown is set when a response reported no cost.
func runCost(runDir string) (usd float64, unknown bool) {
	filepath.WalkDir(runDir, func(path string, d iofs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == filepath.Join(runDir, transcript.ManifestName) ||
			!strings.HasSuffix(path, ".json") && !strings.Contains(path, ".json.superseded-") {
			return nil
		}
		b, err := readBounded(path)
		if err != nil {
			return nil
		}
		var t struct {
			Response *struct {
				Usage struct {
					Cost *float64 `json:"cost"`
				} `json:"usage"`
			} `json:"response"`
		}
		if json.Unmarshal(b, &t) != nil || t.Response == nil {
			return nil
		}
		if c := t.Response.Usage.Cost; c != nil {
			usd += *c
		} else {
			unknown = true
		}
		return nil
	})
	return usd, unknown
}

// cmdShow prints one transcript of a run as a person reads it.
func cmdShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "show [--model M] [--repeat R] RUN TASK", `
		harness show runs/20261122T101500Z 03-b
		harness show --model offline/noisy demo 17-c     # RUN may be a run id in runs/`, stderr)
	modelFlag := fs.String("model", "", "the model whose answer to show (needed when the run has several)")
	repeat := fs.Int("repeat", 0, "the repeat to show, from 0")
	corpusDir := fs.String("corpus", "", "corpus directory (default: the run's)")
	taskDir := fs.String("instructions", "", "task directory (default: the run's)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usageError("show: give a run (directory or id) and a task id (harness show -h for help)")
	}
	runDir := fs.Arg(0)
	if _, err := os.Stat(filepath.Join(runDir, transcript.ManifestName)); err != nil && !strings.ContainsRune(runDir, filepath.Separator) {
		runDir = filepath.Join("runs", runDir)
	}
	m, cfg, err := pipeline.ReadRun(runDir)
	if err != nil {
		return &exitError{exitCantRun, fmt.Errorf("show: %w", err)}
	}
	mod := *modelFlag
	switch {
	case mod == "" && len(m.Models) == 1:
		mod = m.Models[0]
	case mod == "":
		return usageError("show: the run has %d models (%s): pick one with --model", len(m.Models), strings.Join(m.Models, ", "))
	case !slices.Contains(m.Models, mod):
		return usageError("show: the run has no model %q (it has %s)", mod, strings.Join(m.Models, ", "))
	}
	id := fs.Arg(1)
	if !slices.Contains(m.TaskIDs, id) {
		msg := fmt.Sprintf("show: the run has no task %q", id)
		if near := nearest(id, m.TaskIDs); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		return usageError("%s", msg)
	}
	if *repeat < 0 || *repeat >= m.Repeats {
		return usageError("show: --repeat takes 0 to %d for this run, not %d", m.Repeats-1, *repeat)
	}
	corpusSet, _, err := loadTasks(cmp.Or(*corpusDir, m.Inputs.CorpusDir, "corpus"), cmp.Or(*taskDir, m.Inputs.InstructionsDir, "instructions"))
	if err != nil {
		return err
	}
	set, err := pipeline.SuiteSet(corpusSet, m.Inputs)
	if err != nil {
		return pipelineError(err, stderr)
	}
	var answer *transcript.Transcript
	plan := scoring.Plan{Models: []string{mod}, TaskIDs: []string{id}, Repeats: m.Repeats}
	scores, err := scoring.Stream(set, plan, scoring.Archive(runDir, m.RunID, m.Judges), cfg.Weights, func(slot int, s *scoring.Score, a *transcript.Transcript) {
		if slot == *repeat {
			answer = a
		}
	})
	if err != nil {
		return &exitError{exitCantRun, fmt.Errorf("show: %w", err)}
	}
	fmt.Fprintf(stdout, "run %s\n", runDir)
	return report.WriteTranscript(stdout, scores[*repeat], set.Task(id), answer)
}
