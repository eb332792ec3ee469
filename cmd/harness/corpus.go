package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/ladder"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/sensitivity"
	"bendscript.com/round-trip-harness/task"
)

func cmdCorpus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "ladder" {
		return cmdCorpusLadder(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sensitivity" {
		return cmdCorpusSensitivity(ctx, args[1:], stdout, stderr)
	}
	fs := newFlagSet("corpus", "corpus check [--corpus DIR] [--instructions DIR]", `
		harness corpus check
		harness corpus check --corpus ../my-corpus --instructions ../my-tasks`, stderr)
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if len(args) == 0 || args[0] != "check" {
		return wrongUsage(fs, "corpus: the subcommands are check, ladder and sensitivity")
	}
	if help, err := parseFlags(fs, args[1:]); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return wrongUsage(fs, "corpus check: unexpected arguments %q", fs.Args())
	}
	set, d, probs, err := task.CheckDirs(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	for _, p := range probs {
		fmt.Fprintln(stdout, p)
	}
	if len(probs) > 0 {
		fmt.Fprintf(stderr, "corpus check: %d problems (corpus %s, tasks %s)\n", len(probs), d.CorpusName, d.TasksName)
		return failed()
	}
	fmt.Fprintf(stdout, "ok: %d documents, %d tasks, %d gold edits applied and checked, %d inverse edits restore their sources exactly, %d natural tasks determine their edits (corpus %s, tasks %s)\n",
		len(set.Documents), len(set.Tasks), set.Edits(), len(set.Inverse), len(set.Natural), d.CorpusName, d.TasksName)
	return nil
}

// cmdCorpusLadder writes the size ladder (package ladder): for each size a
// composed document, DIR/<rung>.bend.json, and its placed tasks,
// DIR/<rung>.tasks.json, and prints one line per rung.
func cmdCorpusLadder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("corpus ladder", "corpus ladder --out DIR [--sizes LIST] [--tasks LIST] [--corpus DIR] [--instructions DIR]", `
		harness corpus ladder --out ladder
		harness corpus ladder --out ladder && harness id --check ladder/*.bend.json
		harness corpus ladder --out ladder --sizes 32k,128k --tasks 01-b,01-c,02-b,02-c`, stderr)
	out := fs.String("out", "", "directory to write <rung>.bend.json and <rung>.tasks.json into (created when missing)")
	sizes := fs.String("sizes", "8k,32k,128k,512k", "target sizes, comma-separated: bytes, or a number with k (KiB) or m (MiB); each within ±15%")
	tasks := fs.String("tasks", strings.Join(ladder.DefaultTasks, ","), "corpus class B/C tasks to place at the start, middle and end of every rung, comma-separated")
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return wrongUsage(fs, "corpus ladder: give --out DIR and no arguments")
	}
	return pipeline.WriteLadder(stdout, pipeline.LadderRequest{Out: *out, Sizes: *sizes, Tasks: *tasks, CorpusDir: *corpusDir, TaskDir: *taskDir})
}

// cmdCorpusSensitivity prints what the thresholds let through: each
// canonical loss applied to every class B and C expected document, scored,
// with the thresholds it would fail.
func cmdCorpusSensitivity(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("corpus sensitivity", "corpus sensitivity [--config FILE] [--corpus DIR] [--instructions DIR]", `
		harness corpus sensitivity
		harness corpus sensitivity --config my-thresholds.yaml`, stderr)
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	configFile := configFlag(fs, new(string), "the weights and thresholds the table applies")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return wrongUsage(fs, "corpus sensitivity: unexpected arguments %q", fs.Args())
	}
	cfg, err := config.LoadOrDefault(*configFile)
	if err != nil {
		return err
	}
	set, _, err := task.LoadAll(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	return sensitivity.Write(stdout, sensitivity.Table(set, cfg))
}
