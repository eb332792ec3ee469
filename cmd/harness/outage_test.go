package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

// TestOutageCouldNotRun: with --no-preflight against an API that refused
// every connection, a run retried each job five times, ended minutes later
// with a failing verdict of thirteen "not measured" lines and exit 1, and
// named neither the error nor the resume command; against a server
// answering HTTP 401 the same in a fraction of a second (issue 34). Both
// now end after one request per model in flight (no retry of a refused
// connection), exit 2, say "could not run: <model>: <error>" and print
// the command that resumes the run; no report is written.
func TestOutageCouldNotRun(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewScripted(t, modeltest.Unauthorized())
	tests := []struct {
		name, base, want, reason string
	}{
		{"refused", modeltest.ClosedURL(t), "connect: connection refused", "nothing listens at the API's address"},
		{"unauthorized", srv.URL, "HTTP 401: No auth credentials found", "the server refuses the key"},
	}
	for _, tc := range tabletest.Cases(t, tests) {
		dir := t.TempDir()
		runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
		out, errs, code := runCLIWithin(t, 2*time.Minute, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports, "--base-url", tc.base,
			"--no-preflight", "--models", "vendor/a,vendor/b", "--judges", "offline/judge", "--run-id", "r", "--progress", "none", "--per-model", "1")
		if code != 2 {
			t.Errorf("%s: exit %d, want 2 (%s)\n%s%s", tc.name, code, tc.reason, out, errs)
		}
		for _, m := range []string{"vendor/a", "vendor/b"} {
			if want := "could not run: " + m + ": "; !strings.Contains(errs, want) || !strings.Contains(errs, tc.want) {
				t.Errorf("%s: stderr %q; want %q and %q (%s)", tc.name, errs, want, tc.want, tc.reason)
			}
		}
		if want := "harness run --resume " + filepath.Join(runs, "r") + " --base-url " + tc.base + "\n"; !strings.Contains(errs, want) {
			t.Errorf("%s: stderr %q; want the resume command %q", tc.name, errs, want)
		}
		if strings.Contains(out, "Verdict") || strings.Contains(out, "not measured") {
			t.Errorf("%s: stdout %q; a run that measured nothing has no verdict", tc.name, out)
		}
		if files, _ := filepath.Glob(filepath.Join(reports, "*")); len(files) != 0 {
			t.Errorf("%s: reports written: %v", tc.name, files)
		}
		assertOneAttempt(t, filepath.Join(runs, "r"), tc.reason)
	}
	// One request per model: the first failure stops the model's jobs.
	if n := srv.Count(); n != 2 {
		t.Errorf("%d requests to the server answering 401, want 2 (one per model)", n)
	}
}

// runCLIWithin is runCLI that interrupts the command after d: a run that
// retried what it should not would otherwise sit in backoff for many
// minutes before the test could fail. d bounds a hang; it asserts no
// speed, so it is minutes too: a correct run interrupted by it fails its
// test (20 s was little for a run under -race on a busy CI core).
func runCLIWithin(t *testing.T, d time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var out, errb bytes.Buffer
	err := run(ctx, args, &out, &errb)
	if err != nil {
		code = exitCode(err)
		printError(&errb, err)
	}
	return out.String(), errb.String(), code
}

// assertOneAttempt checks that each request the run sent was one attempt,
// with no wait for a retry.
func assertOneAttempt(t *testing.T, runDir, reason string) {
	t.Helper()
	all, err := transcripttest.ReadAll(runDir)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, tr := range all {
		if len(tr.Attempts) > 0 {
			sent++
		}
		if len(tr.Attempts) > 1 || len(tr.Attempts) == 1 && tr.Attempts[0].WaitMS > 0 {
			t.Errorf("%s: %d attempts %+v; want one, not retried (%s)", tr.TaskID, len(tr.Attempts), tr.Attempts, reason)
		}
	}
	if sent != 2 {
		t.Errorf("%d requests sent, want 2: one per model (%s)", sent, reason)
	}
}
