//go:build unix

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestInterruptDuringPreflight: issue 56: Ctrl-C while the preflight
// waited for the model listing printed "preflight: context canceled". It
// now says the run was interrupted before any job was sent.
func TestInterruptDuringPreflight(t *testing.T) {
	t.Parallel()
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		select { // a listing that never answers
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	cmd := exec.Command(builtHarness(t), "run", "--models", "vendor/a", "--judges", "offline/judge", "--tasks", "17-b",
		"--config", mustAbs(t, "../../harness.yaml"), "--corpus", mustAbs(t, "../../corpus"), "--instructions", mustAbs(t, "../../instructions"))
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &errb
	cmd.Env = append(exampleEnv(srv.URL), "OPENROUTER_API_KEY=sk-test")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A bound on a hang, not a speed: a binary started on a busy CI core
	// may take seconds to ask.
	for deadline := time.Now().Add(2 * time.Minute); asked.Load() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the preflight asked nothing in 2 minutes:\n%s%s", out.String(), errb.String())
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	errs := errb.String()
	if strings.Contains(errs, "context canceled") || !strings.Contains(errs, "interrupted during the preflight") {
		t.Errorf("Ctrl-C during the preflight printed:\n%s\nwant it to say interrupted, not context canceled", errs)
	}
}
