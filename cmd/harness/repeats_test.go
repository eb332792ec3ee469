package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRepeatsShowFlakyTasks: the demo's offline models with --repeats 3:
// offline/noisy draws its slips anew each repeat, so some of its tasks
// are lossless in some repeats only (flaky), counted per class and named
// in the warnings; offline/oracle is lossless in every repeat, flaky
// nowhere.
func TestRepeatsShowFlakyTasks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, errs, code := runBuilt(t, "run", "--models", "offline/oracle,offline/noisy", "--judges", "offline/judge", "--no-preflight", "--progress", "none",
		"--repeats", "3", "--classes", "b,c", "--run-id", "r", "--out", filepath.Join(dir, "runs"), "--reports", dir)
	if code > 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	rep := readReport(t, filepath.Join(dir, "r.json"))
	for _, class := range []string{"B", "C"} {
		noisy, oracle := rep.Results["offline/noisy"].Class(class).Repeatability, rep.Results["offline/oracle"].Class(class).Repeatability
		if noisy == nil || noisy.Some == 0 || len(noisy.Flaky) != noisy.Some {
			t.Errorf("offline/noisy class %s: %+v, want flaky tasks named", class, noisy)
		}
		if oracle == nil || oracle.Some != 0 || oracle.Every != oracle.Tasks || oracle.Tasks != 20 {
			t.Errorf("offline/oracle class %s: %+v, want all 20 lossless in every repeat", class, oracle)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "r.md"))
	if !strings.Contains(string(md), "offline/noisy class B: ") || !strings.Contains(string(md), "flaky, lossless in some repeats but not all") ||
		strings.Contains(string(md), "offline/oracle class B: 0 of") || !strings.Contains(string(md), "| 20 / 0 / 0 |") {
		t.Errorf("the Markdown does not name offline/noisy's flaky tasks, or counts offline/oracle's wrong:\n%s", md)
	}
}
