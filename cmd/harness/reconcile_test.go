package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReconcileOfflineAndWithoutKey: issue 56: harness runs --reconcile
// took no bare run id; on make demo's offline run it needed a key, and
// without one said "run make demo"; with one it said "GET /generation
// priced them at $0.0000" where nothing had been asked. It now takes the
// run id, prices nothing on a run with no cost unknown (no key needed,
// no file written, exit 0) and says so, and a run with costs to price
// and no key is told which key, not to run make demo.
func TestReconcileOfflineAndWithoutKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	noKey := []string{"OPENROUTER_API_KEY=", "OPENROUTER_BASE_URL="}
	if _, errs, code := scriptCommand(t, dir, noKey, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight",
		"--progress", "none", "--tasks", "17-b", "--config", mustAbs(t, "../../harness.yaml"), "--corpus", mustAbs(t, "../../corpus"),
		"--instructions", mustAbs(t, "../../instructions"), "--run-id", "a"); code > 1 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	out, errs, code := scriptCommand(t, dir, noKey, "runs", "--reconcile", "a")
	if code != 0 || !strings.Contains(out, "nothing to price") || !strings.Contains(out, "GET /generation was not asked") {
		t.Errorf("runs --reconcile a (offline run, bare id, no key): exit %d, stdout %q, stderr %q; want 0 and nothing priced", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", "a", "reconciled.json")); err == nil {
		t.Errorf("runs --reconcile of a run with nothing to price wrote reconciled.json")
	}
	// An attempt that reached OpenRouter and reported no cost.
	if err := os.MkdirAll(filepath.Join(dir, "runs", "a", "vendor_x"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "runs", "a", "vendor_x"), "17-b.r0.json", `{"attempts": [{"generation_id": "gen-1"}]}`)
	_, errs, code = scriptCommand(t, dir, noKey, "runs", "--reconcile", "runs/a")
	if code != 2 || !strings.Contains(errs, "1 attempt of runs/a has no cost") || !strings.Contains(errs, "export OPENROUTER_API_KEY=") || strings.Contains(errs, "make demo") {
		t.Errorf("runs --reconcile of a run with a cost to price, no key: exit %d, stderr %q; want 2, the count and the key, not make demo", code, errs)
	}
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
