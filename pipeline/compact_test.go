package pipeline

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/viewer"
)

// TestCompactScoresSameReports checks that the score phase keeping only
// each score's Compact form, with the whole score spooled for the viewer
// (issue 55), writes the very reports that the whole scores write: every
// file of a rescore of an offline run (3 models, the gating suite, the
// offline judge: class A verdicts, class B and C metrics) is compared
// byte for byte with the reports of the same scores kept whole.
func TestCompactScoresSameReports(t *testing.T) {
	dir := t.TempDir()
	offlineRun(t, dir, 1)
	runDir := filepath.Join(dir, "r")
	at := time.Date(2026, 11, 29, 4, 0, 0, 0, time.UTC)
	compact := t.TempDir()
	if _, err := Rescore(RescoreOptions{RunDir: runDir, ReportDir: compact, Now: func() time.Time { return at }}); err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}

	// The same score phase, keeping every score whole.
	m, cfg, err := ReadRun(runDir)
	if err != nil {
		t.Fatal(err)
	}
	corpus, _, err := task.LoadAll("", "")
	if err != nil {
		t.Fatal(err)
	}
	set, err := SuiteSet(corpus, m.Inputs)
	if err != nil {
		t.Fatal(err)
	}
	integrity, err := CheckSeal(runDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := t.TempDir()
	m.Inputs.ReportDir = whole
	o := ScoreOptions{RunDir: runDir, Manifest: m, Config: cfg, Set: set, RescoredAt: &at, Integrity: integrity}
	outputs, err := viewer.NewSpool(len(m.Models) * len(m.TaskIDs) * m.Repeats)
	if err != nil {
		t.Fatal(err)
	}
	defer outputs.Close()
	plan := scoring.Plan{Models: m.Models, TaskIDs: m.TaskIDs, Repeats: m.Repeats, Feedback: m.Inputs.Feedback, Canonical: m.CanonicalSlugs()}
	scores, err := scoring.Stream(set, plan, o.source(), cfg.Weights, func(slot int, s *scoring.Score, out scoring.Output) {
		outputs.Put(slot, viewer.OutputOf(*s, set.Task(s.TaskID), out))
	})
	if err != nil {
		t.Fatal(err)
	}
	evidence := 0
	for _, s := range scores {
		if s.Metric != nil && len(s.Metric.Diagnostics) > 0 || s.Judge != nil && len(s.Judge.Votes) > 0 {
			evidence++
		}
	}
	if evidence == 0 {
		t.Fatal("no score holds evidence that Compact drops: the test shows nothing")
	}
	if _, err := o.report(context.Background(), scores, outputs); err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}

	names, err := filepath.Glob(filepath.Join(whole, m.RunID+".*"))
	if err != nil || len(names) < 5 {
		t.Fatalf("the whole scores' reports: %v, %v", names, err)
	}
	for _, name := range names {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(compact, filepath.Base(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the report of the whole scores", filepath.Base(name))
		}
	}
}

// TestSoftMemoryLimit checks that the score phase sets its soft memory
// limit only when none is set ($GOMEMLIMIT is the user's), and puts the
// limit back after.
func TestSoftMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	t.Setenv("GOMEMLIMIT", "")
	debug.SetMemoryLimit(math.MaxInt64)
	restore := softMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != ScoreMemoryLimit {
		t.Errorf("with no limit set, the score phase's limit is %d, want %d", got, ScoreMemoryLimit)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("after the score phase the limit is %d, want none", got)
	}
	debug.SetMemoryLimit(1 << 30)
	restore = softMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("with the user's limit set, the score phase's limit is %d, want the user's %d", got, 1<<30)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("after the score phase the user's limit is %d, want %d", got, 1<<30)
	}
	t.Setenv("GOMEMLIMIT", "off")
	debug.SetMemoryLimit(math.MaxInt64)
	restore = softMemoryLimit()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT=off, the score phase's limit is %d, want none", got)
	}
	restore()
}
