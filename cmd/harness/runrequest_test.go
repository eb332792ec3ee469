package main

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/suites"
)

// TestRunRequestCheck: a flag value that cannot mean anything is refused,
// naming the flag, before any file is read; a flag's default value, not
// given, is never checked.
func TestRunRequestCheck(t *testing.T) {
	ok := func() runRequest {
		r := runRequest{ProgressMode: "auto", Format: "text", Given: map[string]string{}}
		r.Inputs.Suite = suites.Gating
		return r
	}
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		edit   func(r *runRequest)
		want   string
		reason string
	}{
		{"defaults", func(r *runRequest) {}, "", "the flags' defaults are a valid run"},
		{"repeats", func(r *runRequest) { r.Repeats, r.Given["repeats"] = 0, "0" }, "--repeats takes a whole number from 1", "a given count is checked even at its zero value"},
		{"models", func(r *runRequest) { r.Models, r.Given["models"] = " , ", " , " }, "--models takes a comma-separated list", "a list of nothing is no list"},
		{"steps-suite", func(r *runRequest) { r.Inputs.Steps, r.Given["steps"] = 4, "4" }, "--steps goes with --suite relay", "a suite's flag on another suite means nothing"},
		{"max-cost", func(r *runRequest) { r.MaxCost, r.Given["max-cost"] = -1, "-1" }, "--max-cost takes a positive number", "a cap must be above zero"},
		{"resume-selection", func(r *runRequest) { r.ResumeDir, r.Given["resume"], r.Given["tasks"] = "runs/x", "runs/x", "03-b" }, "the run's selection is in its manifest", "a resume cannot change what the run selected"},
		{"format", func(r *runRequest) { r.Format = "yaml" }, "--format takes text or json", "an unknown output format"},
	}) {
		r := ok()
		tc.edit(&r)
		err := r.check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: error %v, want %q: %s", tc.name, err, tc.want, tc.reason)
		}
	}
}
