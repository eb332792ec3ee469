package viewer

import (
	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/scoring"
)

// Input is what the page shows beside a report: the report's own input
// (the task set gives the instructions and expected documents) and the
// model outputs, for the page's diffs.
type Input struct {
	aggregate.Input
	// Answers are the answers scored (scoring.Output: the transcript and
	// the document it made), slot i Scores[i]'s; nil when not at hand (the
	// page says so).
	Answers []scoring.Output
	// Outputs, when not nil, replace Answers: its slot i is what the
	// page shows of Scores[i]'s answer (OutputOf), computed while
	// scoring and spooled, so that neither the transcripts nor their
	// diffs are held.
	Outputs *Spool
}
