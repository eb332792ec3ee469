package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestCorpusLadderCLI is the acceptance test: corpus ladder writes
// four valid rungs whose ids id --check accepts, with their tasks, and a
// second run writes the same bytes.
func TestCorpusLadderCLI(t *testing.T) {
	t.Parallel()
	dirs := []string{t.TempDir(), t.TempDir()}
	for _, dir := range dirs {
		out, errs, code := runCLI(t, "corpus", "ladder", "--out", dir, "--corpus", "../../corpus", "--instructions", "../../instructions")
		if code != 0 || strings.Count(out, "\n") != 4 || errs != "" {
			t.Fatalf("corpus ladder: exit %d\n%s%s", code, out, errs)
		}
	}
	var rungs []string
	for _, name := range []string{"8k", "32k", "128k", "512k"} {
		rungs = append(rungs, filepath.Join(dirs[0], name+".bend.json"))
		for _, suffix := range []string{".bend.json", ".tasks.json"} {
			a, err := os.ReadFile(filepath.Join(dirs[0], name+suffix))
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(dirs[1], name+suffix)); !bytes.Equal(a, b) {
				t.Errorf("%s%s differs between two runs", name, suffix)
			}
		}
		checkLadderTasks(t, filepath.Join(dirs[0], name))
	}
	if out, errs, code := runCLI(t, append([]string{"id", "--check"}, rungs...)...); code != 0 || strings.Count(out, "\n") != 4 {
		t.Errorf("id --check: exit %d\n%s%s", code, out, errs)
	}
	if out, errs, code := runCLI(t, append([]string{"validate"}, rungs...)...); code != 0 {
		t.Errorf("validate: exit %d\n%s%s", code, out, errs)
	}
}

// checkLadderTasks reads a written tasks file the way a runner would: every
// gold edit applies to the written rung and the result passes its check.
func checkLadderTasks(t *testing.T, base string) {
	t.Helper()
	data, err := os.ReadFile(base + ".bend.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := bend.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	tasksData, err := os.ReadFile(base + ".tasks.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := bend.ParseValue(tasksData)
	if err != nil || v.Kind != bend.Array || len(v.Elems) == 0 {
		t.Fatalf("%s.tasks.json: %v", base, err)
	}
	for _, o := range v.Elems {
		ops, err := edit.FromValue(o.Get("gold_edit"))
		if err != nil {
			t.Fatalf("%s: %v", o.Get("id").Str, err)
		}
		exp, err := edit.Apply(doc, ops)
		if err != nil {
			t.Errorf("%s: %v", o.Get("id").Str, err)
			continue
		}
		if ok, _ := edit.Compliance(edit.Check(exp, doc.ID, ops)); !ok {
			t.Errorf("%s: the expected document fails its check", o.Get("id").Str)
		}
	}
}

func TestCorpusLadderUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range tabletest.Cases(t, []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"corpus", "ladder"}, "give --out DIR", "--out is required"},
		{[]string{"corpus", "ladder", "--out", dir, "extra"}, "give --out DIR and no arguments", "stray arguments are mistakes"},
		{[]string{"corpus", "ladder", "--out", dir, "--rungs", "8q"}, `--rungs: rung "8q"`, "a bad rung names itself"},
		{[]string{"corpus", "ladder", "--out", dir, "--tasks", " , "}, "--tasks: no task given", "an empty task list builds nothing useful"},
		{[]string{"corpus", "ladder", "--out", dir, "--tasks", "04-c"}, "refers to the whole document", "a task without a position is refused, with the reason"},
		{[]string{"corpus", "ladder", "--out", dir, "--rungs", "4k"}, "rung 4k:", "a rung whole documents cannot make is refused"},
		{[]string{"corpus", "ladder", "--nope"}, "", "unknown flag"},
		{[]string{"corpus", "frobnicate"}, "the subcommands are check, ladder and sensitivity", "the corpus usage names every subcommand"},
	}) {
		_, errs, code := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q (%s)", c.args, code, errs, c.want, c.reason)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused runs wrote %d files", len(entries))
	}
}
