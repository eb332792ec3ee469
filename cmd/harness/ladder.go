package main

import (
	"context"
	"io"
	"strings"

	"bendscript.com/round-trip-harness/ladder"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/task"
)

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
		fs.Usage()
		return usageError("corpus ladder: give --out DIR and no arguments")
	}
	c := ladder.Config{}
	var err error
	if c.Sizes, err = ladder.ParseSizes(*sizes); err != nil {
		return usageError("corpus ladder: --sizes: %v", err)
	}
	if c.Tasks = pipeline.SplitList(*tasks); len(c.Tasks) == 0 {
		return usageError("corpus ladder: --tasks: no task given")
	}
	set, _, err := task.LoadDirs(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	rungs, err := ladder.Build(set, c)
	if err != nil {
		return usageError("corpus ladder: %v", err)
	}
	return ladder.Write(*out, rungs, stdout)
}
