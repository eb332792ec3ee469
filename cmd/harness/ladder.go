package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/ladder"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
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
	corpusDir := fs.String("corpus", "corpus", "directory of corpus documents (the embedded corpus when ./corpus does not exist; any other directory must exist)")
	taskDir := fs.String("instructions", "instructions", "directory of tasks (the embedded tasks when ./instructions does not exist; any other directory must exist)")
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
	for _, id := range strings.Split(*tasks, ",") {
		if id = strings.TrimSpace(id); id != "" {
			c.Tasks = append(c.Tasks, id)
		}
	}
	if len(c.Tasks) == 0 {
		return usageError("corpus ladder: --tasks: no task given")
	}
	set, err := loadSet(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	rungs, err := ladder.Build(set, c)
	if err != nil {
		return usageError("corpus ladder: %v", err)
	}
	for _, r := range rungs {
		tasksJSON, err := ladder.TasksJSON(r)
		if err != nil {
			return &exitError{exitCantRun, err}
		}
		for _, f := range []struct {
			name string
			data []byte
		}{{r.File(), r.Bytes}, {r.TasksFile(), tasksJSON}} {
			if err := transcript.WriteFileAtomic(filepath.Join(*out, f.name), f.data); err != nil {
				return &exitError{exitCantRun, err}
			}
		}
		fmt.Fprintf(stdout, "%s\t%d bytes\t%d blocks\t%d tasks\t%s\n", r.Name, len(r.Bytes), ladder.CountBlocks(r.Doc), len(r.Tasks), r.Doc.ID)
	}
	return nil
}

// loadSet loads the corpus and tasks without the prompts, which the ladder
// does not need; every problem is an error.
func loadSet(corpusDir, taskDir string) (*task.Set, error) {
	cfs, tfs, _, _, err := dataFSes(corpusDir, taskDir)
	if err != nil {
		return nil, err
	}
	set, probs := task.Load(cfs, tfs)
	if len(probs) > 0 {
		lines := make([]string, len(probs))
		for i, p := range probs {
			lines[i] = p.String()
		}
		return nil, &exitError{exitCantRun, fmt.Errorf("the corpus or tasks have problems (run harness corpus check):\n%s", strings.Join(lines, "\n"))}
	}
	return set, nil
}
