package pipeline

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/suggest"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// ShowOptions name one answer of an archived run, and the data it is
// scored against.
type ShowOptions struct {
	RunDir   string
	Manifest *transcript.Manifest
	Config   *config.Config
	// Model, TaskID and Repeat name the answer; the caller has checked
	// that the run has them.
	Model, TaskID string
	Repeat        int
	// CorpusDir and TaskDir are the data directories (task.OpenDirs).
	CorpusDir, TaskDir string
}

// Show writes one answer of a run as a person reads it
// (report.WriteTranscript), scored as rescore scores it: the same score
// phase over the one slot.
func Show(w io.Writer, o ShowOptions) error {
	m := o.Manifest
	corpusSet, _, err := task.LoadDirs(o.CorpusDir, o.TaskDir)
	if err != nil {
		return err
	}
	set, err := SuiteSet(corpusSet, m.Inputs)
	if err != nil {
		return err
	}
	var answer *transcript.Transcript
	plan := scoring.Plan{Models: []string{o.Model}, TaskIDs: []string{o.TaskID}, Repeats: m.Repeats, Feedback: m.Inputs.Feedback}
	scores, err := scoring.Stream(set, plan, scoring.Archive(o.RunDir, m.RunID, m.Judges), o.Config.Weights, func(slot int, s *scoring.Score, a *transcript.Transcript) {
		if slot == o.Repeat {
			answer = a
		}
	})
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	fmt.Fprintf(w, "run %s\n", o.RunDir)
	return render.WriteTranscript(w, scores[o.Repeat], set.Task(o.TaskID), answer)
}

// ShowRequest is harness show's command line.
type ShowRequest struct {
	// Run is a run directory, or the id of a run in runs/.
	Run string
	// Model may be "" when the run has one model.
	Model, TaskID string
	Repeat        int
	// CorpusDir and TaskDir are the data directories; "" is the run's.
	CorpusDir, TaskDir string
}

// ShowRun finds the run and the answer a request names, refusing (with
// the nearest task id, when one is close) a model, task or repeat the run
// does not have, and shows the answer (Show).
func ShowRun(w io.Writer, r ShowRequest) error {
	runDir := r.Run
	if _, err := os.Stat(filepath.Join(runDir, transcript.ManifestName)); err != nil && !strings.ContainsRune(runDir, filepath.Separator) {
		runDir = filepath.Join("runs", runDir)
	}
	m, cfg, err := ReadRun(runDir)
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	mod, id := r.Model, r.TaskID
	if mod == "" && len(m.Models) == 1 {
		mod = m.Models[0]
	}
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
	case r.Repeat < 0 || r.Repeat >= m.Repeats:
		return usage.Errorf("show: --repeat takes 0 to %d for this run, not %d", m.Repeats-1, r.Repeat)
	}
	return Show(w, ShowOptions{RunDir: runDir, Manifest: m, Config: cfg, Model: mod, TaskID: id, Repeat: r.Repeat,
		CorpusDir: cmp.Or(r.CorpusDir, m.Inputs.CorpusDir, "corpus"), TaskDir: cmp.Or(r.TaskDir, m.Inputs.InstructionsDir, "instructions")})
}
