package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/transcript"
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

// fakeRun writes a run directory holding only a manifest.
func fakeRun(t *testing.T, runs, id string) string {
	t.Helper()
	dir := filepath.Join(runs, id)
	if err := transcript.WriteManifest(dir, &transcript.Manifest{RunID: id, Models: []string{"vendor/a"}, StartedAt: time.Unix(0, 0).UTC()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunsSkipsNoFIFOAndNoLargeTranscript: a FIFO run.json hung `harness
// runs` past SIGTERM; and runs summed the cost of transcripts of at most
// 16 MiB (the document limit), so two paid transcripts of 17 MiB at $0.50
// showed as $0.0000 without "+?".
func TestRunsSkipsNoFIFOAndNoLargeTranscript(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	if err := os.Mkdir(filepath.Join(runs, "fifo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(runs, "fifo", "run.json"), 0o644); err != nil {
		t.Skip(err)
	}
	dir := fakeRun(t, runs, "big")
	os.Mkdir(filepath.Join(dir, "vendor_a"), 0o755)
	pad := strings.Repeat("x", 17<<20)
	for _, name := range []string{"01-b.r0.json", "01-c.r0.json"} {
		writeFile(t, filepath.Join(dir, "vendor_a"), name, `{"response": {"usage": {"cost": 0.5}}, "pad": "`+pad+`"}`)
	}
	done := make(chan struct{})
	var out, errs string
	var code int
	go func() { out, errs, code = runCLI(t, "runs", runs); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("harness runs blocked on a FIFO run.json")
	}
	if code != 0 || !strings.Contains(errs, "named pipe") || !strings.Contains(out, "$1.0000") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the FIFO named and a cost of $1.0000", code, out, errs)
	}
}
