package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestRunsFitsAndCapsFields: harness runs printed rows about 200 columns
// wide (issue 46), and a run.json listing 20,000 models padded every row
// to 269,000 characters, 103 MB of output; a symbolic link named run.json
// listed another run under this directory's name (issue 45). The table
// now fits 120 columns, saying on stderr that fields were cut; --wide
// prints fields whole up to a cap; a symlinked run.json is not listed.
func TestRunsFitsAndCapsFields(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	if _, errs, code := runCLI(t, "run", "--models", "offline/oracle,offline/identity,offline/noisy", "--judges", "offline/judge", "--no-preflight",
		"--progress", "none", "--tasks", "17-b", "--out", runs, "--reports", filepath.Join(dir, "reports"), "--run-id", "a"); code > 1 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	manifest := filepath.Join(runs, "a", "run.json")
	var m map[string]any
	b, err := os.ReadFile(manifest)
	if err != nil || json.Unmarshal(b, &m) != nil {
		t.Fatalf("reading %s: %v", manifest, err)
	}
	models := make([]string, 20000)
	for i := range models {
		models[i] = fmt.Sprintf("vendor/model-%05d", i)
	}
	m["models"], m["run_id"] = models, "many"
	b, _ = json.Marshal(m)
	if err := os.MkdirAll(filepath.Join(runs, "many"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(runs, "many"), "run.json", string(b))
	if err := os.MkdirAll(filepath.Join(runs, "link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(manifest, filepath.Join(runs, "link", "run.json")); err != nil {
		t.Fatal(err)
	}

	out, errs, code := runCLI(t, "runs", runs)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if code != 0 || len(lines) != 3 {
		t.Fatalf("runs: exit %d, %d lines, want the heading and runs a and many:\n%s%s", code, len(lines), out, errs)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > runsWidth {
			t.Errorf("a line of %d columns, over %d: %.200q", n, runsWidth, l)
		}
	}
	if !strings.Contains(errs, "harness runs --wide prints them whole") || !strings.Contains(errs, "run.json is a symbolic link") {
		t.Errorf("runs: stderr %q; want the note on cut fields and the symlinked run.json refused", errs)
	}
	out, _, _ = runCLI(t, "runs", "--wide", runs)
	if len(out) > 10000 || !strings.Contains(out, "offline/oracle,offline/identity,offline/noisy") {
		t.Errorf("runs --wide: %d bytes, want every field whole up to its cap:\n%.2000s", len(out), out)
	}
}

// TestRunsRefusedAndWholeRunID: issue 56: harness runs was 124 columns
// wide, cut the run id (the field one copies into show, rescore and
// --resume) to "20261129T020202.71…", and listed a run whose every
// request was refused as "interrupt…", which invites a resume before the
// cause is fixed. The table fits 120 columns with every run id whole, and
// such a run is "refused".
func TestRunsRefusedAndWholeRunID(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	out, errs, code := runCLIWithin(t, 2*time.Minute, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", filepath.Join(dir, "reports"),
		"--base-url", modeltest.ClosedURL(t), "--no-preflight", "--models", "vendor/a-model-with-a-long-name,vendor/another-model-with-a-long-name",
		"--judges", "offline/judge", "--progress", "none", "--per-model", "1")
	if code != 2 {
		t.Fatalf("run against a closed port: exit %d, want 2\n%s%s", code, out, errs)
	}
	entries, err := os.ReadDir(runs)
	if err != nil || len(entries) != 1 {
		t.Fatalf("want one run in %s: %v %v", runs, entries, err)
	}
	id := entries[0].Name()
	if _, errs, code := runCLI(t, "run", "--models", "offline/oracle,offline/noisy", "--judges", "offline/judge", "--no-preflight", "--progress", "none",
		"--suite", "size", "--rungs", "8k", "--formats", "document,json-patch,bend-ops", "--out", runs, "--reports", filepath.Join(dir, "reports"),
		"--run-id", "a-run-id-of-thirty-two-letters-x"); code > 1 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	out, errs, code = runCLI(t, "runs", runs)
	if code != 0 {
		t.Fatalf("runs: exit %d: %s", code, errs)
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > runsWidth {
			t.Errorf("a line of %d columns, over %d: %q", n, runsWidth, l)
		}
	}
	for _, want := range []string{id + " ", "a-run-id-of-thirty-two-letters-x "} {
		if !strings.Contains(out, want) {
			t.Errorf("run id %q not whole in:\n%s", strings.TrimSpace(want), out)
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, id) && (!strings.Contains(l, " refused ") || strings.Contains(l, "interrupt")) {
			t.Errorf("the run whose every request was refused is listed as:\n%s\nwant refused", l)
		}
	}
}
