package main

import (
	"context"
	"errors"
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

// The default data directories: when the one of these names does not
// exist, the embedded copy stands in for it.
const (
	defaultCorpusDir = "corpus"
	defaultTaskDir   = "instructions"
)

// dataFS returns the directory dir as a file system; the name says which.
// The embedded copy stands in only for "" and for the default name def
// (the flags' defaults, so a run outside the repository uses the embedded
// corpus): any other directory that is not one is an error, never a
// silent fallback, or a user would believe their corpus was tested.
func dataFS(dir, def string, embedded fs.FS) (fs.FS, string, error) {
	if dir == "" {
		return embedded, "(embedded)", nil
	}
	st, err := os.Stat(dir)
	switch {
	case err == nil && st.IsDir():
		return os.DirFS(dir), dir, nil
	case dir == def && errors.Is(err, fs.ErrNotExist):
		return embedded, "(embedded)", nil
	case err == nil:
		err = errors.New("not a directory")
	}
	return nil, "", usageError("%s: %v (the embedded data stands in only for ./%s)", dir, err, def)
}

// dataFSes opens the corpus and task directories.
func dataFSes(corpusDir, taskDir string) (cfs, tfs fs.FS, cname, tname string, err error) {
	if cfs, cname, err = dataFS(corpusDir, defaultCorpusDir, corpus.FS); err != nil {
		return nil, nil, "", "", err
	}
	tfs, tname, err = dataFS(taskDir, defaultTaskDir, instructions.FS)
	return cfs, tfs, cname, tname, err
}

// loadTasks loads the corpus and tasks; every problem is an error.
func loadTasks(corpusDir, taskDir string) (*task.Set, *task.Prompts, error) {
	cfs, tfs, _, _, err := dataFSes(corpusDir, taskDir)
	if err != nil {
		return nil, nil, err
	}
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
	corpusDir := fs.String("corpus", "corpus", "directory of corpus documents (the embedded corpus when ./corpus does not exist)")
	taskDir := fs.String("instructions", "instructions", "directory of tasks and prompts/ (the embedded tasks when ./instructions does not exist)")
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
	cfs, tfs, cname, tname, err := dataFSes(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
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
	corpusDir := fs.String("corpus", "corpus", "directory of corpus documents (the embedded corpus when ./corpus does not exist)")
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
