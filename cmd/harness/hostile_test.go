package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
