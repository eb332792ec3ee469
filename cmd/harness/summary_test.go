package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

// patchRelay are the arguments of the relay in the patch formats
// alone (no whole-document answer), against the fake server.
func patchRelay(dir, url, id string) []string {
	return []string{"run", "--suite", "relay", "--steps", "4", "--formats", "json-patch,bend-ops", "--docs", "12,17", "--config", "../../harness.yaml",
		"--models", "vendor/a", "--judges", "offline/judge", "--out", dir, "--reports", dir, "--run-id", id, "--progress", "none", "--base-url", url}
}

// TestPatchOnlyRelayWithAFailedJobIsIncomplete: a relay asked in patch
// formats only has no whole-document answer, and its verdict was taken
// after those were set apart: a run with failed jobs printed "complete
// (informational)" and exited 0 (issue 31). Completeness counts every job
// in every format.
func TestPatchOnlyRelayWithAFailedJobIsIncomplete(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if taskIDOf(req) == "12-s01" && formatOf(req) == "json-patch" {
			return modeltest.StatusError(400)
		}
		return modeltest.Text("[]")
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	out, errs, code := runCLI(t, patchRelay(dir, srv.URL, "f")...)
	if code != 1 || !strings.Contains(out, "Verdict: incomplete (informational)") {
		t.Fatalf("exit %d, want 1 and an incomplete verdict:\n%s%s", code, out, errs)
	}
	rep := readReport(t, filepath.Join(dir, "f.json"))
	if rep.Verdict != report.Incomplete || rep.Jobs != 16 {
		t.Errorf("verdict %q over %d jobs, want incomplete over 16 (2 chains × 4 steps × 2 formats)", rep.Verdict, rep.Jobs)
	}
	listing, _, _ := runCLI(t, "runs", dir)
	if !strings.Contains(listing, "incomplete") {
		t.Errorf("harness runs does not say the run is incomplete:\n%s", listing)
	}
}

// TestPatchOnlyRelayWithMissingJobsIsIncomplete: the same relay stopped
// part-way, then rescored: the jobs it never asked are missing, and the
// report says incomplete.
func TestPatchOnlyRelayWithMissingJobsIsIncomplete(t *testing.T) {
	t.Parallel()
	ctx, interrupt := interruptAt(3)
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		return modeltest.Reply{Content: "[]", Delay: 5 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if err := run(ctx, patchRelay(dir, srv.URL, "m"), &out, &errb); exitCode(err) != 2 {
		t.Fatalf("interrupted run: exit %d: %s", exitCode(err), errb.String())
	}
	rout, errs, code := runCLI(t, "rescore", "--out", dir, filepath.Join(dir, "m"))
	if code != 1 || !strings.Contains(rout, "incomplete (informational)") {
		t.Fatalf("rescore of the stopped run: exit %d, want 1 and incomplete:\n%s%s", code, rout, errs)
	}
	rep := readReport(t, filepath.Join(dir, "m.json"))
	missing := 0
	for _, c := range rep.Calls {
		missing += c.Missing
	}
	if missing == 0 || rep.Verdict != report.Incomplete {
		t.Errorf("%d missing, verdict %q; want the unasked jobs missing and the run incomplete", missing, rep.Verdict)
	}
}

// TestPatchOnlyRelayHasItsSections: completed, the patch-only relay has a
// row per step and format (JSON, Markdown, a chart per format) whose
// median and P95 are those of its chains' drifts, and chains' breaks per
// format.
func TestPatchOnlyRelayHasItsSections(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errs, code := runBuilt(t, "run", "--suite", "relay", "--steps", "4", "--formats", "json-patch,bend-ops", "--docs", "12,17,19,20",
		"--models", "offline/noisy", "--judges", "offline/judge", "--no-preflight", "--progress", "none", "--run-id", "c",
		"--out", filepath.Join(dir, "runs"), "--reports", dir)
	if code != 0 {
		t.Fatalf("exit %d (a complete informational run)\n%s%s", code, out, errs)
	}
	rep := readReport(t, filepath.Join(dir, "c.json"))
	if len(rep.Sections) != 1 || len(rep.Sections[0].Rows) != 8 || len(rep.Sections[0].Breaks) != 2 {
		t.Fatalf("%d sections; want the relay's, 4 steps × 2 formats and breaks per format", len(rep.Sections))
	}
	for _, row := range rep.Sections[0].Rows {
		var drifts []float64
		for _, d := range row.PerDocument {
			drifts = append(drifts, *d.Drift)
		}
		if row.Scored != 4 || len(drifts) != 4 || *row.MedianDrift != stats.Median(drifts) || *row.P95Drift != stats.P95(drifts) {
			t.Errorf("step %d %s: %d scored, median %v, P95 %v; want the 4 chains' %v", row.Step, row.Format, row.Scored, *row.MedianDrift, *row.P95Drift, drifts)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "c.md"))
	html, _ := os.ReadFile(filepath.Join(dir, "c.html"))
	for _, want := range []string{"| `offline/noisy` | 4 ↺ | B⁻¹ | json-patch |", "| `offline/noisy` | 4 ↺ | B⁻¹ | bend-ops |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the Markdown has no row %q", want)
		}
	}
	for _, want := range []string{"offline/noisy, json-patch: drift against step", "offline/noisy, bend-ops: drift against step"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the viewer has no chart %q", want)
		}
	}
}

// readReport reads a JSON report.
func readReport(t *testing.T, path string) *report.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := report.ReadJSON(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestCallsCountEveryFormat: a gating run in three formats counts every
// job in its header (2 models × 140 tasks = 280), and its Calls table's
// tokens and cost are the sums over every answer transcript of the
// archive; they counted the whole-document answers alone (issue 31).
func TestCallsCountEveryFormat(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		cost := 0.001 * float64(1+call%7)
		usage := &modeltest.Usage{PromptTokens: int64(100 + call%13), CompletionTokens: int64(10 + call%5), Cost: &cost}
		if formatOf(req) != "document" {
			return modeltest.Reply{Content: "[]", Usage: usage}
		}
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Usage: usage}
	})
	srv.SetModels(modeltest.Entry("vendor/a"), modeltest.Entry("vendor/b"))
	dir := t.TempDir()
	out, errs, code := runBuilt(t, "run", "--formats", "document,json-patch,bend-ops", "--config", "../../harness.yaml", "--models", "vendor/a,vendor/b",
		"--judges", "offline/judge", "--out", dir, "--reports", dir, "--run-id", "g", "--progress", "none", "--base-url", srv.URL)
	if code > 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rep := readReport(t, filepath.Join(dir, "g.json"))
	md, _ := os.ReadFile(filepath.Join(dir, "g.md"))
	if rep.Jobs != 280 || !strings.Contains(string(md), "2 models × 140 tasks × 1 repeat = 280 jobs") {
		t.Errorf("%d jobs; want 280 and the header to say so:\n%.600s", rep.Jobs, md)
	}
	trs, err := transcripttest.ReadAll(filepath.Join(dir, "g"))
	if err != nil {
		t.Fatal(err)
	}
	var prompt, completion int64
	var cost float64
	answers := 0
	for _, tr := range trs {
		if tr.Kind != transcript.KindTask || tr.Response == nil {
			continue
		}
		answers++
		prompt += tr.Response.Usage.PromptTokens
		completion += tr.Response.Usage.CompletionTokens
		cost += *tr.Response.Usage.Cost
	}
	var got report.Tokens
	var gotCost float64
	for _, c := range rep.Calls {
		got.Prompt += c.Tokens.Prompt
		got.Completion += c.Tokens.Completion
		gotCost += c.Cost.USD
	}
	if answers != 280 || got.Prompt != prompt || got.Completion != completion || math.Abs(gotCost-cost) > 1e-9 {
		t.Errorf("Calls: %d prompt, %d completion tokens, $%v; the %d answers in the archive: %d, %d, $%v", got.Prompt, got.Completion, gotCost, answers, prompt, completion, cost)
	}
}
