package main

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestSearchReplaceEverySuite is issue 35's done-when on the suites, run
// as a user runs them: offline/oracle is lossless in search-replace in
// gating, natural, relay and the size ladder's smaller rungs (the 512k
// rung: TestSearchReplace512kRung, without -race), with no answer that
// failed to apply; offline/noisy is not lossless over them.
func TestSearchReplaceEverySuite(t *testing.T) {
	t.Parallel()
	noisyLossy := false
	for _, tt := range tabletest.Cases(t, []struct {
		suite  string
		extra  []string
		reason string
	}{
		{"gating", []string{"--classes", "b,c"}, "the gating suite's class B and C tasks, where search-replace is one answer format among others"},
		{"natural", nil, "the natural suite, whose tasks and instructions are not the gating suite's"},
		{"relay", []string{"--steps", "4", "--docs", "01,02,03,04,05,06,07,08"}, "a relay, where each step's search-replace edits the document the step before it made"},
		{"size", []string{"--rungs", "8k,32k"}, "the size ladder's smaller rungs, where the text to search grows with the rung"},
	}) {
		rows := runFormats(t, tt.suite, append(tt.extra, "--formats", "document,search-replace")...)
		seen := 0
		for _, r := range rows {
			if r.Format != "search-replace" {
				continue
			}
			seen++
			if r.Scored == 0 || r.Scored != r.Planned || r.Lossless == nil {
				t.Errorf("%s %s %s: %d of %d scored", tt.suite, r.Rung, r.Model, r.Scored, r.Planned)
				continue
			}
			switch {
			case r.Model == "offline/oracle" && (*r.Lossless != 1 || r.FailedToApply != 0):
				t.Errorf("%s %s: the oracle's search-replace answers: lossless %v, %d failed to apply; want all lossless", tt.suite, r.Rung, *r.Lossless, r.FailedToApply)
			case r.Model == "offline/noisy" && *r.Lossless < 1:
				noisyLossy = true
			}
		}
		if seen < 2 {
			t.Errorf("%s: %d search-replace rows, want one per model (and rung)", tt.suite, seen)
		}
	}
	if !noisyLossy {
		t.Error("offline/noisy is lossless in search-replace everywhere; want its slips to show")
	}
}
