package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// formatRow is the part of a report's format row the tests read.
type formatRow struct {
	Model         string
	Suite         string
	Rung          string
	Format        string
	Planned       int
	Scored        int
	Lossless      *float64
	FailedToApply int      `json:"failed_to_apply"`
	AnswerBytes   int64    `json:"answer_bytes"`
	MedianDrift   *float64 `json:"median_drift"`
}

// runFormats runs a suite with every answer format and returns its
// report's format rows.
func runFormats(t *testing.T, suite string, extra ...string) []formatRow {
	t.Helper()
	dir := t.TempDir()
	reports := filepath.Join(dir, "reports")
	args := append([]string{"run", "--suite", suite, "--formats", "document,json-patch,bend-ops", "--models", "offline/oracle,offline/noisy",
		"--judges", "offline/judge", "--no-preflight", "--progress", "none", "--run-id", "f", "--out", filepath.Join(dir, "runs"), "--reports", reports}, extra...)
	out, errs, code := runCLI(t, args...)
	if code > 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(reports, "f.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct{ Formats []formatRow }
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"f.md", "f.html"} {
		b, _ := os.ReadFile(filepath.Join(reports, name))
		if !strings.Contains(string(b), "Answer formats") {
			t.Errorf("%s has no answer-format section", name)
		}
	}
	return rep.Formats
}

// checkFormats: every (model, format) has a row with answers; the oracle
// is lossless in every format, with no patch that failed to apply; the
// noisy model is not lossless in any format (over the suite: a size rung
// has too few answers to be sure of a slip in each).
func checkFormats(t *testing.T, rows []formatRow) {
	t.Helper()
	seen, slipped := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		seen[r.Model+" "+r.Format] = true
		if r.Scored == 0 || r.Scored != r.Planned || r.Lossless == nil {
			t.Errorf("%s %s %s%s: %d of %d scored", r.Model, r.Format, r.Suite, r.Rung, r.Scored, r.Planned)
			continue
		}
		switch r.Model {
		case "offline/oracle":
			if *r.Lossless != 1 || r.FailedToApply != 0 || *r.MedianDrift != 0 {
				t.Errorf("offline/oracle, %s (%s %s): lossless %v, %d failed to apply, median drift %v; want every answer lossless",
					r.Format, r.Suite, r.Rung, *r.Lossless, r.FailedToApply, *r.MedianDrift)
			}
		case "offline/noisy":
			if *r.Lossless < 1 {
				slipped[r.Format] = true
			}
		}
	}
	for _, f := range []string{"document", "json-patch", "bend-ops"} {
		if !slipped[f] {
			t.Errorf("offline/noisy, %s: every answer lossless; want its slips to show", f)
		}
	}
	for _, m := range []string{"offline/oracle", "offline/noisy"} {
		for _, f := range []string{"document", "json-patch", "bend-ops"} {
			if !seen[m+" "+f] {
				t.Errorf("no row for %s in %s", m, f)
			}
		}
	}
}

// TestFormatsGatingAndRelay: the done-when on the gating suite and
// on a relay of 4 steps (each step given the document its predecessor's
// patch made).
func TestFormatsGatingAndRelay(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		suite string
		extra []string
	}{{"gating", nil}, {"relay", []string{"--steps", "4"}}} {
		t.Run(tt.suite, func(t *testing.T) {
			t.Parallel()
			checkFormats(t, runFormats(t, tt.suite, tt.extra...))
		})
	}
}

// TestFormatsSizeLadder: on the 512k rung the oracle's patch answers are
// under 1% of its whole-document answers' bytes, and the report's rows say
// so per rung.
func TestFormatsSizeLadder(t *testing.T) {
	t.Parallel()
	rows := runFormats(t, "size", "--rungs", "8k,512k")
	checkFormats(t, rows)
	bytes := map[string]int64{}
	for _, r := range rows {
		if r.Model == "offline/oracle" && r.Rung == "512k" {
			bytes[r.Format] = r.AnswerBytes
		}
	}
	doc := bytes["document"]
	for _, f := range []string{"json-patch", "bend-ops"} {
		if doc == 0 || bytes[f] == 0 || bytes[f]*100 >= doc {
			t.Errorf("512k rung: the oracle's %s answers are %d bytes against %d for whole documents; want under 1%%", f, bytes[f], doc)
		}
	}
}

// TestFormatsGatingNeedsDocument: the gating verdict is on whole-document
// answers, so a gating run without them is refused before anything runs.
func TestFormatsGatingNeedsDocument(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, errs, code := runCLI(t, "run", "--formats", "json-patch", "--models", "offline/oracle", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--out", dir, "--reports", dir)
	if code != 2 || !strings.Contains(errs, "add document") {
		t.Errorf("exit %d: %s; want a refusal naming document", code, errs)
	}
	_, errs, code = runCLI(t, "run", "--formats", "document,yaml", "--models", "offline/oracle", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--out", dir, "--reports", dir)
	if code != 2 || !strings.Contains(errs, "yaml") {
		t.Errorf("exit %d: %s; want a refusal naming the unknown format", code, errs)
	}
}
