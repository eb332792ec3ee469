package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/task"
)

// dataFS returns the directory dir as a file system, or the embedded copy
// when dir is "" or is not a directory; the name says which.
func dataFS(dir string, embedded fs.FS) (fs.FS, string) {
	if dir != "" {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return os.DirFS(dir), dir
		}
	}
	return embedded, "(embedded)"
}

// loadTasks loads the corpus and tasks; every problem is an error.
func loadTasks(corpusDir, taskDir string) (*task.Set, *task.Prompts, error) {
	cfs, _ := dataFS(corpusDir, corpus.FS)
	tfs, _ := dataFS(taskDir, instructions.FS)
	set, probs := task.Load(cfs, tfs)
	if len(probs) > 0 {
		lines := make([]string, len(probs))
		for i, p := range probs {
			lines[i] = p.String()
		}
		return nil, nil, &exitError{exitCantRun, fmt.Errorf("the corpus or tasks have problems (run harness corpus check):\n%s", strings.Join(lines, "\n"))}
	}
	prompts, err := task.LoadPrompts(tfs)
	if err != nil {
		return nil, nil, &exitError{exitCantRun, err}
	}
	return set, prompts, nil
}

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
	corpusDir := fs.String("corpus", "corpus", "directory of corpus documents (the embedded corpus when it does not exist)")
	taskDir := fs.String("instructions", "instructions", "directory of tasks and prompts/ (the embedded tasks when it does not exist)")
	if len(args) == 0 || args[0] != "check" {
		fs.Usage()
		return usageError("corpus: the subcommands are check, ladder and sensitivity")
	}
	if help, err := parseFlags(fs, args[1:]); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return usageError("corpus check: unexpected arguments %q", fs.Args())
	}
	cfs, cname := dataFS(*corpusDir, corpus.FS)
	tfs, tname := dataFS(*taskDir, instructions.FS)
	set, probs := task.Load(cfs, tfs)
	probs = append(probs, task.Check(set)...)
	if _, err := task.LoadPrompts(tfs); err != nil {
		probs = append(probs, task.Problem{File: tname, Msg: err.Error()})
	}
	for _, p := range probs {
		fmt.Fprintln(stdout, p)
	}
	if len(probs) > 0 {
		fmt.Fprintf(stderr, "corpus check: %d problems (corpus %s, tasks %s)\n", len(probs), cname, tname)
		return failed()
	}
	fmt.Fprintf(stdout, "ok: %d documents, %d tasks, %d gold edits applied and checked, %d inverse edits restore their sources exactly, %d natural tasks determine their edits (corpus %s, tasks %s)\n",
		len(set.Documents), len(set.Tasks), countEdits(set), len(set.Inverse), len(set.Natural), cname, tname)
	return nil
}

func countEdits(s *task.Set) int {
	n := 0
	for _, t := range s.Tasks {
		if t.Expected != nil {
			n++
		}
	}
	return n
}

func cmdExpect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("expect", "expect --task FILE [--corpus DIR]", `
		harness expect --task instructions/03-b.json
		harness expect --task instructions/16-c.json > expected.bend.json
		harness expect --task instructions/natural/03-b.json
		harness expect --task instructions/inverse/03-b.json
		harness expect --task ladder/8k.tasks.json --id 8k-start-02-b`, stderr)
	taskFile := fs.String("task", "", "the task file: a gating, natural (natural/NN-x.json), inverse (inverse/NN-x.json) or size-ladder (<rung>.tasks.json) task")
	corpusDir := fs.String("corpus", "corpus", "directory of corpus documents (the embedded corpus when it does not exist)")
	taskID := fs.String("id", "", "the task of a size-ladder tasks file (<rung>.tasks.json) holding several")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *taskFile == "" || fs.NArg() > 0 {
		fs.Usage()
		return usageError("expect: give one --task")
	}
	t, err := findTask(*taskFile, *corpusDir, *taskID)
	if err != nil {
		return err
	}
	if t.Expected == nil {
		return usageError("expect: task %s is class %s: it has no expected document", t.ID, t.Class)
	}
	_, err = stdout.Write(bend.Marshal(t.Expected))
	return err
}
