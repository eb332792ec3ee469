package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
)

// TestScoreAndExpectEveryTaskKind: expect prints the expected document of
// a gating, natural, inverse and size-ladder task, and score, given it (a
// natural one with its new ids renamed, as a model would name them),
// reports drift 0, the edit applied and lossless. Before, a natural task
// failed with forty lines about other files.
func TestScoreAndExpectEveryTaskKind(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, errs, code := runCLI(t, "corpus", "ladder", "--out", dir, "--rungs", "8k"); code != 0 {
		t.Fatalf("corpus ladder: exit %d: %s", code, errs)
	}
	cases := []struct {
		name   string
		args   []string
		rename map[string]string
		reason string
	}{
		{"gating", []string{"--task", "../../instructions/03-b.json"}, nil, "a gating task's expected document scores as exact"},
		{"natural", []string{"--task", "../../instructions/natural/03-b.json"}, map[string]string{"blk-n001": "blk-mine", "spn-n001": "spn-mine"}, "a natural task's new ids are the model's to name, so an answer with them renamed still scores as exact (it failed with forty lines about other files)"},
		{"inverse", []string{"--task", "../../instructions/inverse/16-c.json"}, nil, "an inverse task is read from its own directory and scores like any other"},
		{"size ladder", []string{"--task", filepath.Join(dir, "8k.tasks.json"), "--id", "8k-middle-02-c"}, nil, "a size-ladder task is picked by --id from a generated tasks file"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		out, errs, code := runCLI(t, append([]string{"expect"}, c.args...)...)
		if code != 0 {
			t.Errorf("%s: expect: exit %d: %s (%s)", c.name, code, errs, c.reason)
			continue
		}
		if _, err := bend.Parse([]byte(out)); err != nil {
			t.Errorf("%s: expect printed no document: %v", c.name, err)
			continue
		}
		answer := out
		for from, to := range c.rename {
			if !strings.Contains(answer, from) {
				t.Fatalf("%s: the expected document has no %s to rename", c.name, from)
			}
			answer = strings.ReplaceAll(answer, from, to)
		}
		file := filepath.Join(t.TempDir(), "answer.json")
		if err := os.WriteFile(file, []byte(answer), 0o644); err != nil {
			t.Fatal(err)
		}
		out, errs, code = runCLI(t, append([]string{"score", "--output", file}, c.args...)...)
		if code != 0 {
			t.Errorf("%s: score: exit %d: %s", c.name, code, errs)
			continue
		}
		var r metric.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if r.Drift != 0 || !r.EditApplied || !r.Lossless {
			t.Errorf("%s: drift %v, applied %v, lossless %v; want 0, true, true: %v", c.name, r.Drift, r.EditApplied, r.Lossless, r.Diagnostics)
		}
	}
}

// TestTaskFileErrorsNameOnlyTheFile: a broken task file beside the one
// scored does not stop it; a broken file given is named alone.
func TestTaskFileErrorsNameOnlyTheFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, name := range []string{"03-b.json", "04-b.json"} {
		b, err := os.ReadFile(filepath.Join("../../instructions", name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "04-b.json" {
			b = []byte(strings.Replace(string(b), `"class"`, `"klass"`, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, errs, code := runCLI(t, "expect", "--task", filepath.Join(dir, "03-b.json")); code != 0 {
		t.Errorf("a broken neighbour stops expect: exit %d: %s", code, errs)
	}
	_, errs, code := runCLI(t, "expect", "--task", filepath.Join(dir, "04-b.json"))
	if code != 2 || !strings.Contains(errs, "04-b.json") || strings.Contains(errs, "03-b.json") {
		t.Errorf("the broken file itself: exit %d, %q; want 2 naming 04-b.json alone", code, errs)
	}
}
