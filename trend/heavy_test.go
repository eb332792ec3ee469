//go:build !race

package trend

import (
	"fmt"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestNoiseNightsRaiseNoFlag: forty trends of twenty noise-only nights
// each (the same three synthetic models at --repeats 3, only the seed
// differing) flag a change in at most 5 (each trend's chance of any false
// flag is at most 5%, its whole window adjusted together: 2 expected, 6
// or more by chance 5% of the time). Adjusted
// night by night, such trends flagged a change more often than not (55%
// in the simulation); and the window's tests are one family:
// Report.Tests is every night's tests.
func TestNoiseNightsRaiseNoFlag(t *testing.T) {
	t.Parallel()
	models := []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"}
	night := func(trend, seed int) *report.Report {
		s := scoringtest.Synthetic{Models: models, Repeats: 3, Answer: func(model, id string, r int) (float64, bool, string) {
			u := scoringtest.Jitter("drift", trend, seed, model, id, r)
			d := 0.0
			if u > 0.5 {
				d = (u - 0.5) * 0.4
			}
			return d, scoringtest.Jitter("faithful", trend, seed, model, id, r) < 0.9, scoring.StatusScored
		}}
		run := s.Run()
		m := *run.Manifest
		m.Seed, m.StartedAt = int64(seed), scoringtest.T0.Add(time.Duration(seed)*24*time.Hour)
		run.Manifest = &m
		return aggregate.Build(aggregate.Input{Manifest: run.Manifest, Config: run.Config, Scores: run.Scores})
	}
	flagged := 0
	for tr := range 40 {
		var reps []*report.Report
		var names []string
		for s := range 20 {
			reps, names = append(reps, night(tr, s)), append(names, fmt.Sprint(s))
		}
		r := Of(reps, names)
		sum := 0
		for _, n := range r.Reports {
			sum += n.Tests
		}
		if sum != r.Tests || r.Tests == 0 {
			t.Fatalf("trend %d: %d tests in the window, %d over its nights", tr, r.Tests, sum)
		}
	series:
		for _, s := range r.Series {
			for _, p := range s.Points {
				if p.Change == "better" || p.Change == "worse" || p.LosslessChange == "better" || p.LosslessChange == "worse" {
					flagged++
					break series
				}
			}
		}
	}
	if flagged > 5 {
		t.Errorf("%d of 40 noise-only trends flag a change; want at most 5", flagged)
	}
	t.Logf("%d of 40 noise-only trends of 20 nights flag a change", flagged)
}
