package main

import (
	"testing"
)

// TestSearchReplaceEverySuite is issue 35's done-when on the suites, run
// as a user runs them: offline/oracle is lossless in search-replace in
// gating, natural, relay and the size ladder's smaller rungs (the 512k
// rung: TestSearchReplace512kRung, without -race), with no answer that
// failed to apply; offline/noisy is not lossless over them.
func TestSearchReplaceEverySuite(t *testing.T) {
	t.Parallel()
	noisyLossy := false
	for _, tt := range []struct {
		suite string
		extra []string
	}{
		{"gating", []string{"--classes", "b,c"}},
		{"natural", nil},
		{"relay", []string{"--steps", "4", "--docs", "01,02,03,04,05,06,07,08"}},
		{"size", []string{"--rungs", "8k,32k"}},
	} {
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
