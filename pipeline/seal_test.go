package pipeline

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/verdict"
)

// TestSealVerifies: a seal verifies with its key and only then: an edited,
// added or removed file, or another key, breaks it; a run without a seal
// is unsealed, and one rescored without the key says it was not verified.
func TestSealVerifies(t *testing.T) {
	t.Parallel()
	key := []byte("k")
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		change func(dir string)
		key    []byte
		want   string
		broken bool
		reason string
	}{
		{"intact", func(string) {}, key, "sealed with HARNESS_SEAL_KEY over 2 files: verified", false, "nothing changed"},
		{"edited", func(d string) { os.WriteFile(filepath.Join(d, "m", "a.json"), []byte("{}"), 0o644) }, key, "", true, "an edited transcript, whatever its own hash says"},
		{"added", func(d string) { os.WriteFile(filepath.Join(d, "m", "b.json"), []byte("{}"), 0o644) }, key, "", true, "a transcript added"},
		{"removed", func(d string) { os.Remove(filepath.Join(d, "m", "a.json")) }, key, "", true, "a transcript removed"},
		{"other key", func(string) {}, []byte("other"), "", true, "a seal made with another key"},
		{"no key", func(d string) { os.WriteFile(filepath.Join(d, "m", "a.json"), []byte("{}"), 0o644) }, nil, SealedUnchecked, false, "without the key nothing can be verified, and the report says so"},
		{"unsealed", func(d string) { os.Remove(filepath.Join(d, SealName)) }, key, Unsealed, false, "no seal: unsealed"},
	}) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "m"), 0o755)
		os.WriteFile(filepath.Join(dir, "run.json"), []byte(`{"run_id":"x"}`), 0o644)
		os.WriteFile(filepath.Join(dir, "m", "a.json"), []byte(`{"a":1}`), 0o644)
		if _, err := Seal(dir, key); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, LockName), nil, 0o644) // the lock is not sealed
		c.change(dir)
		got, err := CheckSeal(dir, c.key)
		if c.broken != errors.Is(err, ErrSealBroken) || !c.broken && (err != nil || got != c.want) {
			t.Errorf("%s: %q, %v; want %q, broken %v (%s)", c.name, got, err, c.want, c.broken, c.reason)
		}
	}
}

// TestRecordedKeepsWhatARescoreReads: the recorded report a rescore
// holds is its run id, integrity, verdict, reading's outcome and
// failures, not the results, which grow with the answers (issue 55).
func TestRecordedKeepsWhatARescoreReads(t *testing.T) {
	dir := t.TempDir()
	rep := &report.Report{Schema: report.SchemaVersion, RunID: "r", Integrity: "sealed with HARNESS_SEAL_KEY over 3 files: verified", Verdict: report.Fail,
		Results:  map[string]*report.ModelResult{"m": {}},
		Reading:  verdict.Reading{Outcome: verdict.ReadingWeakness, Why: "a long sentence", Models: make([]verdict.ModelReading, 3)},
		Failures: []verdict.Failure{{Model: "m", Metric: "class_b_median_drift"}}}
	var b bytes.Buffer
	if err := report.WriteJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "r.json"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got := recorded(&transcript.Manifest{RunID: "r", Inputs: transcript.Inputs{ReportDir: dir}})
	if got == nil {
		t.Fatal("recorded read nothing")
	}
	if got.RunID != "r" || got.Integrity != rep.Integrity || got.Verdict != report.Fail || got.Reading.Outcome != verdict.ReadingWeakness || len(got.Failures) != 1 {
		t.Errorf("recorded kept %+v: want the run id, integrity, verdict, reading outcome and failures", got)
	}
	if got.Results != nil || got.Reading.Why != "" || got.Reading.Models != nil {
		t.Errorf("recorded kept the results or the reading's detail: %+v", got)
	}
}
