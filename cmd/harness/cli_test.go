package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// runCLI runs the harness with args and returns its output and exit code.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	code = 0
	if err != nil {
		code = exitCode(err)
		printError(&errb, err)
	}
	return out.String(), errb.String(), code
}

// checkResumeAsked checks the requests a resume made (asked) against the
// jobs the interrupted run had finished (kept, by key): none of those asked
// again, and every other of the run's total jobs asked.
func checkResumeAsked(t *testing.T, asked []modeltest.ChatRequest, key func(modeltest.ChatRequest) string, kept map[string]bool, total int) {
	t.Helper()
	n := map[string]int{}
	for _, req := range asked {
		k := key(req)
		if kept[k] {
			t.Errorf("the resume asked %s again, which had finished", k)
		}
		n[k]++
	}
	if len(n) != total-len(kept) {
		t.Errorf("the resume asked %d jobs, want the %d unfinished", len(n), total-len(kept))
	}
}

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const emptyDoc = `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[]}`

func TestIDPrintsCID(t *testing.T) {
	t.Parallel()
	p := writeFile(t, t.TempDir(), "e.bend.json", emptyDoc)
	out, _, code := runCLI(t, "id", p)
	if want := p + "\tbagaaiera3zz67ptzgpzupydb2ycki4mcfuoj426vmfclanzn3f25g2piz2eq\n"; out != want || code != 0 {
		t.Errorf("id = %q (exit %d), want %q", out, code, want)
	}
	if _, errs, code := runCLI(t, "id", "--check", p); code != 1 || !strings.Contains(errs, `/id: declared "x", computed "bagaaiera3zz`) {
		t.Errorf("id --check on a stale id: exit %d, stderr %q", code, errs)
	}
}

func TestIDWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := writeFile(t, dir, "d.bend.json", `{"bendscript":"0.1","id":"old","vocabulary":"core","blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"hi"}]}],"edges":[{"subject":"bend:old#b.s","predicate":"cites","object":"https://x.org"}],"meta":{"n":1e21}}`)
	if _, errs, code := runCLI(t, "id", "--write", p); code != 0 {
		t.Fatalf("id --write: exit %d: %s", code, errs)
	}
	if _, errs, code := runCLI(t, "id", "--check", p); code != 0 {
		t.Errorf("id --check after --write: exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(p)
	if strings.Contains(string(b), "bend:old") || !strings.Contains(string(b), `"n": 1e21`) {
		t.Errorf("rewritten file:\n%s", b)
	}
}

func TestValidateExitCodes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeFile(t, dir, "good.bend.json", emptyDoc)
	bad := writeFile(t, dir, "bad.bend.json", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"h","kind":"heading","level":9,"spans":[]}],"edges":[{"subject":"bend:x#nope","predicate":"cites","object":"https://a"}]}`)
	broken := writeFile(t, dir, "broken.bend.json", `{"blocks": [`)
	if _, _, code := runCLI(t, "validate", good); code != 0 {
		t.Errorf("valid file: exit %d", code)
	}
	out, _, code := runCLI(t, "validate", good, bad, broken)
	if code != 1 {
		t.Errorf("invalid files: exit %d, want 1", code)
	}
	for _, want := range []string{
		bad + ": /blocks/0/level: a heading needs a level from 1 to 6 (§2.2)",
		bad + `: /edges/0/subject: broken reference "bend:x#nope": no block "nope" in this document (§6.4)`,
		broken + ": /blocks/0: not valid JSON: unexpected end of input (§3)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if _, _, code := runCLI(t, "validate"); code != 2 {
		t.Errorf("no files: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, "validate", "--nope"); code != 2 {
		t.Errorf("bad flag: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, "frobnicate"); code != 2 {
		t.Errorf("unknown command: exit %d, want 2", code)
	}
}

func TestCorpusCheckCLI(t *testing.T) {
	t.Parallel()
	out, errs, code := runCLI(t, "corpus", "check", "--corpus", "../../corpus", "--instructions", "../../instructions")
	if code != 0 || !strings.Contains(out, "ok: 20 documents, 60 tasks, 40 gold edits") {
		t.Fatalf("corpus check: exit %d\n%s%s", code, out, errs)
	}
	// A copy with one broken gold edit fails with exit 1 and names the file.
	dir := t.TempDir()
	copyDir(t, "../../instructions", filepath.Join(dir, "instructions"))
	p := filepath.Join(dir, "instructions", "01-b.json")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"span": "spn-04"`, `"span": "spn-44"`, 1)), 0o644)
	out, _, code = runCLI(t, "corpus", "check", "--corpus", "../../corpus", "--instructions", filepath.Join(dir, "instructions"))
	if code != 1 || !strings.Contains(out, "instructions/01-b.json: /gold_edit: does not apply") {
		t.Errorf("broken gold edit: exit %d\n%s", code, out)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestExpectAndScore(t *testing.T) {
	t.Parallel()
	exp, errs, code := runCLI(t, "expect", "--task", "../../instructions/03-b.json", "--corpus", "../../corpus")
	if code != 0 {
		t.Fatalf("expect: exit %d: %s", code, errs)
	}
	p := writeFile(t, t.TempDir(), "out.txt", "Here you go:\n```json\n"+exp+"```\n")
	out, errs, code := runCLI(t, "score", "--task", "../../instructions/03-b.json", "--corpus", "../../corpus", "--output", p)
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, errs)
	}
	for _, want := range []string{`"drift": 0,`, `"edit_applied": true`, `"extraction": "fenced"`, `"metric_version"`, `"block_structure": 0`} {
		if !strings.Contains(out, want) {
			t.Errorf("score output lacks %s:\n%s", want, out)
		}
	}
	stdin = strings.NewReader("not json at all")
	defer func() { stdin = os.Stdin }()
	out, _, _ = runCLI(t, "score", "--task", "../../instructions/03-b.json", "--corpus", "../../corpus", "--output", "-")
	if !strings.Contains(out, `"drift": 1,`) || !strings.Contains(out, `"valid": false`) {
		t.Errorf("garbage output:\n%s", out)
	}
	if _, _, code := runCLI(t, "expect", "--task", "../../instructions/03-a.json", "--corpus", "../../corpus"); code != 2 {
		t.Errorf("expect on a class A task: exit %d, want 2", code)
	}
}

func TestRunWithoutKeyExits2(t *testing.T) {
	t.Setenv("OPENROUTER_API_KEY", "")
	_, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errs, "OPENROUTER_API_KEY is not set") || !strings.Contains(errs, "make demo") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestIDRefusesInvalidDocuments: id and id --write on a document that
// breaks the rules exit 1 with its validation errors, and --write leaves
// the file as it was.
func TestIDRefusesInvalidDocuments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `{"bendscript":"0.1","id":7,"vocabulary":"core","blocks":[],"edges":[]}`
	p := writeFile(t, dir, "bad.bend.json", src)
	for _, args := range [][]string{{"id", p}, {"id", "--write", p}} {
		out, errs, code := runCLI(t, args...)
		if code != 1 || out != "" || !strings.Contains(errs, "bad.bend.json: /id") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 1, no id, and the error at /id", args, code, out, errs)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != src {
		t.Errorf("id --write rewrote an invalid document:\n%s", b)
	}
}

// TestFlagsAfterArguments: flags may follow the arguments, as the README
// writes them (show RUN TASK [--model M]); "--" still ends the flags.
func TestFlagsAfterArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args   []string
		model  string
		rest   []string
		reason string
	}{
		{[]string{"runs/g", "03-b", "--model", "m"}, "m", []string{"runs/g", "03-b"}, "the README's order"},
		{[]string{"--model", "m", "runs/g", "03-b"}, "m", []string{"runs/g", "03-b"}, "flags first, as before"},
		{[]string{"runs/g", "--model", "m", "03-b"}, "m", []string{"runs/g", "03-b"}, "a flag between arguments"},
		{[]string{"runs/g", "--", "--model", "m"}, "", []string{"runs/g", "--model", "m"}, "after --, everything is an argument"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		fs := flag.NewFlagSet("show", flag.ContinueOnError)
		model := fs.String("model", "", "")
		if _, err := parseFlags(fs, c.args); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		if *model != c.model || !slices.Equal(fs.Args(), c.rest) {
			t.Errorf("%v: model %q, args %q; want %q, %q (%s)", c.args, *model, fs.Args(), c.model, c.rest, c.reason)
		}
	}
}

// TestExitCode pins the exit codes: a usage error is 2 wherever it is
// found and whatever wraps it; a negative result 1; any other error 2.
func TestExitCode(t *testing.T) {
	mistake := usage.Errorf("run: --repeats takes a whole number from 1 to 100, not 0")
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		err    error
		want   int
		reason string
	}{
		{"usage", mistake, exitCantRun, "a mistake on the command line: the command could not run"},
		{"wrapped usage", fmt.Errorf("resume: %w", mistake), exitCantRun, "a mistake found deeper down is still the user's"},
		{"usage in a negative result", &exitError{exitFail, mistake}, exitCantRun, "a usage error never reads as a failing verdict"},
		{"negative result", failed(), exitFail, "a failing verdict or an invalid document"},
		{"other", errors.New("disk full"), exitCantRun, "I/O and configuration: the command could not run"},
	}) {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d (%s)", c.name, got, c.want, c.reason)
		}
	}
}
