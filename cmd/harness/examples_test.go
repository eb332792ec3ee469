package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
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
// or 1. The only server is a local fake. Issue 56: each example's output
// (or the file it writes) holds the line exampleShows gives, which shows
// what the example is for, and the examples leave nothing in the checkout
// that .gitignore does not cover or make clean does not remove.
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
	tracked := checkoutOf(t, work)
	log := filepath.Join(dir, "log")
	// harness is a function that runs the binary and logs each
	// invocation's exit code and stderr; a pipe's or a redirect's other
	// commands (diff, jq) run as they will.
	prelude := fmt.Sprintf(`set -o pipefail
n=0
harness() { n=$((n+1)); %q "$@" 2>%q.$n; c=$?; printf '%%s\t%%s\n' "$c" "$*" >> %q; cat %q.$n >&2; return $c; }
`, bin, log, log, log)
	seen := map[string]bool{}
	for _, ex := range examples(t, bin) {
		seen[ex.line] = true
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
		checkExampleShows(t, ex.line, work, dir, out.String())
	}
	for line := range tabletest.Map(t, exampleShows) {
		if !seen[line] {
			t.Errorf("exampleShows has %q, which no -h lists", line)
		}
	}
	if tracked {
		checkNothingUntracked(t, work)
	}
}

// exampleShow is what an example's output shows: a line of its output
// (stdout and stderr), or of the file it writes.
type exampleShow struct {
	want string
	file string // "" for the output; $GITHUB_STEP_SUMMARY for that file
	// reason is what the example is for.
	reason string
}

// exampleShows says, for every example of every -h, the line of its
// output that shows what the example is for (issue 56: the compare
// example printed "no difference" beside a 100× change, two runs that
// shared a third of their documents). An example added to a -h needs a
// line here. The gating run's examples have no key here: they show that
// they need one.
var exampleShows = map[string]exampleShow{
	"harness validate corpus/*.bend.json":                                                      {want: "corpus/20-", reason: "every corpus document checked, each ok"},
	"harness expect --task instructions/16-c.json | harness validate - && echo valid":          {want: "-: ok\nvalid", reason: "an expected document is valid, read from stdin"},
	"harness id corpus/01-birdwatching-field-notes.bend.json":                                  {want: "corpus/01-birdwatching-field-notes.bend.json\tbagaaiera", reason: "a document's content id"},
	"harness id --check corpus/*.bend.json":                                                    {want: "corpus/20-", reason: "every declared id checked against its content"},
	"harness id --write corpus/07-go-retry-loop.bend.json":                                     {want: "corpus/07-go-retry-loop.bend.json\tbagaaiera", reason: "the id written in place"},
	"harness project corpus/17-memory-deployment-preferences.bend.json":                        {want: "# [Halvorsen Freight: deployment preferences]{#spn-01} {#blk-e001}", reason: "a document as the text projection"},
	"harness project corpus/17-memory-deployment-preferences.bend.json > 17.md":                {want: "# [Halvorsen Freight: deployment preferences]{#spn-01} {#blk-e001}", file: "17.md", reason: "the projection kept in a file"},
	"harness project --parse 17.md":                                                            {want: `"title": "Memory: Halvorsen Freight deployment preferences"`, reason: "the projection read back into JSON"},
	"harness project corpus/01-birdwatching-field-notes.bend.json | harness project --parse -": {want: `"id": "bagaaiera4dhuwpxvrb3s64srtkewo2eotd3n4nrlqxsv7qfps2htyxnap2kq"`, reason: "a round trip that gives the source's id back"},
	"harness corpus check":                                               {want: "ok: 20 documents, 60 tasks", reason: "the corpus, tasks and gold edits hold"},
	"harness corpus ladder --out size-ladder":                            {want: "512k\t", reason: "the size ladder's rungs up to 512k"},
	"harness corpus sensitivity":                                         {want: "would fail", reason: "what each threshold lets through"},
	"harness expect --task instructions/03-b.json":                       {want: `"title": "Post-mortem: checkout API outage, 3 March 2026"`, reason: "the expected document of a class B task"},
	"harness expect --task instructions/16-c.json > expected.bend.json":  {want: `"bendscript": "0.1"`, file: "expected.bend.json", reason: "the expected document kept in a file"},
	"harness id --write expected.bend.json":                              {want: "expected.bend.json\tbagaaiera", reason: "the expected document given its own id"},
	"harness expect --task instructions/natural/03-b.json":               {want: `"title": "Post-mortem: checkout API outage, 3 March 2026"`, reason: "the expected document of a natural task"},
	"harness expect --task instructions/inverse/03-b.json":               {want: `"title": "Post-mortem: checkout API outage, 3 March 2026"`, reason: "the expected document of an inverse task: the source"},
	"harness expect --task size-ladder/8k.tasks.json --id 8k-start-02-b": {want: `"rung": "8k"`, reason: "the expected document of a ladder task"},
	"harness judge calibrate --models offline/judge":                     {want: "Judge calibration: 80 labelled answers", reason: "a judge against the labelled answers"},
	"OPENROUTER_API_KEY=... harness judge calibrate --models anthropic/claude-opus-5,openai/gpt-5.6-sol,google/gemini-3.1-pro-preview": {want: "panel (majority)", reason: "the panel's majority beside each judge"},
	"harness judge calibrate --models offline/judge --json > calibration.json":                                                         {want: `"cases": 80`, file: "calibration.json", reason: "the calibration as JSON"},
	"harness expect --task instructions/03-b.json > answer.txt":                                                                        {want: `"bendscript": "0.1"`, file: "answer.txt", reason: "an answer to score"},
	"harness score --task instructions/03-b.json --output answer.txt":                                                                  {want: `"drift": 0,`, reason: "the expected answer scores drift 0"},
	"harness expect --task instructions/03-b.json | harness score --task instructions/03-b.json --output -":                            {want: `"drift": 0,`, reason: "an answer scored from stdin"},
	"harness score --task instructions/natural/03-b.json --output answer.txt":                                                          {want: `"aligned": {`, reason: "new ids aligned before scoring"},
	"harness score --task size-ladder/8k.tasks.json --id 8k-start-02-b --output answer.txt":                                            {want: `"drift": 0.94`, reason: "an answer to another task drifts"},
	"echo '[]' | harness score --task instructions/03-b.json --formats json-patch --output -":                                          {want: `"drift": 0.07`, reason: "an empty patch changes nothing and drifts"},
	"harness run":                               {want: "OPENROUTER_API_KEY is not set", reason: "the gating run needs the key"},
	"harness run --dry-run --max-cost 20":       {want: "OPENROUTER_API_KEY is not set", reason: "the preflight needs the key"},
	"harness run --tasks '03-b,17-*' --summary": {want: "OPENROUTER_API_KEY is not set", reason: "a partial online run needs the key"},
	"harness run --models offline/oracle,offline/identity,offline/noisy --judges offline/judge": {want: "Verdict: thresholds not met", reason: "make demo's gating run and its verdict"},
	"harness run --resume runs/demo": {want: "reused", reason: "a finished run resumed reuses every answer"},
	"OPENROUTER_BASE_URL=http://localhost:8000/v1 OPENROUTER_API_KEY=local harness run --models my-model --judges offline/judge --no-preflight": {want: "Verdict: ", reason: "a local server's run to its verdict"},
	"harness rescore runs/demo":      {want: "Verdict: thresholds not met", reason: "the demo's verdict again, offline"},
	"harness rescore --summary demo": {want: "# BendScript round-trip report `demo`", reason: "a run id, and the Markdown printed"},
	`harness rescore --out rescored runs/demo; diff <(grep -v '"rescored_at"' rescored/demo.json) <(grep -v '"rescored_at"' reports/demo.json) && echo same`: {want: "\nsame\n", reason: "a rescore equals the run's report"},
	"harness rescore --format json runs/demo | jq .verdict":                                                  {want: `"fail"`, reason: "the JSON report on stdout"},
	"harness compare reports/demo-size.json reports/demo-formats.json":                                       {want: "pairs: only 6 of 24 documents are in both reports", reason: "two runs that pair on one rung: said first"},
	`harness compare --format md reports/demo-size.json reports/demo-formats.json >> "$GITHUB_STEP_SUMMARY"`: {want: "pairs: only 6 of 24 documents are in both reports", file: "$GITHUB_STEP_SUMMARY", reason: "the comparison in a workflow's summary"},
	"harness runs":                                       {want: "demo-formats ", reason: "the demo's runs listed"},
	"harness runs --wide":                                {want: "size (rungs 8k,512k; formats document,json-patch,bend-ops)", reason: "every field whole"},
	"harness runs runs/":                                 {want: "demo-relay ", reason: "a directory's runs listed"},
	"harness runs --reconcile runs/demo":                 {want: "nothing to price", reason: "an offline run has nothing to price"},
	"harness show --model offline/oracle runs/demo 03-b": {want: "03-b r0 · offline/oracle · class B", reason: "one transcript of a run"},
	"harness show --model offline/noisy demo 17-c":       {want: "17-c r0 · offline/noisy · class C", reason: "one transcript, the run by its id"},
	"harness trend reports/*.json":                       {want: "## Trend over", reason: "the reports in date order"},
	`harness trend --html reports/trend.html reports/*.json >> "$GITHUB_STEP_SUMMARY"`: {want: "## Trend over", file: "$GITHUB_STEP_SUMMARY", reason: "the trend in a workflow's summary"},
	"harness version": {want: "harness 0.1.0", reason: "the version"},
	"cp -r corpus my-corpus && harness corpus check --corpus my-corpus --instructions instructions": {want: "ok: 20 documents, 60 tasks", reason: "a corpus of your own checked"},
	"harness corpus ladder --out size-ladder && harness id --check size-ladder/*.bend.json":         {want: "size-ladder/8k.bend.json\tbagaaiera", reason: "the ladder's documents carry their ids"},
	"harness corpus ladder --out size-ladder --rungs 32k,128k --tasks 01-b,01-c,02-b,02-c":          {want: "\t12 tasks\t", reason: "a ladder of chosen rungs and tasks"},
	"cp harness.yaml my-thresholds.yaml && harness corpus sensitivity --config my-thresholds.yaml":  {want: "would fail", reason: "thresholds of your own"},
	"harness corpus sensitivity --oc": {want: "all five", reason: "the operating characteristics"},
}

// checkExampleShows checks that an example's output (or the file it
// writes) holds the line exampleShows gives for it.
func checkExampleShows(t *testing.T, line, work, dir, output string) {
	t.Helper()
	show, ok := exampleShows[line]
	if !ok {
		t.Errorf("example %q: exampleShows does not say what its output shows; its output:\n%.2000s", line, output)
		return
	}
	text := output
	if show.file != "" {
		name := filepath.Join(work, show.file)
		if show.file == "$GITHUB_STEP_SUMMARY" {
			name = filepath.Join(dir, "summary.md")
		}
		b, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("example %q: %v", line, err)
			return
		}
		text = string(b)
	}
	if !strings.Contains(text, show.want) {
		t.Errorf("example %q: %s lacks %q, which shows what the example is for (%s):\n%.3000s", line, cmp.Or(show.file, "its output"), show.want, show.reason, text)
	}
}

// checkoutOf makes work a git checkout of what a fresh clone holds there
// (the corpus, the tasks, harness.yaml, .gitignore), so that what the
// examples leave can be read from git status; false without git.
func checkoutOf(t *testing.T, work string) bool {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Log("no git: what the examples leave in the checkout is not checked")
		return false
	}
	if err := os.WriteFile(filepath.Join(work, ".gitignore"), mustRead(t, "../../.gitignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "Makefile"), mustRead(t, "../../Makefile"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "init", "-q")
	git(t, work, "add", "corpus", "instructions", "harness.yaml", ".gitignore", "Makefile")
	git(t, work, "commit", "-q", "-m", "a fresh checkout")
	return true
}

// checkNothingUntracked: issue 56: the examples left 17.md, answer.txt,
// calibration.json, expected.bend.json, rescored/ and size-ladder/ in the
// checkout, which neither .gitignore nor make clean covered. After them
// git status shows nothing untracked, and after make clean nothing that
// an example wrote is left but the runs and reports a run of your own
// made (its runs/<time> and reports/<time>.*) and the copies the examples
// make for you to edit (my-corpus/, my-thresholds.yaml).
func checkNothingUntracked(t *testing.T, work string) {
	t.Helper()
	if out := git(t, work, "status", "--porcelain", "--untracked-files=all"); strings.TrimSpace(out) != "" {
		t.Errorf("the examples leave files that .gitignore does not cover:\n%s", out)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Log("no make: make clean is not checked")
		return
	}
	cmd := exec.Command("make", "clean")
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make clean: %v\n%s", err, out)
	}
	yours := regexp.MustCompile(`^(runs/\d{8}T[^/]*/|reports/\.?\d{8}T.*|my-corpus/.*|my-thresholds\.yaml)`)
	for _, l := range strings.Split(git(t, work, "status", "--porcelain", "--ignored", "--untracked-files=all"), "\n") {
		if path, ok := strings.CutPrefix(l, "!! "); ok && !yours.MatchString(path) {
			t.Errorf("make clean leaves %s, which an example wrote", path)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
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
