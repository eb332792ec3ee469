package report

import (
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/scoring"
)

// formatName is a score's answer format as the report names it: a score
// that names none answered with the whole document.
func formatName(s *scoring.Score) string { return formats.Of(s.Format).Name }
