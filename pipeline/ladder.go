package pipeline

import (
	"io"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/task"
)

// LadderRequest is harness corpus ladder's command line: the directory to
// write to, the rungs and tasks as given, and the data directories.
type LadderRequest struct {
	Out, Rungs, Tasks, CorpusDir, TaskDir string
}

// WriteLadder builds the size ladder from the corpus (ladder.Build) and
// writes each rung's document and tasks into r.Out, a line per rung to w.
func WriteLadder(w io.Writer, r LadderRequest) error {
	c := ladder.Config{}
	var err error
	if c.Rungs, err = ladder.ParseRungs(r.Rungs); err != nil {
		return usage.Errorf("corpus ladder: --rungs: %v", err)
	}
	if c.Tasks = SplitList(r.Tasks); len(c.Tasks) == 0 {
		return usage.Errorf("corpus ladder: --tasks: no task given")
	}
	set, _, err := task.LoadDirs(r.CorpusDir, r.TaskDir)
	if err != nil {
		return err
	}
	rungs, err := ladder.Build(set, c)
	if err != nil {
		return usage.Errorf("corpus ladder: %v", err)
	}
	return ladder.Write(r.Out, rungs, w)
}
