package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/transcript"
)

// This file holds the regression tests of issue 20, a fault and
// hostile-input probe of the harness: each is named after what broke.

// TestAbsurdRepeatsRefusedBeforeAllocating: --repeats 100000000 (or
// repeats: in the configuration or run.json) allocated until the kernel
// killed the process, even with --dry-run, and rescore of such a run.json
// asked for 4.3 TB. Each is now refused (exit 2) before anything is sized
// by the count.
func TestAbsurdRepeatsRefusedBeforeAllocating(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--models", "offline/oracle", "--judges", "offline/judge", "--dry-run", "--progress", "none",
		"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports")}
	if _, errs, code := runCLI(t, append(base, "--repeats", "100000000")...); code != 2 || !strings.Contains(errs, "--repeats takes a whole number from 1 to 1000, not 100000000") {
		t.Errorf("--repeats 100000000: exit %d, stderr %q", code, errs)
	}
	cfg := writeFile(t, dir, "huge.yaml", "repeats: 100000000\n")
	if _, errs, code := runCLI(t, append(base, "--config", cfg)...); code != 2 || !strings.Contains(errs, "repeats: a whole number from 1 to 1000") {
		t.Errorf("repeats: 100000000 in the configuration: exit %d, stderr %q", code, errs)
	}
	if _, errs, code := runCLI(t, append(base, "--suite", "relay", "--steps", "1000000000")...); code != 2 || !strings.Contains(errs, "--steps takes a whole number from 1 to 99") {
		t.Errorf("--steps 1000000000: exit %d, stderr %q", code, errs)
	}

	// A run.json whose repeats (manifest and configuration alike, the
	// configuration's hash recomputed) were raised is refused by rescore
	// and resume, naming the file and the pointer.
	off := filepath.Join(dir, "offline")
	os.MkdirAll(off, 0o755)
	runDir := offlineRun(t, off, "r")
	path := filepath.Join(runDir, transcript.ManifestName)
	var m map[string]any
	if err := json.Unmarshal(mustRead(t, path), &m); err != nil {
		t.Fatal(err)
	}
	m["repeats"] = 100000000
	var c map[string]any
	if err := json.Unmarshal(mustJSON(t, m["config"]), &c); err != nil {
		t.Fatal(err)
	}
	c["repeats"] = 100000000
	m["config"] = c
	m["config_hash"] = configHash(t, c)
	if err := os.WriteFile(path, mustJSON(t, m), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "run.json: /config: repeats: a whole number from 1 to 1000, not 100000000"
	if _, errs, code := runCLI(t, "rescore", "--out", t.TempDir(), runDir); code != 2 || !strings.Contains(errs, want) {
		t.Errorf("rescore: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none"); code != 2 || !strings.Contains(errs, want) {
		t.Errorf("resume: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// configHash recomputes config_hash as the harness does.
func configHash(t *testing.T, c map[string]any) string {
	t.Helper()
	var cfg config.Config
	if err := json.Unmarshal(mustJSON(t, c), &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg.Hash()
}

// TestMissingCorpusDirIsRefusedNotEmbedded: --corpus or --instructions
// naming a directory that does not exist silently fell back to the
// embedded corpus and tasks (exit 0: the user believed their corpus was
// tested). Only the default names fall back.
func TestMissingCorpusDirIsRefusedNotEmbedded(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "my-corpus")
	for _, args := range [][]string{
		{"corpus", "check", "--corpus", missing},
		{"corpus", "check", "--instructions", missing},
		{"run", "--models", "offline/oracle", "--judges", "offline/judge", "--progress", "none", "--corpus", missing,
			"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports")},
		{"expect", "--task", "../../instructions/03-b.json", "--corpus", missing},
	} {
		if _, errs, code := runCLI(t, args...); code != 2 || !strings.Contains(errs, missing+": ") {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %s", args, code, errs, missing)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
		t.Error("a refused run created its runs directory")
	}
}

// TestCopiedTranscriptRefusedInAnotherSlot: a transcript was checked only
// against its own hash, so one copied over another task's, another
// model's or another run's was accepted by rescore and changed the score.
// Rescore now refuses it, naming the file and the slot.
func TestCopiedTranscriptRefusedInAnotherSlot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	runDir := offlineRun(t, dir, "r")
	otherRun := offlineRun(t, dir, "other")
	for _, tc := range []struct {
		name      string
		from      func(d string) string
		wantField string
	}{
		{"another task", func(d string) string { return transcript.TaskPath(d, "offline/noisy", "04-b", 0) }, "/task_id"},
		{"another model", func(d string) string { return transcript.TaskPath(d, "offline/oracle", "03-b", 0) }, "/model"},
		{"another run", func(string) string { return transcript.TaskPath(otherRun, "offline/noisy", "03-b", 0) }, "/run_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := filepath.Join(t.TempDir(), "r")
			copyDir(t, runDir, d)
			dst := transcript.TaskPath(d, "offline/noisy", "03-b", 0)
			if err := os.WriteFile(dst, mustRead(t, tc.from(d)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, errs, code := runCLI(t, "rescore", "--out", t.TempDir(), d)
			want := dst + ": " + tc.wantField + ": transcript belongs to another slot"
			if code != 2 || !strings.Contains(errs, want) || !strings.Contains(errs, "in the slot of r/offline/noisy/03-b/r0") {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q naming the slot", code, errs, want)
			}
			if _, errs, code := runCLI(t, "run", "--resume", d, "--progress", "none"); code != 2 || !strings.Contains(errs, want) {
				t.Errorf("resume: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
			}
		})
	}
}
