package pipeline

import (
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/viewer"
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
// (viewer.WriteTranscript), scored as rescore scores it: the same score
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
	var answer scoring.Output
	plan := scoring.Plan{Models: []string{o.Model}, TaskIDs: []string{o.TaskID}, Repeats: m.Repeats, Feedback: m.Inputs.Feedback, Canonical: m.CanonicalSlugs()}
	scores, err := scoring.Stream(set, plan, scoring.Archive(o.RunDir, m.RunID, m.Judges), o.Config.Weights, func(slot int, s *scoring.Score, a scoring.Output) {
		if slot == o.Repeat {
			answer = a
		}
	})
	if err != nil {
		return fmt.Errorf("show: %w", err)
	}
	fmt.Fprintf(w, "run %s\n", o.RunDir)
	return viewer.WriteTranscript(w, scores[o.Repeat], set.Task(o.TaskID), answer)
}
