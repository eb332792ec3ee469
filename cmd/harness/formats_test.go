package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
)

// formatRow is a report's section row: one group of answers in one
// format.
type formatRow = report.Row

// runFormats runs a suite with every answer format and returns its
// report's format rows.
func runFormats(t *testing.T, suite string, extra ...string) []formatRow {
	t.Helper()
	dir := t.TempDir()
	reports := filepath.Join(dir, "reports")
	args := append([]string{"run", "--suite", suite, "--formats", "document,json-patch,bend-ops", "--models", "offline/oracle,offline/noisy",
		"--judges", "offline/judge", "--no-preflight", "--progress", "none", "--run-id", "f", "--out", filepath.Join(dir, "runs"), "--reports", reports}, extra...)
	out, errs, code := runBuilt(t, args...)
	if code > 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(reports, "f.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.ReadJSON(bytes.NewReader(b), "f.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"f.md", "f.html"} {
		b, _ := os.ReadFile(filepath.Join(reports, name))
		for _, f := range rep.Formats {
			if !strings.Contains(string(b), "| "+f+" |") && !strings.Contains(string(b), "<td>"+f+"</td>") {
				t.Errorf("%s has no rows of format %s", name, f)
			}
		}
	}
	return formatRows(rep)
}

// formatRows are a report's section rows in every format: a section with
// totals (the size ladder's rungs) by its totals.
func formatRows(rep *report.Report) []formatRow {
	var rows []formatRow
	for _, sec := range rep.Sections {
		totals := slices.ContainsFunc(sec.Rows, func(r report.Row) bool { return r.Total })
		for _, r := range sec.Rows {
			if r.Total == totals {
				rows = append(rows, r)
			}
		}
	}
	return rows
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
			t.Errorf("%s %s %s%s: %d of %d scored", r.Model, r.Format, r.Part, r.Rung, r.Scored, r.Planned)
			continue
		}
		switch r.Model {
		case "offline/oracle":
			if *r.Lossless != 1 || r.FailedToApply != 0 || *r.MedianDrift != 0 {
				t.Errorf("offline/oracle, %s (%s %s): lossless %v, %d failed to apply, median drift %v; want every answer lossless",
					r.Format, r.Part, r.Rung, *r.Lossless, r.FailedToApply, *r.MedianDrift)
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

// TestFormatsGatingAndRelay: the done-when on the gating suite's
// class B and C tasks (the answer formats') and on a relay of 4 steps
// (each step given the document its predecessor's patch made), the relay
// on eight documents' chains (for time under -race).
func TestFormatsGatingAndRelay(t *testing.T) {
	t.Parallel()
	for _, tt := range tabletest.Cases(t, []struct {
		suite  string
		extra  []string
		reason string
	}{
		{"gating", []string{"--classes", "b,c"}, "the answer formats on the gating suite's class B and C tasks"},
		{"relay", []string{"--steps", "4", "--docs", "01,02,03,04,05,06,07,08"}, "in a relay each step is given the document its predecessor's patch made, so a format's slip carries on"},
	}) {
		t.Run(tt.suite, func(t *testing.T) {
			t.Parallel()
			checkFormats(t, runFormats(t, tt.suite, tt.extra...))
		})
	}
}

// TestFormatsSizeLadder: the size suite in every format, each rung's
// rows apart (the 512k rung's bytes: TestFormats512kRung, without -race).
func TestFormatsSizeLadder(t *testing.T) {
	t.Parallel()
	checkFormats(t, runFormats(t, "size", "--rungs", "8k,32k"))
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

// formatOf is the answer format a request asks for, read from its answer
// instruction.
func formatOf(req modeltest.ChatRequest) string {
	last := req.Messages[len(req.Messages)-1].Content
	switch {
	case strings.Contains(last, "Answer with a JSON Patch"):
		return "json-patch"
	case strings.Contains(last, "Answer with a JSON array of edit operations"):
		return "bend-ops"
	}
	return "document"
}

// TestFormatsResumeAndRescore: a multi-format run against a fake server,
// killed part-way, resumed: no finished (task, format) job is asked again
// and every unfinished one is; rescore reproduces the report byte for
// byte but for rescored_at.
func TestFormatsResumeAndRescore(t *testing.T) {
	t.Parallel()
	ctx, interrupt := interruptAt(12)
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		if formatOf(req) != "document" {
			return modeltest.Reply{Content: "[]", Delay: 3 * time.Millisecond}
		}
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Delay: 3 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	args := []string{"run", "--formats", "document,json-patch,bend-ops", "--docs", "01,02,03,04", "--config", "../../harness.yaml",
		"--models", "vendor/a", "--judges", "offline/judge", "--out", dir, "--reports", dir, "--run-id", "k", "--progress", "none", "--per-model", "2", "--base-url", srv.URL}
	var out, errb bytes.Buffer
	err := run(ctx, args, &out, &errb)
	runDir := filepath.Join(dir, "k")
	if exitCode(err) != 2 || !strings.Contains(errb.String(), "--resume "+runDir) {
		t.Fatalf("interrupted run: exit %d: %s", exitCode(err), errb.String())
	}
	const jobs = 4 * (1 + 3*2) // per document: A, and B and C in three formats
	finished := answered(t, filepath.Join(runDir, "vendor_a", "*.json"))
	if len(finished) == 0 || len(finished) >= jobs {
		t.Fatalf("%d jobs finished; the test needs a partial run", len(finished))
	}
	kept := map[string]bool{}
	for _, f := range finished {
		id, format := strings.TrimSuffix(filepath.Base(f), ".r0.json"), "document"
		for _, fm := range []string{"json-patch", "bend-ops"} {
			if strings.HasSuffix(id, "."+fm) {
				id, format = strings.TrimSuffix(id, "."+fm), fm
			}
		}
		kept[id+" "+format] = true
	}
	before := srv.Count()
	out.Reset()
	errb.Reset()
	if err := run(context.Background(), []string{"run", "--resume", runDir, "--progress", "none", "--base-url", srv.URL}, &out, &errb); exitCode(err) > 1 {
		t.Fatalf("resume: exit %d: %s", exitCode(err), errb.String())
	}
	checkResumeAsked(t, srv.Requests()[before:], func(req modeltest.ChatRequest) string { return taskIDOf(req) + " " + formatOf(req) }, kept, jobs)
	fresh, _ := os.ReadFile(filepath.Join(dir, "k.json"))
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir); code > 1 {
		t.Fatalf("rescore: exit %d: %s", code, errs)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "re", "k.json"))
	if !bytes.Equal(report.StripRescoredAt(again), fresh) || !bytes.Contains(fresh, []byte(`"format": "bend-ops"`)) {
		t.Error("rescore does not reproduce the multi-format report")
	}
}

// TestDryRunEstimatesPerFormat: the preflight prints each format's jobs,
// tokens and cost, and a patch answer is estimated far below re-emitting
// the document.
func TestDryRunEstimatesPerFormat(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "{}"))
	srv.SetModels(modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed"}})
	out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", t.TempDir(), "--models", "vendor/a", "--judges", "offline/judge", "--base-url", srv.URL,
		"--formats", "document,json-patch,bend-ops", "--dry-run")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	completion := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		var f string
		var jobs, prompt, tokens int
		if _, err := fmt.Sscanf(strings.TrimSpace(l), "format %s (B, C) %d jobs ~%d prompt + ~%d completion", &f, &jobs, &prompt, &tokens); err == nil {
			if jobs != 40 {
				t.Errorf("format %s: %d jobs, want 40", f, jobs)
			}
			completion[f] = tokens
		}
	}
	doc := completion["document"]
	for _, f := range []string{"json-patch", "bend-ops"} {
		if c, ok := completion[f]; !ok || doc == 0 || c*5 > doc {
			t.Errorf("format %s: ~%d completion tokens against %d for documents; want a line per format, patches far below\n%s", f, c, doc, out)
		}
	}
	if srv.Count() != 0 {
		t.Errorf("a dry run sent %d requests", srv.Count())
	}
}

// TestCompareWithinFormat: compare pairs tasks within an answer format:
// two multi-format runs of a model give a row per format and class beside
// the document's classes.
func TestCompareWithinFormat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, seed := range []string{"1", "2"} {
		_, errs, code := runCLI(t, "run", "--suite", "natural", "--formats", "document,json-patch,bend-ops", "--models", "offline/noisy", "--judges", "offline/judge",
			"--docs", "01,02,03,04,05,06,07,08", "--seed", seed, "--no-preflight", "--progress", "none", "--run-id", "s"+seed, "--out", filepath.Join(dir, "runs"), "--reports", dir)
		if code > 1 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	out, errs, code := runCLI(t, "compare", "--format", "json", filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json"))
	if code > 1 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	var c struct {
		Rows []struct {
			Class string
			Pairs int
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	pairs := map[string]int{}
	for _, r := range c.Rows {
		pairs[r.Class] = r.Pairs
	}
	for _, class := range []string{"natural B json-patch", "natural C json-patch", "natural B bend-ops", "natural C bend-ops"} {
		if pairs[class] != 8 {
			t.Errorf("compare row %q pairs %d tasks, want 8 (rows %v)", class, pairs[class], pairs)
		}
	}
}
