package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/transcript"
)

// cmdShow prints one transcript of a run as a person reads it.
func cmdShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "show [--model M] [--repeat R] RUN TASK", `
		harness show runs/20261122T101500Z 03-b
		harness show --model offline/noisy demo 17-c     # RUN may be a run id in runs/`, stderr)
	modelFlag := fs.String("model", "", "the model whose answer to show (needed when the run has several)")
	repeat := fs.Int("repeat", 0, "the repeat to show, from 0")
	corpusDir, taskDir := corpusFlag(fs, new(string), ""), instructionsFlag(fs, new(string), "")
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
		return fmt.Errorf("show: %w", err)
	}
	mod, id := *modelFlag, fs.Arg(1)
	if mod == "" && len(m.Models) == 1 {
		mod = m.Models[0]
	}
	switch {
	case mod == "":
		return usageError("show: the run has %d models (%s): pick one with --model", len(m.Models), strings.Join(m.Models, ", "))
	case !slices.Contains(m.Models, mod):
		return usageError("show: the run has no model %q (it has %s)", mod, strings.Join(m.Models, ", "))
	case !slices.Contains(m.TaskIDs, id):
		if near := nearest(id, m.TaskIDs); near != "" {
			return usageError("show: the run has no task %q; did you mean %q?", id, near)
		}
		return usageError("show: the run has no task %q", id)
	case *repeat < 0 || *repeat >= m.Repeats:
		return usageError("show: --repeat takes 0 to %d for this run, not %d", m.Repeats-1, *repeat)
	}
	return pipeline.Show(stdout, pipeline.ShowOptions{RunDir: runDir, Manifest: m, Config: cfg, Model: mod, TaskID: id, Repeat: *repeat,
		CorpusDir: cmp.Or(*corpusDir, m.Inputs.CorpusDir, "corpus"), TaskDir: cmp.Or(*taskDir, m.Inputs.InstructionsDir, "instructions")})
}
