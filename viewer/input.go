package viewer

import (
	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/transcript"
)

// Input is what the page shows beside a report: the report's own input
// (the task set gives the instructions and expected documents) and the
// model outputs, for the page's diffs.
type Input struct {
	aggregate.Input
	// Transcripts are the outputs, in the order of Scores; nil when not
	// at hand (the page says so).
	Transcripts []*transcript.Transcript
	// Outputs, when not nil, replace Transcripts: its slot i is what the
	// page shows of Scores[i]'s answer (OutputOf), computed while
	// scoring and spooled, so that neither the transcripts nor their
	// diffs are held.
	Outputs *Spool
}
