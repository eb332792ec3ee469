package main

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model/modeltest"
)

// held holds a fake's requests after the n-th until release, or until a
// minute has passed (a test that waits in vain then fails on what it
// sees, rather than hanging): a run kept live, at a point no load can
// move, while a test runs other commands beside it.
type held struct {
	n    int
	free chan struct{}
	once sync.Once
}

// holdAfter returns a held, released after a minute, or when t ends, at
// the latest.
func holdAfter(t *testing.T, n int) *held {
	h := &held{n: n, free: make(chan struct{})}
	timer := time.AfterFunc(time.Minute, h.release)
	t.Cleanup(func() {
		timer.Stop()
		h.release()
	})
	return h
}

// hold is called by the fake's handler with each request's number.
func (h *held) hold(call int) {
	if call > h.n {
		<-h.free
	}
}

func (h *held) release() { h.once.Do(func() { close(h.free) }) }

// TestLiveRunIsNotRescoredNorListedInterrupted: a rescore of a run that
// was still answering wrote "incomplete run: 42 missing transcripts" into
// the reports the run later overwrote, and harness runs listed the live
// run as interrupted (or fail / incomplete after such a rescore), which
// invites a resume (issue 46). While a slow run answers, rescore into its
// reports is refused like a second resume, naming the lock, and runs says
// running. Issue 56: a rescore --out elsewhere proceeded and exited 1 on
// "17543 missing transcripts": it is refused too.
func TestLiveRunIsNotRescoredNorListedInterrupted(t *testing.T) {
	t.Parallel()
	// The run's requests after its third are held until the checks below
	// are done (a minute at most), so that the run is live while they
	// run: before, it was live for as long as its 60 answers of 40 ms
	// took, which a loaded machine could outlast.
	live := holdAfter(t, 3)
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		live.hold(call)
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Delay: 40 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	runDir := filepath.Join(runs, "live1")
	first := make(chan int)
	go func() {
		_, _, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports,
			"--base-url", srv.URL, "--models", "vendor/a", "--judges", "offline/judge", "--run-id", "live1", "--progress", "none", "--per-model", "1")
		first <- code
	}()
	for srv.Count() < 3 {
		time.Sleep(2 * time.Millisecond)
	}
	_, errs, code := runCLI(t, "rescore", "--out", reports, runDir)
	want := "rescore: run " + runDir + " is in use by another harness process (it holds " + filepath.Join(runDir, "run.lock") + ")"
	if code != 2 || !strings.Contains(errs, want) || !strings.Contains(errs, "wait for it to finish, then rescore") {
		t.Errorf("rescore of the live run: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
	if _, err := os.Stat(filepath.Join(reports, "live1.json")); err == nil {
		t.Errorf("the refused rescore wrote %s", filepath.Join(reports, "live1.json"))
	}
	out, errs, code := runCLI(t, "runs", runs)
	if code != 0 || !strings.Contains(out, "running") || strings.Contains(out, "interrupted") {
		t.Errorf("runs while the run answers: exit %d, stdout %q, stderr %q; want the run listed as running", code, out, errs)
	}
	if _, errs, code := runCLI(t, "rescore", "--out", filepath.Join(dir, "elsewhere"), runDir); code != 2 || !strings.Contains(errs, want) {
		t.Errorf("rescore --out elsewhere of the live run: exit %d, stderr %q; want exit 2 and %q, as a resume is refused", code, errs, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "elsewhere")); err == nil {
		t.Errorf("the refused rescore --out elsewhere wrote %s", filepath.Join(dir, "elsewhere"))
	}
	live.release()
	if c := <-first; c != 0 && c != 1 {
		t.Fatalf("the run: exit %d", c)
	}
	if out, _, _ := runCLI(t, "runs", runs); strings.Contains(out, "running") {
		t.Errorf("runs after the run ended still says running:\n%s", out)
	}
}
