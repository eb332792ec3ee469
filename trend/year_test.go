package trend_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// offlineReport is the report of an offline run of the suite (the three
// offline models, one repeat, the offline judge), as harness run writes
// it, made once per suite.
func offlineReport(tb testing.TB, suite string) *report.Report {
	tb.Helper()
	made.Lock()
	defer made.Unlock()
	if r, ok := made.reports[suite]; ok {
		return r
	}
	dir, err := os.MkdirTemp("", "trend-year-")
	if err != nil {
		tb.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg := config.Default()
	cfg.Models, cfg.Judges, cfg.Repeats = []string{"offline/oracle", "offline/identity", "offline/noisy"}, config.Judges{Models: []string{"offline/judge"}}, 1
	in := transcript.Inputs{Suite: suite, CorpusDir: "corpus", InstructionsDir: "instructions", ReportDir: dir, NoPreflight: true}
	corpus, prompts, err := task.LoadAll(in.CorpusDir, in.InstructionsDir)
	if err != nil {
		tb.Fatal(err)
	}
	set, err := pipeline.SuiteSet(corpus, in)
	if err != nil {
		tb.Fatal(err)
	}
	o := pipeline.Options{Config: cfg, Set: set, Prompts: prompts, Conn: pipeline.ConnectionFrom(cfg, "", ""), Inputs: in,
		OutDir: dir, RunID: "r", Stdout: io.Discard}
	res, err := pipeline.Run(context.Background(), o)
	if err != nil && !errors.Is(err, pipeline.ErrVerdictFail) {
		tb.Fatal(err)
	}
	if made.reports == nil {
		made.reports = map[string]*report.Report{}
	}
	made.reports[suite] = res.Report
	return res.Report
}

var made struct {
	sync.Mutex
	reports map[string]*report.Report
}

// writeYear writes n nights of r into dir, a day apart but the last,
// which ran on the day of the one before it, each with its run id; vary
// may change a night. It returns their names, last first (not in date
// order).
func writeYear(tb testing.TB, dir string, r *report.Report, n int, vary func(i int, night *report.Report)) []string {
	tb.Helper()
	t0 := time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)
	var names []string
	for i := range n {
		night := *r
		at := t0.Add(time.Duration(i) * 24 * time.Hour)
		if i == n-1 {
			at = t0.Add(time.Duration(i-1)*24*time.Hour + 6*time.Hour)
		}
		night.RanAt, night.RunID = at.Format(time.RFC3339), fmt.Sprintf("night-%03d", i)
		if vary != nil {
			vary(i, &night)
		}
		b, err := report.MarshalJSON(&night)
		if err != nil {
			tb.Fatal(err)
		}
		name := filepath.Join(dir, night.RunID+".json")
		if err := os.WriteFile(name, b, 0o644); err != nil {
			tb.Fatal(err)
		}
		names = append([]string{name}, names...)
	}
	return names
}
