package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/verdict"
)

// TestExactGatingRunGates: the default three models answering exactly can
// gate v0.1 (§8.6) and read pass: "v0.1 may be called final" (§8.5).
func TestExactGatingRunGates(t *testing.T) {
	t.Parallel()
	r := exactGatingRun(t)
	rep, err := report.ReadJSON(bytes.NewReader(r.report), "g.json")
	if err != nil {
		t.Fatal(err)
	}
	line := render.VerdictLine(rep)
	if md, err := os.ReadFile(filepath.Join(exactGating.dir, "g.md")); err != nil || !bytes.Contains(md, []byte("This run can gate v0.1 (§8.6).")) {
		t.Errorf("the Markdown does not say the run can gate v0.1 (%v)", err)
	}
	if r.code != 0 || !rep.Eligibility.Gates || rep.Reading.Outcome != verdict.ReadingPass || !strings.Contains(line, "✅ PASS") || !strings.Contains(line, "v0.1 may be called final") {
		t.Errorf("exit %d, gates %v (%v), reading %q; %s", r.code, rep.Eligibility.Gates, rep.Eligibility.Reasons, rep.Reading.Outcome, line)
	}
}

// TestIneligibleGatingRunsAreInconclusive: a gating run of three tier-down
// models, one of each vendor, and one of two models of one vendor, both
// answering exactly, meet every threshold, yet cannot gate v0.1 (§8.6):
// their reading is inconclusive, with the reasons, and nothing they print
// reads as a gating pass. (They printed the same "Verdict: ✅ PASS" as a
// gating run.)
func TestIneligibleGatingRunsAreInconclusive(t *testing.T) {
	t.Parallel()
	set := tasktest.Set(t)
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		models []string
		want   []string
		reason string
	}{
		{"tier-down", []string{"anthropic/claude-haiku-4.5", "openai/gpt-5-mini", "google/gemini-3-flash"},
			[]string{`claude-haiku-4.5 is a tier-down model ("haiku"`, `gpt-5-mini is a tier-down model ("mini"`, `gemini-3-flash is a tier-down model ("flash"`},
			"§8.6: Haiku, mini and Flash do not gate v0.1"},
		{"one vendor twice", []string{"anthropic/claude-opus-4.8", "anthropic/claude-opus-4.7", "google/gemini-3.1-pro-preview"},
			[]string{"2 anthropic models", "no openai model"}, "§8.6: one model of each vendor"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply { return exactReply(set, req) })
			var entries []modeltest.ModelEntry
			for _, m := range tc.models {
				entries = append(entries, modeltest.Entry(m))
			}
			srv.SetModels(entries...)
			dir := t.TempDir()
			out, errs, code := runBuilt(t, "run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--models", strings.Join(tc.models, ","),
				"--out", dir, "--reports", dir, "--run-id", "i", "--progress", "none")
			if code > 1 {
				t.Fatalf("exit %d\n%s%s", code, out, errs)
			}
			rep := readReport(t, filepath.Join(dir, "i.json"))
			reasons := strings.Join(rep.Eligibility.Reasons, "\n")
			if rep.Verdict != report.Pass || rep.Eligibility.Gates || rep.Reading.Outcome != verdict.ReadingInconclusive {
				t.Errorf("verdict %q, gates %v, reading %q; want thresholds met, inconclusive (%s)", rep.Verdict, rep.Eligibility.Gates, rep.Reading.Outcome, tc.reason)
			}
			for _, w := range tc.want {
				if !strings.Contains(reasons, w) {
					t.Errorf("no reason %q in:\n%s", w, reasons)
				}
			}
			if strings.Contains(out, "PASS") || strings.Contains(out, "may be called final") {
				t.Errorf("the run prints the words of a gating pass:\n%s", out)
			}
		})
	}
}
