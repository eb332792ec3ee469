package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/task"
)

func cmdExpect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("expect", "expect --task FILE [--corpus DIR]", `
		harness expect --task instructions/03-b.json
		harness expect --task instructions/16-c.json > expected.bend.json
		harness id --write expected.bend.json   # the expected document keeps the source's declared id, which id --check reports as stale: this gives it its own
		harness expect --task instructions/natural/03-b.json
		harness expect --task instructions/inverse/03-b.json
		harness expect --task size-ladder/8k.tasks.json --id 8k-start-02-b   # after harness corpus ladder --out size-ladder`, stderr)
	taskFile, taskID := taskFileFlags(fs)
	corpusDir := corpusFlag(fs, new(string), "corpus")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *taskFile == "" || fs.NArg() > 0 {
		return wrongUsage(fs, "expect: give one --task")
	}
	t, err := task.FromFile(*taskFile, *corpusDir, *taskID)
	if err != nil {
		return err
	}
	if t.Expected == nil {
		return usage.Errorf("expect: task %s is class %s: it has no expected document", t.ID, t.Class)
	}
	_, err = stdout.Write(bend.Marshal(t.Expected))
	return err
}
