package main

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestStoppedRunExits2: a run that the account's credit ran out on
// mid-run (HTTP 402, after some answers), or whose rate limits outlasted
// the retries, is not a failing model: it ends with exit 2 naming the
// cause and printing the command that resumes it, writes no report, and
// the resume (credit added, limits gone) asks only the jobs left
// unanswered. Before, both ended with exit 1 like a failing verdict.
func TestStoppedRunExits2(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		fail   modeltest.Reply
		after  int32 // vendor/a's requests answered before it fails
		want   string
		reason string
	}{
		{"out-of-credit", modeltest.OutOfCredit(), 5, "out of credit", "the credit ran out after five answers"},
		{"rate-limited", modeltest.RateLimited(0), 5, "rate limited", "429 on every retry of vendor/a's later jobs"},
	}
	for _, tc := range tabletest.Cases(t, tests) {
		t.Run(tc.name, func(t *testing.T) {
			var healed atomic.Bool
			var sent atomic.Int32
			srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
				if req.Model == "vendor/a" && !healed.Load() && sent.Add(1) > tc.after {
					return tc.fail
				}
				return modeltest.Text(`{"answer": "x", "evidence": []}`)
			})
			dir := t.TempDir()
			runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
			args := []string{"run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports, "--base-url", srv.URL,
				"--no-preflight", "--models", "vendor/a,vendor/b", "--judges", "offline/judge", "--run-id", "r", "--progress", "none", "--per-model", "1"}
			out, errs, code := runCLIWithin(t, 3*time.Minute, args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2 (%s)\n%s%s", code, tc.reason, out, errs)
			}
			if !strings.Contains(errs, "stopped: ") || !strings.Contains(errs, "unanswered: "+tc.want) {
				t.Errorf("stderr %q; want the cause %q named (%s)", errs, tc.want, tc.reason)
			}
			resume := "harness run --resume " + filepath.Join(runs, "r") + " --base-url " + srv.URL + "\n"
			if !strings.Contains(errs, resume) {
				t.Errorf("stderr %q; want the resume command %q", errs, resume)
			}
			if files, _ := filepath.Glob(filepath.Join(reports, "*")); len(files) != 0 {
				t.Errorf("reports written: %v; a stopped run has no verdict", files)
			}
			healed.Store(true)
			before := srv.CountModel("vendor/a") + srv.CountModel("vendor/b")
			_, errs2, code2 := runCLIWithin(t, 3*time.Minute, "run", "--resume", filepath.Join(runs, "r"), "--base-url", srv.URL, "--progress", "none", "--reports", reports)
			if code2 == 2 {
				t.Fatalf("resume: exit 2: %s", errs2)
			}
			asked := srv.CountModel("vendor/a") + srv.CountModel("vendor/b") - before
			if want := 60 - int(tc.after); asked != want {
				t.Errorf("the resume asked %d answers; want %d, the jobs left unanswered (%s)", asked, want, tc.reason)
			}
		})
	}
}

// answered returns the transcripts matched by glob that hold an answer:
// a job in flight when a run is cancelled is archived too, as
// interrupted, and a resume asks it again.
func answered(t *testing.T, glob string) []string {
	t.Helper()
	files, _ := filepath.Glob(glob)
	var out []string
	for _, f := range files {
		tr, err := transcript.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		if tr.OK() {
			out = append(out, f)
		}
	}
	return out
}
