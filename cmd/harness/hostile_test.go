package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestCredentialsInBaseURLRefused: a --base-url holding a password or a
// ?key= query was written to run.json and printed in the resume command,
// and the query was silently dropped from every request.
func TestCredentialsInBaseURLRefused(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"answer": "x", "evidence": []}`))
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, base := range []string{"http://user:PASSWORD@" + host, srv.URL + "?key=PASSWORD", srv.URL + "#PASSWORD"} {
		dir := t.TempDir()
		out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--base-url", base,
			"--no-preflight", "--models", "vendor/a", "--judges", "offline/judge", "--progress", "none", "--run-id", "r")
		if code != 2 || !strings.Contains(errs, "base URL") || strings.Contains(out+errs, "PASSWORD") {
			t.Errorf("--base-url %s: exit %d, stdout %q, stderr %q; want exit 2 naming the base URL, never the secret", base, code, out, errs)
		}
		if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
			t.Errorf("--base-url %s: a run directory was written", base)
		}
	}
	if n := srv.Count(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestConfigSymlinkToDeviceRefused: a config that was a symlink to
// /dev/zero killed the harness with "fatal error: out of memory" in a
// second or two (Stat says 0 bytes for a device).
func TestConfigSymlinkToDeviceRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "zero.yaml")
	if err := os.Symlink("/dev/zero", cfg); err != nil {
		t.Skip(err)
	}
	_, errs, code := runCLI(t, "run", "--config", cfg, "--dry-run", "--models", "offline/oracle", "--judges", "offline/judge", "--out", dir, "--reports", dir)
	if code != 2 || !strings.Contains(errs, "not a regular file (a device)") {
		t.Errorf("exit %d, stderr %q; want exit 2: not a regular file", code, errs)
	}
}

// hostileText holds what a terminal or a CI log obeys: an OSC 52
// clipboard write, a clear screen, a window title, and a line that starts
// a GitHub Actions command.
const hostileText = "x\x1b]52;c;SGk=\a\x1b[2J\x1b]0;pwned\a\n::error title=forged::forged\u009b2J"

// checkTerminalSafe fails when out holds a control character other than a
// line break or a tab, or a line that starts with "::".
func checkTerminalSafe(t *testing.T, what, out string) {
	t.Helper()
	if i := strings.IndexFunc(out, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f }); i >= 0 {
		t.Errorf("%s: a control character reached the terminal: %q", what, out[max(0, i-40):min(len(out), i+40)])
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("%s: a line starts a CI command: %q", what, line)
		}
	}
}

// TestHostileTextNeverReachesTheTerminal: control characters from an
// answer, a provider name and an error message reached the terminal raw
// in show, --progress lines and --summary, and an error message holding
// "\n::error title=…::" printed a line that starts a GitHub Actions
// command.
func TestHostileTextNeverReachesTheTerminal(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		if call == 1 {
			return modeltest.Reply{Content: hostileText, Provider: hostileText}
		}
		return modeltest.Reply{Status: 400, Error: &modeltest.ErrorObject{Code: 400, Message: hostileText}}
	})
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", dir, "--base-url", srv.URL,
		"--no-preflight", "--models", "vendor/a", "--judges", "offline/judge", "--progress", "lines", "--per-model", "1",
		"--tasks", "01-b,01-c", "--run-id", "r", "--summary")
	if code != 1 && code != 2 || !strings.Contains(errs, `HTTP 400: x\u001b]52`) {
		t.Errorf("run: exit %d, stderr %q; want the error message escaped in its progress line", code, errs)
	}
	checkTerminalSafe(t, "run", out+errs)
	if n := strings.Count(errs, "\n"); n != 2 {
		t.Errorf("run: %d lines of progress for 2 jobs: an error message forged lines of its own:\n%s", n, errs)
	}
	for _, id := range []string{"01-b", "01-c"} {
		out, errs, _ := runCLI(t, "show", filepath.Join(runs, "r"), id)
		checkTerminalSafe(t, "show "+id, out+errs)
	}
	out, errs, _ = runCLI(t, "runs", runs)
	checkTerminalSafe(t, "runs", out+errs)
}

// TestSecondSignalEndsTheHarness: after a first SIGINT the harness kept
// catching signals, so a second Ctrl-C did nothing. The test runs itself
// as a child that signals itself twice; the second signal must end it.
//
// The harness stops catching a moment after the first signal (a
// goroutine's work), so the child goes on pressing Ctrl-C every 200 ms,
// as an impatient person does, for a minute: a single second signal
// 200 ms later could come, on a loaded machine, before the harness had
// stopped catching. A harness that keeps catching survives them all and
// exits 0.
func TestSecondSignalEndsTheHarness(t *testing.T) {
	if os.Getenv("HARNESS_SIGNAL_CHILD") == "1" {
		ctx, _ := signalContext()
		syscall.Kill(os.Getpid(), syscall.SIGINT)
		<-ctx.Done()
		for range 300 {
			time.Sleep(200 * time.Millisecond) // a person's second Ctrl-C comes later still
			syscall.Kill(os.Getpid(), syscall.SIGINT)
		}
		os.Exit(0)
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalEndsTheHarness$")
	cmd.Env = append(os.Environ(), "HARNESS_SIGNAL_CHILD=1")
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
		t.Errorf("child ended with %v; want it killed by the second SIGINT", err)
	}
}

// TestScorePhaseStopsAtASignal: SIGTERM, then SIGINT 20 s later, did
// nothing while the run scored: it wrote its reports 40 s later and
// exited 1, not the interrupted 2. A rescore whose context has ended
// writes no report and says it was interrupted.
func TestScorePhaseStopsAtASignal(t *testing.T) {
	t.Parallel()
	runDir := offlineRun(t, t.TempDir(), "s", "--docs", "03")
	out := filepath.Join(t.TempDir(), "out")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"rescore", "--out", out, runDir}, &stdout, &stderr)
	if written, _ := filepath.Glob(filepath.Join(out, "s.*")); len(written) > 0 {
		t.Errorf("reports written after the signal: %v", written)
	}
	if exitCode(err) != 2 || !strings.Contains(stderr.String()+err.Error(), "interrupted") {
		t.Errorf("rescore after a signal: exit %d, %v, stderr %q; want exit 2, interrupted", exitCode(err), err, stderr.String())
	}
}

// TestUnwritableReportsSayHowToRescore: a paid run whose reports could
// not be written (the folder a file, read-only, full) ended with one
// "writing report" line; nothing said every answer was archived, nor
// which rescore command writes the reports.
func TestUnwritableReportsSayHowToRescore(t *testing.T) {
	t.Parallel()
	run := offlineRun(t, t.TempDir(), "u", "--docs", "03")
	file := writeFile(t, t.TempDir(), "afile", "x")
	_, errs, code := runBuilt(t, "rescore", "--out", file, run)
	want := "every transcript is archived in " + run + "; when the problem is fixed, write the reports with\n  harness rescore --out " + file + " " + run + "\n"
	if code != 2 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
	// A run says the same, with the rescore command, not a resume.
	dir := t.TempDir()
	_, errs, code = runBuilt(t, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight", "--progress", "none",
		"--docs", "03", "--out", filepath.Join(dir, "runs"), "--reports", file, "--run-id", "w")
	run = filepath.Join(dir, "runs", "w")
	want = "every transcript is archived in " + run + "; when the problem is fixed, write the reports with\n  harness rescore --out " + file + " " + run + "\n"
	if code != 2 || !strings.Contains(errs, want) {
		t.Errorf("run: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
}

// TestConcurrentRescoresKeepEachOthersFiles: concurrent rescores of one
// run into one reports folder removed each other's temporary files (6 of
// 12 failed: rename reports/.tmp-a.html-…: no such file or directory).
// Eight harness processes rescore one small run into one folder at once.
func TestConcurrentRescoresKeepEachOthersFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := offlineRun(t, dir, "c", "--docs", "03")
	out := t.TempDir()
	bin := builtHarness(t)
	errs := make([]string, 8)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			var stderr bytes.Buffer
			cmd := exec.Command(bin, "rescore", "--out", out, run)
			cmd.Stderr = &stderr
			if err := cmd.Run(); err != nil {
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != 1 { // 1: the failing verdict of offline/identity
					errs[i] = fmt.Sprintf("%v: %s", err, stderr.String())
				}
			}
		})
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("rescore %d: %s", i, e)
		}
	}
}

// TestKeyWithControlCharacterRefused: a key holding a control character
// (a stray \r from a .env written on Windows) was retried as a transport
// error instead of refused before any request.
func TestKeyWithControlCharacterRefused(t *testing.T) {
	// Not parallel: it sets the key.
	t.Setenv("OPENROUTER_API_KEY", "sk-or-v1-abcdef\r")
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"answer": "x", "evidence": []}`))
	dir := t.TempDir()
	out, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--base-url", srv.URL,
		"--no-preflight", "--models", "vendor/a", "--judges", "offline/judge", "--progress", "none", "--run-id", "r")
	if code != 2 || !strings.Contains(errs, "OPENROUTER_API_KEY holds a space, a control character") || strings.Contains(out+errs, "abcdef") {
		t.Errorf("exit %d, stderr %q; want exit 2 naming the variable, never the key", code, errs)
	}
	if n := srv.Count(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
