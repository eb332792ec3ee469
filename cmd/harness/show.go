package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/cmd/harness/internal/suggest"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/transcript"
)

// cmdShow prints one transcript of a run as a person reads it.
func cmdShow(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("show", "show [--model M] [--repeat R] RUN TASK", `
		harness show --model offline/oracle runs/demo 03-b
		harness show --model offline/noisy demo 17-c     # RUN may be a run id in runs/`, stderr)
	modelFlag := fs.String("model", "", "the model whose answer to show (needed when the run has several)")
	repeat := fs.Int("repeat", 0, "the repeat to show, from 0")
	corpusDir, taskDir := corpusFlag(fs, new(string), ""), instructionsFlag(fs, new(string), "")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usage.Errorf("show: give a run (directory or id) and a task id (harness show -h for help)")
	}
	return showRun(stdout, showRequest{run: fs.Arg(0), model: *modelFlag, taskID: fs.Arg(1), repeat: *repeat, corpusDir: *corpusDir, taskDir: *taskDir})
}

// showRequest is harness show's command line.
type showRequest struct {
	// run is a run directory, or the id of a run in runs/.
	run string
	// model may be "" when the run has one model.
	model, taskID string
	repeat        int
	// corpusDir and taskDir are the data directories; "" is the run's.
	corpusDir, taskDir string
}

// showRun finds the run and the answer a request names, refusing (with
// the nearest task id, when one is close) a model, task or repeat the run
// does not have, and shows the answer (pipeline.Show).
func showRun(w io.Writer, r showRequest) error {
	runDir, err := runDirOf("show", r.run)
	if err != nil {
		return err
	}
	m, cfg, err := pipeline.ReadRun(runDir)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	mod := r.model
	if mod == "" && len(m.Models) == 1 {
		mod = m.Models[0]
	}
	if err := checkShown(m, mod, r.taskID, r.repeat); err != nil {
		return err
	}
	return pipeline.Show(w, pipeline.ShowOptions{RunDir: runDir, Manifest: m, Config: cfg, Model: mod, TaskID: r.taskID, Repeat: r.repeat,
		CorpusDir: cmp.Or(r.corpusDir, m.Inputs.CorpusDir, "corpus"), TaskDir: cmp.Or(r.taskDir, m.Inputs.InstructionsDir, "instructions")})
}

// checkShown refuses a model, task or repeat that the run m does not have.
func checkShown(m *transcript.Manifest, mod, id string, repeat int) error {
	switch {
	case mod == "":
		return usage.Errorf("show: the run has %d models (%s): pick one with --model", len(m.Models), strings.Join(m.Models, ", "))
	case !slices.Contains(m.Models, mod):
		return usage.Errorf("show: the run has no model %q (it has %s)", mod, strings.Join(m.Models, ", "))
	case !slices.Contains(m.TaskIDs, id):
		if near := suggest.Nearest(id, m.TaskIDs); near != "" {
			return usage.Errorf("show: the run has no task %q; did you mean %q?", id, near)
		}
		return usage.Errorf("show: the run has no task %q", id)
	case repeat < 0 || repeat >= m.Repeats:
		return usage.Errorf("show: --repeat takes 0 to %d for this run, not %d", m.Repeats-1, repeat)
	}
	return nil
}
