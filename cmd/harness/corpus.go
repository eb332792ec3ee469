package main

import (
	"context"
	"fmt"
	"io"

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
