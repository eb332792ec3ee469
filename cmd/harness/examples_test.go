package main

import (
	"bytes"
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

// examples returns every distinct line of the Examples: blocks of the
// commands' help, as the binary prints them.
func examples(t *testing.T, bin string) []string {
	t.Helper()
	var out []string
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
			if l = exampleNote.ReplaceAllString(strings.TrimSpace(l), ""); l != "" && !slices.Contains(out, l) {
				out = append(out, l)
			}
		}
	}
	return out
}

// TestHelpExamplesRun: help examples failed as written: a corpus file
// that is 07-go-retry-loop, not 07-go-retry; --task ladder/8k.tasks.json
// where ladder/ was the Go package (suites/ladder/ now); judge model ids other than
// harness.yaml's (issue 34). Every Examples: line of every command's help
// now runs, in bash, in a scratch directory holding what a user would
// have: the corpus and tasks, a built size ladder, two finished offline
// runs and their reports, an answer to score. No harness invocation in it
// may fail for a missing file or flag: each exits 0 or 1, or 2 only for
// want of an API key (the gating run). The only server is a local fake.
func TestHelpExamplesRun(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the examples in")
	}
	bin := builtHarness(t)
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"verdict": "faithful", "reason": "r", "quotes": []}`))
	dir := t.TempDir()
	work := filepath.Join(dir, "w")
	env := append(exampleEnv(srv.URL), "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary.md"))
	exampleScratch(t, bin, dir, work, env)
	log := filepath.Join(dir, "log")
	// harness is a function that runs the binary and logs each
	// invocation's exit code and stderr; a pipe's or a redirect's other
	// commands (diff, jq) run as they will.
	prelude := fmt.Sprintf(`n=0
harness() { n=$((n+1)); %q "$@" 2>%q.$n; c=$?; printf '%%s\t%%s\n' "$c" "$*" >> %q; cat %q.$n >&2; return $c; }
`, bin, log, log, log)
	for _, line := range examples(t, bin) {
		line = strings.ReplaceAll(line, "http://localhost:8000/v1", srv.URL)
		os.Remove(log)
		cmd := exec.Command("bash", "-c", prelude+line)
		cmd.Dir, cmd.Env = work, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		_ = cmd.Run() // the harness invocations' own codes are in the log
		checkExampleLog(t, line, log, out.String())
	}
}

// checkExampleLog checks the invocations one example line made.
func checkExampleLog(t *testing.T, line, log, output string) {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Errorf("%s: no harness invocation ran (%v)\n%s", line, err, output)
		return
	}
	for i, entry := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		code, args, _ := strings.Cut(entry, "\t")
		errs, _ := os.ReadFile(fmt.Sprintf("%s.%d", log, i+1))
		switch {
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

// exampleScratch fills dir with what the examples name: work/ holds the
// corpus, the tasks, harness.yaml, a size ladder, runs/demo and
// runs/20261122T101500Z with their reports, copies of a report and a run
// under the names compare's, trend's and runs' examples use (nights/1/),
// documents and answers;
// dir/my-corpus and dir/my-tasks are the "../my-corpus" of corpus check.
func exampleScratch(t *testing.T, bin, dir, work string, env []string) {
	t.Helper()
	sh := func(script string) {
		t.Helper()
		cmd := exec.Command("bash", "-ec", script)
		cmd.Dir, cmd.Env = dir, append(env, "H="+bin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("preparing the scratch directory: %v\n%s\n%s", err, script, out)
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sh(fmt.Sprintf(`mkdir -p w && cp -r %[1]q/corpus %[1]q/instructions %[1]q/harness.yaml w/
cp -r %[1]q/corpus my-corpus && cp -r %[1]q/instructions my-tasks && cp w/harness.yaml w/my-thresholds.yaml`, root))
	offline := "--models offline/oracle,offline/identity,offline/noisy --judges offline/judge --no-preflight --progress none"
	sh(`cd w && "$H" corpus ladder --out size-ladder --rungs 8k,32k >/dev/null
"$H" run ` + offline + ` --run-id demo >/dev/null || [ $? = 1 ]
"$H" run ` + offline + ` --run-id 20261122T101500Z >/dev/null || [ $? = 1 ]
for r in 20261101T000000Z old new; do cp reports/demo.json reports/$r.json; done
mkdir -p nights/1/reports nights/1/runs && cp reports/demo.json nights/1/reports/ && cp -r runs/demo nights/1/runs/
cp corpus/01-birdwatching-field-notes.bend.json doc.bend.json && cp doc.bend.json out.bend.json
"$H" expect --task instructions/03-b.json > answer.txt
echo '[]' > patch.json`)
}
