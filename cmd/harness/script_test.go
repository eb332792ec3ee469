package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/internal/linediff"
)

// TestScripts runs the scenarios in testdata/script/*.txtar, in the manner
// of golang.org/x/tools: each archive's comment says what it guards; its
// "cmd" file holds command lines ("harness ...", "cat FILE" to show a file a
// command wrote, "env NAME=VALUE harness ..." to set a variable), run in a
// fresh directory
// that holds the archive's other files; the last command's exit code,
// standard output and standard error must equal the "exit", "stdout" and
// "stderr" files (earlier commands must exit 0 or 1; "> FILE" after a
// command writes its standard output to FILE instead). Paths below the
// directory print as $WORK and clock times as $TIME, so the files are the
// same on every machine. go test -update rewrites the expected files.
//
// Each harness command runs in a process of its own (scriptCommand), the
// harness as a user builds and runs it: the scenarios then need neither
// the process's working directory nor its environment, and run in
// parallel.
func TestScripts(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runScript(t, file)
		})
	}
}

// expected are the archive files a scenario's result is compared with.
var expected = map[string]bool{"exit": true, "stdout": true, "stderr": true}

// runScript runs the scenario in file: its files written to a work
// directory, its commands run in order, and the last one's exit, stdout
// and stderr compared with the scenario's (or written into it, -update).
func runScript(t *testing.T, file string) {
	file, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	cmds := scriptSetup(t, ar, work)
	stdout, stderr, code := scriptRun(t, work, cmds)
	got := map[string]string{"exit": strconv.Itoa(code) + "\n", "stdout": normalize(stdout, work), "stderr": normalize(stderr, work)}
	if *golden.Update {
		scriptUpdate(t, file, ar, got)
		return
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if expected[f.Name] {
			want[f.Name] = string(f.Data)
		}
	}
	for _, name := range []string{"exit", "stdout", "stderr"} {
		if got[name] != want[name] {
			t.Errorf("%s differs (%s); go test -update rewrites it if the change is intended:\n%s",
				name, strings.TrimSpace(string(ar.Comment)), linediff.Unified(want[name], got[name], 2))
		}
	}
}

// scriptSetup writes the scenario's files (all but cmd and the expected
// results) into work and returns its commands, comments and blank lines
// left out.
func scriptSetup(t *testing.T, ar *txtar.Archive, work string) []string {
	t.Helper()
	var cmds []string
	for _, f := range ar.Files {
		switch {
		case f.Name == "cmd":
			for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					cmds = append(cmds, l)
				}
			}
		case !expected[f.Name]:
			p := filepath.Join(work, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(cmds) == 0 {
		t.Fatal("no cmd file")
	}
	return cmds
}

// scriptRun runs the commands in work and returns the last one's stdout,
// stderr and exit code; a command before the last that could not run
// (exit 2) fails the test. "> FILE" writes a command's stdout to FILE.
func scriptRun(t *testing.T, work string, cmds []string) (stdout, stderr string, code int) {
	t.Helper()
	// No key and no API root but what the scenario sets (env lines), which
	// hold for the rest of it.
	env := []string{"OPENROUTER_API_KEY=", "OPENROUTER_BASE_URL="}
	for i, line := range cmds {
		line, redirect, _ := strings.Cut(line, ">")
		args := strings.Fields(line)
		switch {
		case args[0] == "cat" && len(args) == 2:
			// cat FILE shows a file the commands wrote (a report).
			b, err := os.ReadFile(inDir(work, args[1]))
			if err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code = string(b), "", 0
		case args[0] == "env" && len(args) >= 3:
			// env NAME=VALUE harness ... sets a variable for the scenario.
			env = append(env, args[1])
			stdout, stderr, code = scriptCommand(t, work, env, args[3:]...)
		case args[0] != "harness":
			t.Fatalf("command %q does not start with harness, cat or env", line)
		default:
			stdout, stderr, code = scriptCommand(t, work, env, args[1:]...)
		}
		if i < len(cmds)-1 && code > 1 {
			t.Fatalf("%s: exit %d: %s", line, code, stderr)
		}
		if name := strings.TrimSpace(redirect); name != "" {
			if err := os.WriteFile(inDir(work, name), []byte(stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout = ""
		}
	}
	return stdout, stderr, code
}

// scriptUpdate writes got into the scenario file as its expected exit,
// stdout and stderr (go test -update).
func scriptUpdate(t *testing.T, file string, ar *txtar.Archive, got map[string]string) {
	t.Helper()
	for i, f := range ar.Files {
		if expected[f.Name] {
			ar.Files[i].Data = []byte(got[f.Name])
			delete(got, f.Name)
		}
	}
	for _, name := range []string{"exit", "stdout", "stderr"} {
		if _, ok := got[name]; ok {
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(got[name])})
		}
	}
	if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
		t.Fatal(err)
	}
}

// harnessBinary is the harness built by go build (go test puts its own go
// first on PATH), as a user builds it: without the race detector even
// under go test -race, which checked every byte the scenarios' offline
// runs moved and made them most of the package's time. The in-process
// tests run the same code under the detector.
var harnessBinary made[string]

// builtHarness returns the path of harnessBinary, building it first.
func builtHarness(t *testing.T) string {
	t.Helper()
	return harnessBinary.get(t, "building the harness", func(dir string) (string, error) {
		gotool, err := exec.LookPath("go")
		if err != nil {
			return "", err
		}
		path := filepath.Join(dir, "harness")
		if out, err := exec.Command(gotool, "build", "-o", path, ".").CombinedOutput(); err != nil {
			return "", fmt.Errorf("go build: %v\n%s", err, out)
		}
		return path, nil
	})
}

// scriptCommand runs the harness with args in dir, the environment being
// the test's with env added, as a user with harness on PATH runs it
// (argument 0 is "harness").
func scriptCommand(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(builtHarness(t), args...)
	cmd.Args[0] = "harness"
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &errb
	cmd.Env = append(os.Environ(), env...)
	err := cmd.Run()
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.Exited() {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("harness %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errb.String(), code
}

// runBuilt is runCLI through builtHarness, in the test's working
// directory: for the tests that check what a whole run decides and writes
// (its verdict, report, archive), not how it runs concurrently, the run is
// the harness a user runs, without the race detector. The in-process
// tests (runCLI) run the same code under it.
func runBuilt(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return scriptCommand(t, "", nil, args...)
}

// inDir is name in dir unless it is absolute.
func inDir(dir, name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(dir, name)
}

var (
	timeRe  = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z`)
	stampRe = regexp.MustCompile(`\b\d{8}T\d{6}Z\b`)
	// weekRe is a trend's week and dates (harness trend's Markdown).
	weekRe = regexp.MustCompile("`\\d{4}-W\\d\\d` \\| \\d{4}-\\d\\d-\\d\\d( – \\d{4}-\\d\\d-\\d\\d)? \\|")
)

// normalize makes output comparable across machines and runs: the work
// directory prints as $WORK and clock times as $TIME.
func normalize(s, work string) string {
	s = strings.ReplaceAll(s, work, "$WORK")
	if real, err := filepath.EvalSymlinks(work); err == nil {
		s = strings.ReplaceAll(s, real, "$WORK")
	}
	s = timeRe.ReplaceAllString(s, "$$TIME")
	s = weekRe.ReplaceAllString(s, "`$$WEEK` | $$DATE |")
	return stampRe.ReplaceAllString(s, "$$TIME")
}
