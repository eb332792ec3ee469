package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
)

// exampleCommands are the commands whose -h lists examples: every
// command, and the subcommands of corpus and judge.
func exampleCommands() [][]string {
	var out [][]string
	for _, c := range commands() {
		out = append(out, []string{c.name})
	}
	for _, sub := range corpusSubcommands {
		out = append(out, []string{"corpus", sub[0]})
	}
	return append(out, []string{"judge", "calibrate"})
}

// exampleNote is what an example line carries after the command: a shell
// comment, or a note in parentheses after two spaces.
var exampleNote = regexp.MustCompile(`\s+#.*$|\s{2,}\(.*\)$`)

// documentedExit is an exit code an example's note documents.
var documentedExit = regexp.MustCompile(`\bexits (\d)\b`)

// example is one line of an Examples: block: the command, and the exit
// code its note documents (-1 for none).
type example struct {
	line string
	exit int
}

// examples returns every distinct line of the Examples: blocks of the
// commands' help, as the binary prints them.
func examples(t *testing.T, bin string) []example {
	t.Helper()
	var out []example
	for _, args := range exampleCommands() {
		var errb bytes.Buffer
		cmd := exec.Command(bin, append(args, "-h")...)
		cmd.Stderr, cmd.Stdout = &errb, &errb
		if err := cmd.Run(); err != nil {
			t.Errorf("harness %s -h: %v\n%s", strings.Join(args, " "), err, errb.String())
			continue
		}
		_, block, ok := strings.Cut(errb.String(), "\nExamples:\n")
		if !ok {
			t.Errorf("harness %s -h has no examples", strings.Join(args, " "))
		}
		for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
			ex := example{line: exampleNote.ReplaceAllString(strings.TrimSpace(l), ""), exit: -1}
			if m := documentedExit.FindStringSubmatch(exampleNote.FindString(l)); m != nil {
				ex.exit = int(m[1][0] - '0')
			}
			if ex.line != "" && !slices.ContainsFunc(out, func(e example) bool { return e.line == ex.line }) {
				out = append(out, ex)
			}
		}
	}
	return out
}

// TestHelpExamplesRun: help examples failed as written: a corpus file
// that is 07-go-retry-loop, not 07-go-retry; --task ladder/8k.tasks.json
// where ladder/ was the Go package (suites/ladder/ now); judge model ids other than
// harness.yaml's (issue 34). They ran in a scratch directory the test
// made for them, so examples naming runs/demo passed there and failed
// after make demo, which named its run runs/demo-<time> (issue 46).
// Every Examples: line of every command's help now runs, in bash, in the
// order harness -h lists the commands, in a directory holding what a
// fresh checkout holds (the corpus, the tasks, harness.yaml) after
// scripts/demo, which make demo runs, ran there. No harness invocation in
// it may fail for a missing file or flag: each exits 0 or 1 (or the exit
// its example's comment documents, "exits N"), or 2 only for want of an
// API key (the gating run); the line itself, run with pipefail, exits 0
// or 1. The only server is a local fake.
func TestHelpExamplesRun(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the examples in")
	}
	bin := builtHarness(t)
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"verdict": "faithful", "reason": "r", "quotes": []}`))
	dir := t.TempDir()
	work := filepath.Join(dir, "w")
	env := append(exampleEnv(srv.URL), "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary.md"))
	afterDemo(t, bin, work, env)
	log := filepath.Join(dir, "log")
	// harness is a function that runs the binary and logs each
	// invocation's exit code and stderr; a pipe's or a redirect's other
	// commands (diff, jq) run as they will.
	prelude := fmt.Sprintf(`set -o pipefail
n=0
harness() { n=$((n+1)); %q "$@" 2>%q.$n; c=$?; printf '%%s\t%%s\n' "$c" "$*" >> %q; cat %q.$n >&2; return $c; }
`, bin, log, log, log)
	for _, ex := range examples(t, bin) {
		line := strings.ReplaceAll(ex.line, "http://localhost:8000/v1", srv.URL)
		if strings.Contains(line, "| jq ") {
			if _, err := exec.LookPath("jq"); err != nil {
				t.Logf("%s: not run, no jq", line)
				continue
			}
		}
		os.Remove(log)
		cmd := exec.Command("bash", "-c", prelude+line)
		cmd.Dir, cmd.Env = work, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.ExitCode() > 1 && !strings.Contains(out.String(), "OPENROUTER_API_KEY is not set") {
			t.Errorf("example %q exited %d:\n%s", line, exit.ExitCode(), out.String())
		}
		checkExampleLog(t, ex, log, out.String())
	}
}

// afterDemo makes work what a user has after make demo in a fresh
// checkout: the corpus, the tasks and harness.yaml, then scripts/demo run
// there with the built harness (its runs/ and reports/).
func afterDemo(t *testing.T, bin, work string, env []string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-ec", fmt.Sprintf(`cp -r %[1]q/corpus %[1]q/instructions %[1]q/harness.yaml .
%[1]q/scripts/demo "$H" >/dev/null`, root))
	cmd.Dir, cmd.Env = work, append(env, "H="+bin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make demo's scripts/demo: %v\n%s", err, out)
	}
}

// checkExampleLog checks the invocations one example line made.
func checkExampleLog(t *testing.T, ex example, log, output string) {
	t.Helper()
	line := ex.line
	data, err := os.ReadFile(log)
	if err != nil {
		t.Errorf("%s: no harness invocation ran (%v)\n%s", line, err, output)
		return
	}
	entries := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, entry := range entries {
		code, args, _ := strings.Cut(entry, "\t")
		errs, _ := os.ReadFile(fmt.Sprintf("%s.%d", log, i+1))
		switch {
		case ex.exit >= 0 && i == len(entries)-1:
			if code != fmt.Sprint(ex.exit) {
				t.Errorf("example %q: harness %s exited %s, its help says %d:\n%s", line, args, code, ex.exit, errs)
			}
		case code == "0" || code == "1":
		case code == "2" && strings.Contains(string(errs), "OPENROUTER_API_KEY is not set"):
		default:
			t.Errorf("example %q: harness %s exited %s:\n%s", line, args, code, errs)
		}
	}
}

// exampleEnv is the examples' environment: no key (an online run stops
// at once for want of one) and the fake server as the API, so that no
// example can reach a real provider.
func exampleEnv(base string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OPENROUTER_") {
			env = append(env, kv)
		}
	}
	return append(env, "OPENROUTER_BASE_URL="+base)
}
