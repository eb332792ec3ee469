package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestRelaySuite is the relay's done-when, offline: per model 8 steps of
// median and P95 drift and edits applied; offline/oracle at 0 at every
// step; offline/noisy's median at step 8 above its median at step 1, its
// slips compounding from its own previous answers.
func TestRelaySuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reports := filepath.Join(dir, "reports")
	out, errs, code := runBuilt(t, "run", "--suite", "relay", "--models", "offline/oracle,offline/noisy", "--judges", "offline/judge",
		"--steps", "8", "--no-preflight", "--progress", "none", "--run-id", "r", "--out", filepath.Join(dir, "runs"), "--reports", reports)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(reports, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.ReadJSON(bytes.NewReader(b), "r.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sections) != 1 || len(rep.Sections[0].Rows) != 16 {
		t.Fatalf("%d sections, want the relay's with 16 rows (2 models × 8 steps)", len(rep.Sections))
	}
	median := map[string]float64{}
	for _, s := range rep.Sections[0].Rows {
		if s.MedianDrift == nil || s.P95Drift == nil || s.EditsApplied == nil || s.Planned != 20 {
			t.Fatalf("%s step %d: %+v; want 20 chains with median, P95 and edits applied", s.Model, s.Step, s)
		}
		if s.Model == "offline/oracle" && (*s.MedianDrift != 0 || *s.P95Drift != 0) {
			t.Errorf("offline/oracle step %d: drift %v/%v, want 0", s.Step, *s.MedianDrift, *s.P95Drift)
		}
		median[s.Model+string(rune('0'+s.Step))] = *s.MedianDrift
	}
	if first, last := median["offline/noisy1"], median["offline/noisy8"]; last <= first {
		t.Errorf("offline/noisy: median drift %v at step 8, %v at step 1; want it to compound", last, first)
	}
	html, _ := os.ReadFile(filepath.Join(reports, "r.html"))
	if !strings.Contains(string(html), "drift against step") {
		t.Error("the viewer has no relay plot")
	}
}

// TestRelayResume: a relay run against a fake server (8 chains of 4
// steps), killed part-way, resumed: no finished step is asked again
// (counted at the server), every chain goes on from its last finished
// step, and rescore reproduces the report byte for byte but for
// rescored_at.
func TestRelayResume(t *testing.T) {
	// The key is TestMain's; the server is passed by --base-url, to the
	// run and to its resume.
	t.Parallel()
	set, _, err := relay.Build(tasktest.Set(t), relay.DefaultSteps)
	if err != nil {
		t.Fatal(err)
	}
	killResumeRescore(t, set, "relay", "relay", "--steps", "4")
}

// killResumeRescore runs a chain suite (its flags after --suite) of 8
// documents against a fake server answering each step's expected
// document, kills it part-way (exit 2, the resume command printed),
// resumes it and checks that no finished step is asked again (counted at
// the server) and that every chain goes on from its last finished step;
// then rescore must reproduce the report byte for byte but for
// rescored_at. The report must have a section key named key. It returns
// the run directory and the report's bytes.
func killResumeRescore(t *testing.T, set *task.Set, key string, suite ...string) (runDir string, fresh []byte) {
	t.Helper()
	ctx, interrupt := interruptAt(12)
	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		tk := set.Task(taskIDOf(req))
		if tk == nil {
			return modeltest.StatusError(400)
		}
		return modeltest.Reply{Content: string(bend.Marshal(tk.Expected)), Delay: 10 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := append([]string{"run", "--base-url", srv.URL, "--suite"}, suite...)
	args = append(args, "--config", "../../harness.yaml", "--models", "vendor/a", "--judges", "offline/judge", "--docs", "01,02,03,04,05,06,07,08",
		"--out", dir, "--reports", dir, "--run-id", "k", "--progress", "none", "--per-model", "4")
	err := run(ctx, args, &out, &errb)
	runDir = filepath.Join(dir, "k")
	if exitCode(err) != 2 || !strings.Contains(errb.String(), "--resume "+runDir) {
		t.Fatalf("interrupted run: exit %d (%v): %s", exitCode(err), err, errb.String())
	}
	finished := answered(t, filepath.Join(runDir, "vendor_a", "*.json"))
	const steps = 8 * 4
	if len(finished) == 0 || len(finished) >= steps {
		t.Fatalf("%d steps finished; the test needs a partial run", len(finished))
	}
	kept := map[string]bool{}
	for _, f := range finished {
		kept[strings.TrimSuffix(filepath.Base(f), ".r0.json")] = true
	}
	before := srv.Count()
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", srv.URL, "--progress", "none"); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	checkResumeAsked(t, srv.Requests()[before:], taskIDOf, kept, steps)
	fresh, _ = os.ReadFile(filepath.Join(dir, "k.json"))
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "re"), runDir); code != 0 {
		t.Fatalf("rescore: exit %d: %s", code, errs)
	}
	again, _ := os.ReadFile(filepath.Join(dir, "re", "k.json"))
	if !bytes.Equal(report.StripRescoredAt(again), fresh) || !bytes.Contains(fresh, []byte(`"`+key+`"`)) {
		t.Errorf("rescore does not reproduce the %s report", suite[0])
	}
	return runDir, fresh
}

// TestSuiteAll: --suite all runs the gating suite and the relay in one run;
// the §8.5 tables and the verdict are the gating suite's (20 documents per
// class), the relay is reported beside them.
func TestSuiteAll(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, errs, code := runBuilt(t, "run", "--suite", "all", "--steps", "4", "--models", "offline/oracle", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--run-id", "a", "--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"))
	if code != 0 {
		t.Fatalf("exit %d (the oracle passes the gating suite): %s", code, errs)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "reports", "a.json"))
	var rep struct {
		Suite   string
		Verdict string
		Tasks   int
		Results map[string]struct {
			ClassB struct {
				Tasks int `json:"tasks"`
			} `json:"class_b"`
		}
		Sections []struct {
			Part string
			Rows []struct{ Step int }
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	relayRows := 0
	for _, sec := range rep.Sections {
		if sec.Part == "relay" {
			relayRows = len(sec.Rows)
		}
	}
	if rep.Suite != "all" || rep.Verdict != "pass" || rep.Results["offline/oracle"].ClassB.Tasks != 20 || relayRows != 4 {
		t.Errorf("suite %q, verdict %q, class B over %d documents, %d relay rows; want all, pass, 20 and 4",
			rep.Suite, rep.Verdict, rep.Results["offline/oracle"].ClassB.Tasks, relayRows)
	}
}
