package scoring

import (
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// scoreOne scores one answer transcript (nil when missing) with its judge
// transcripts, as the score phase does (oneOutput, its panic recovered),
// without the Output.
func scoreOne(t *task.Task, modelID string, repeat int, tr *transcript.Transcript, judges []*transcript.Transcript, w metric.Weights) Score {
	s, _ := oneOutput(t, modelID, repeat, tr, judges, w)
	return s
}
