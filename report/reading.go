package report

import "bendscript.com/round-trip-harness/verdict"

// The reading's records are the verdict package's; the report carries them
// (Report.Eligibility, Report.Reading) as its schema.
type (
	Eligibility  = verdict.Eligibility
	Reading      = verdict.Reading
	ModelReading = verdict.ModelReading
	Check        = verdict.Check
	Over         = verdict.Over
)

// The outcomes of §8.5's reading and the standings of a model
// (verdict.Reading).
const (
	ReadingPass            = verdict.ReadingPass
	ReadingWeakness        = verdict.ReadingWeakness
	ReadingProtocolFailure = verdict.ReadingProtocolFailure
	ReadingInconclusive    = verdict.ReadingInconclusive
	StandingClean          = verdict.StandingClean
	StandingPasses         = verdict.StandingPasses
	StandingNarrow         = verdict.StandingNarrow
	StandingFails          = verdict.StandingFails
	StandingUnproven       = verdict.StandingUnproven
	NarrowDocuments        = verdict.NarrowDocuments
)
