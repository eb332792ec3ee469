package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// The nightly job (.github/workflows/nightly.yml) run as GitHub runs it,
// without GitHub: nightlyJob reads the workflow and runs its steps in
// order in a scratch checkout, each `run:` script with bash as written,
// against a fake OpenRouter (OPENROUTER_BASE_URL) and a fake gh CLI that
// serves the artifacts of the earlier simulated nights. The steps that
// use an action are simulated: checkout and setup-go by the scratch
// checkout (the harness the tests built is its bin/harness, so the build
// step is not run), upload-artifact by copying its paths into the store
// the fake gh reads, the JUnit publisher by nothing.

// workflow is what the tests read of a workflow file.
type workflow struct {
	Jobs map[string]struct {
		Steps []workflowStep `yaml:"steps"`
	} `yaml:"jobs"`
}

type workflowStep struct {
	Name            string            `yaml:"name"`
	ID              string            `yaml:"id"`
	If              string            `yaml:"if"`
	Uses            string            `yaml:"uses"`
	Run             string            `yaml:"run"`
	Env             map[string]string `yaml:"env"`
	With            map[string]string `yaml:"with"`
	ContinueOnError bool              `yaml:"continue-on-error"`
}

// nightlySteps are the nightly job's steps.
func nightlySteps(t *testing.T) []workflowStep {
	t.Helper()
	b, err := os.ReadFile("../../.github/workflows/nightly.yml")
	if err != nil {
		t.Fatal(err)
	}
	var w workflow
	if err := yaml.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	job, ok := w.Jobs["harness"]
	if !ok || len(job.Steps) == 0 {
		t.Fatal("nightly.yml has no job harness with steps")
	}
	return job.Steps
}

// fakeGH is the gh CLI as the workflow calls it, over the artifact store
// $FAKE_GH: `gh run list ...` prints the job ids of $FAKE_GH/runs, newest
// first; `gh run download ID --name NAME --dir DIR` copies the artifact
// $FAKE_GH/ID/NAME into DIR, or fails as gh does when there is none.
const fakeGH = `#!/bin/sh
case "$1 $2" in
"run list") cat "$FAKE_GH/runs" 2>/dev/null ;;
"run download")
	id=$3 name= dir=.
	shift 3
	while [ $# -gt 0 ]; do
		case $1 in
		--name) name=$2; shift 2 ;;
		--dir) dir=$2; shift 2 ;;
		*) shift ;;
		esac
	done
	[ -d "$FAKE_GH/$id/$name" ] || { echo "no artifact matches $name" >&2; exit 1; }
	mkdir -p "$dir" && cp -R "$FAKE_GH/$id/$name/." "$dir/" ;;
*) echo "fake gh: $*" >&2; exit 1 ;;
esac
`

// night is one simulated nightly job.
type night struct {
	job     string            // GITHUB_RUN_ID
	secrets map[string]string // secrets.NAME
	vars    map[string]string // vars.NAME
	env     map[string]string // more environment for every step
}

// nightResult is what a simulated night did.
type nightResult struct {
	dir     string         // the scratch checkout
	codes   map[string]int // each step's exit code, by name; absent: not run
	outputs map[string]string
	summary string // $GITHUB_STEP_SUMMARY
	log     string // every step's output
}

// nightly holds what the nights of one test share: the fake server and
// the artifact store.
type nightly struct {
	t     *testing.T
	srv   *modeltest.Server
	store string // the artifacts, as $FAKE_GH
	bin   string // the fake gh's directory
}

func newNightly(t *testing.T, srv *modeltest.Server) *nightly {
	n := &nightly{t: t, srv: srv, store: t.TempDir(), bin: t.TempDir()}
	if err := os.WriteFile(filepath.Join(n.bin, "gh"), []byte(fakeGH), 0o755); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkout makes a scratch checkout: the scripts, the configuration with
// the fake server named a gating API root (as OpenRouter's is), and the
// harness the tests built as bin/harness.
func (n *nightly) checkout() string {
	t := n.t
	dir := t.TempDir()
	yml, err := os.ReadFile("../../harness.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yml = []byte(strings.Replace(string(yml), "\ngating:\n", "\ngating:\n  api_roots: ["+n.srv.URL+"]\n", 1))
	for name, data := range map[string][]byte{"harness.yaml": yml, "reports/README.md": []byte("# reports\n"), "runs/README.md": []byte("# runs\n")} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, err := filepath.Abs("../../scripts/nightly")
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	must(t, os.Symlink(script, filepath.Join(dir, "scripts", "nightly")))
	must(t, os.MkdirAll(filepath.Join(dir, "bin"), 0o755))
	must(t, os.Symlink(builtHarness(t), filepath.Join(dir, "bin", "harness")))
	return dir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// expression replaces the ${{ ... }} of a step's env or artifact name with
// the night's values; an expression the test does not know fails it, so
// that a step added to the workflow is looked at here.
func (n *nightly) expression(nt night, s string) string {
	return regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`).ReplaceAllStringFunc(s, func(m string) string {
		e := strings.TrimSpace(m[3 : len(m)-2])
		switch kind, name, _ := strings.Cut(e, "."); {
		case e == "github.token":
			return "fake-token"
		case e == "github.run_id":
			return nt.job
		case kind == "secrets":
			return nt.secrets[name]
		case kind == "vars":
			return nt.vars[name]
		}
		n.t.Fatalf("nightly.yml: the test does not know the expression %s", m)
		return ""
	})
}

// run runs the night's job in a fresh checkout and keeps its artifact.
func (n *nightly) run(nt night) nightResult {
	t := n.t
	t.Helper()
	r := nightResult{dir: n.checkout(), codes: map[string]int{}, outputs: map[string]string{}}
	summary := filepath.Join(t.TempDir(), "summary")
	must(t, os.WriteFile(summary, nil, 0o644))
	var log strings.Builder
	failed := false
	for _, s := range nightlySteps(t) {
		switch cond := strings.TrimSpace(s.If); {
		case cond == "always()":
		case cond == "":
			if failed {
				continue
			}
		default:
			t.Fatalf("step %q: the test does not know the condition %q", s.Name, cond)
		}
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@"), strings.HasPrefix(s.Uses, "actions/setup-go@"),
			strings.HasPrefix(s.Uses, "mikepenz/action-junit-report@"):
			continue
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			n.upload(r.dir, n.expression(nt, s.With["name"]), nt.job, strings.Fields(s.With["path"]))
			continue
		case s.Uses != "":
			t.Fatalf("step %q uses %s, which the test does not simulate", s.Name, s.Uses)
		case s.Name == "Build the harness":
			if strings.TrimSpace(s.Run) != "make bin/harness" {
				t.Fatalf("the build step runs %q; the test stands in for make bin/harness only", s.Run)
			}
			continue
		}
		output := filepath.Join(t.TempDir(), "output")
		must(t, os.WriteFile(output, nil, 0o644))
		env := []string{
			"PATH=" + n.bin + string(os.PathListSeparator) + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"),
			"GITHUB_ACTIONS=true", "GITHUB_RUN_ID=" + nt.job, "GITHUB_REPOSITORY=example/bendscript",
			"GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output, "FAKE_GH=" + n.store,
			"OPENROUTER_BASE_URL=" + n.srv.URL,
		}
		for k, v := range s.Env {
			env = append(env, k+"="+n.expression(nt, v))
		}
		for k, v := range nt.env {
			env = append(env, k+"="+v)
		}
		// GitHub runs a step's script as bash -e {0}.
		script := filepath.Join(t.TempDir(), "step.sh")
		must(t, os.WriteFile(script, []byte(s.Run), 0o644))
		cmd := exec.Command("bash", "--noprofile", "--norc", "-e", script)
		var out bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = r.dir, env, &out, &out
		err := cmd.Run()
		code := 0
		if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("step %q: %v", s.Name, err)
		}
		fmt.Fprintf(&log, "## %s (exit %d)\n%s", s.Name, code, out.String())
		r.codes[s.Name] = code
		if code != 0 && !s.ContinueOnError {
			failed = true
		}
		if s.ID == "harness" {
			b, _ := os.ReadFile(output)
			for _, l := range strings.Split(string(b), "\n") {
				if k, v, ok := strings.Cut(l, "="); ok {
					r.outputs[k] = v
				}
			}
		}
	}
	b, err := os.ReadFile(summary)
	must(t, err)
	r.summary, r.log = string(b), log.String()
	// The newest night first, as gh run list prints them.
	runs, _ := os.ReadFile(filepath.Join(n.store, "runs"))
	must(t, os.WriteFile(filepath.Join(n.store, "runs"), append([]byte(nt.job+"\n"), runs...), 0o644))
	return r
}

// upload keeps the paths of dir as the job's artifact name, as
// upload-artifact does (their common root is the checkout).
func (n *nightly) upload(dir, name, job string, paths []string) {
	for _, p := range paths {
		src := filepath.Join(dir, p)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		must(n.t, copyTree(src, filepath.Join(n.store, job, name, p)))
	}
}

// copyTree copies the directory src to dst, following symbolic links.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// smallNight is a night of two documents (the gating run's models and
// judges, 6 tasks each): the job's mechanics, not the size of a night.
const smallNight = "--docs 01,02 --progress none"

// TestNightlyTellsFailFromCouldNotRun: the nightly job's harness step
// ends with the harness's own code, 1 for a failing verdict and 2 for a
// night that could not run or could not finish, sets the outputs code
// and outcome, and the Summary's first line says which; the steps after
// it run either way. Before, the job ran `make harness`, and GNU make
// turns the harness's 1 into its own 2 (issue 55). A night that could
// not finish (here the night's time limit interrupted it) is carried to
// the next night, and its Summary names the run, what stopped it and the
// command that finishes it.
func TestNightlyTellsFailFromCouldNotRun(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name    string
		setup   func(*modeltest.Server)
		reply   modeltest.Handler
		limit   string
		code    int
		outcome string
		want    []string // in the Summary
		carried bool     // the state carries a run to the next night
		reason  string
	}{
		{"fail", nil, modeltest.FixedDelay(0, "{}"), "", 1, "fail",
			[]string{"## Night: fail (exit 1)\n", "  - Verdict: thresholds not met", "# BendScript round-trip report `"}, false,
			"every answer is unusable: the verdict is fail, exit 1, and its report is in the Summary"},
		{"no key", func(s *modeltest.Server) { s.SetKey(modeltest.Key{Invalid: true}) }, modeltest.FixedDelay(0, "{}"), "", 2, "could not run",
			[]string{"## Night: could not run (exit 2)\n", "  - Could not run (exit 2): preflight: the API at ", "refused the key"}, false,
			"the key is refused before anything is sent: exit 2, and nothing to resume"},
		{"time limit", nil, func(int, modeltest.ChatRequest) modeltest.Reply {
			return modeltest.Reply{Content: "{}", Delay: time.Minute}
		}, "15s", 2, "could not run",
			[]string{"## Night: could not run (exit 2)\n", "  - Could not finish (exit 2): `runs/", "  - What stopped it: the night's time limit (HARNESS_TIME_LIMIT=15s) interrupted it.",
				"  - The next night resumes it (night 2 of at most 3)", "gh run download 7 --name harness-7", "    bin/harness run --resume runs/"}, true,
			"the answers outlast the night's time limit: the harness is interrupted, exit 2, and the run is carried"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath("timeout"); c.limit != "" && err != nil {
				t.Skip("no timeout(1) (GNU coreutils): scripts/nightly runs without a time limit here")
			}
			srv := modeltest.NewServer(t, c.reply)
			srv.SetModels(modeltest.DefaultModels()...)
			if c.setup != nil {
				c.setup(srv)
			}
			n := newNightly(t, srv)
			r := n.run(night{job: "7", secrets: map[string]string{"OPENROUTER_API_KEY": "sk-or-test"},
				env: map[string]string{"HARNESS_RUN_ARGS": smallNight, "HARNESS_TIME_LIMIT": c.limit}})
			if got := r.codes["Run the harness"]; got != c.code || r.outputs["code"] != fmt.Sprint(c.code) || r.outputs["outcome"] != c.outcome {
				t.Errorf("harness step: exit %d, outputs %v; want exit %d, outcome %q (%s)\n%s", got, r.outputs, c.code, c.outcome, c.reason, r.log)
			}
			if !strings.HasPrefix(r.summary, c.want[0]) {
				t.Errorf("the Summary begins %q; want %q (%s)", firstLine(r.summary), c.want[0], c.reason)
			}
			for _, w := range c.want[1:] {
				if !strings.Contains(r.summary, w) {
					t.Errorf("the Summary lacks %q (%s):\n%s\n%s", w, c.reason, r.summary, r.log)
				}
			}
			for _, step := range []string{"Summary", "Compare with the previous night", "Trend over the last nights"} {
				if _, ran := r.codes[step]; !ran {
					t.Errorf("step %q did not run after the harness step", step)
				}
			}
			state := readFile(t, filepath.Join(n.store, "7", "harness-7", "nightly", "state"))
			carried := !strings.Contains(state, "run=\n")
			if carried != c.carried || (carried && r.outputs["unfinished"] == "") {
				t.Errorf("the artifact's nightly/state:\n%s\noutputs %v; want a run carried: %v (%s)", state, r.outputs, c.carried, c.reason)
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return string(b)
}

// TestNightlyFinishesAnUnfinishedNight is the nightly job over two
// nights, against a fake that bills as OpenRouter does. The cap
// (vars.HARNESS_MAX_COST) is three quarters of the night's estimate, so
// the first night stops at it: exit 2, its Summary naming the run, the
// cap and the command that finishes it. The next night finds the run in
// the first night's artifact, resumes it within its own cap and finishes
// it, paying no request twice; the archive is sealed with the secret
// HARNESS_SEAL_KEY; with what is left of its cap below the estimate of a
// new run it starts none, and says so. With a cap that covers both, the
// same second night resumes the run and then starts its own.
func TestNightlyFinishesAnUnfinishedNight(t *testing.T) {
	t.Parallel()
	set := tasktest.Set(t)
	var srv *modeltest.Server
	srv = modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		rep := exactReply(set, req)
		u := srv.Bill(req, rep.Content)
		rep.Usage = &u
		return rep
	})
	srv.SetModels(modeltest.DefaultModels()...)
	n := newNightly(t, srv)
	f := &cappedNights{
		n: n, srv: srv, estimate: nightEstimate(t, n),
		secrets: map[string]string{"OPENROUTER_API_KEY": "sk-or-test", "HARNESS_SEAL_KEY": "a seal key for the test"},
		// One request at a time: the harness starts a request only while the
		// known cost and its estimate stay within the cap, so a night pays at
		// most its cap and what its last request cost beyond the estimate.
		env: map[string]string{"HARNESS_RUN_ARGS": smallNight + " --per-model 1 --global 1"},
	}

	// The first night: stopped at the cap.
	f.firstNight(t)

	// The second night, twice from the same first night: the cap, and a
	// cap that covers a new run too.
	for _, c := range tabletest.Cases(t, []secondNightCase{
		{"the same cap", 0.75, false, "what is left of the cap after the resume is below a new run's estimate"},
		{"a cap for both", 4, true, "the cap covers the resume and a new run"},
	}) {
		f.secondNight(t, c)
	}

	// A run that has had its nights (HARNESS_RESUME_NIGHTS) is left to a
	// person: the next night asks nothing of it, starts its own run, and
	// says how to finish the old one.
	f.nightAfterTheLastResume(t)
}

// cappedNights is the state TestNightlyFinishesAnUnfinishedNight carries
// from its first night to the nights after.
type cappedNights struct {
	n        *nightly
	srv      *modeltest.Server
	estimate float64
	secrets  map[string]string
	env      map[string]string
	// Set by the first night: the run it left unfinished, what it paid
	// and how many requests it asked.
	run     string
	billed1 float64
	asked1  int
}

// capOf is the nightly vars with a cap of x times the night's estimate.
func (f *cappedNights) capOf(x float64) map[string]string {
	return map[string]string{"HARNESS_MAX_COST": fmt.Sprintf("%.2f", x*f.estimate)}
}

// firstNight runs job 101 with a cap of three quarters of the estimate:
// it must stop at the cap (exit 2) leaving a run unfinished, pay at most
// the cap and a request, and say in its Summary how to finish the run.
func (f *cappedNights) firstNight(t *testing.T) {
	t.Helper()
	cap := 0.75 * f.estimate
	first := f.n.run(night{job: "101", secrets: f.secrets, vars: f.capOf(0.75), env: f.env})
	f.billed1, f.asked1 = f.srv.Billed(), f.srv.Count()
	f.run = first.outputs["unfinished"]
	if first.codes["Run the harness"] != 2 || f.run == "" {
		t.Fatalf("the first night: harness step exit %d, outputs %v; want 2 and a run left unfinished\n%s", first.codes["Run the harness"], first.outputs, first.log)
	}
	t.Logf("estimate $%.2f, cap $%.2f; the first night paid $%.2f for %d requests", f.estimate, cap, f.billed1, f.asked1)
	if f.billed1 > cap+dearest(f.srv) {
		t.Errorf("the first night paid $%.4f, above its cap $%.4f and a request", f.billed1, cap)
	}
	for _, w := range []string{"## Night: could not run (exit 2)\n", "  - Could not finish (exit 2): `" + f.run + "`.", "  - What stopped it: spending cap reached: $",
		"gh run download 101 --name harness-101", "    bin/harness run --resume " + f.run + " --base-url " + f.srv.URL + " --max-cost "} {
		if !strings.Contains(first.summary, w) {
			t.Errorf("the first night's Summary lacks %q:\n%s", w, first.summary)
		}
	}
}

// secondNightCase is a second night's cap and whether it covers a new
// run besides the resume.
type secondNightCase struct {
	name   string
	cap    float64 // of the estimate
	newRun bool
	reason string
}

// secondNight runs a second night from the first night's artifact: it
// must restore and finish the run within its cap, paying no request
// twice, seal it, and say in its Summary what it resumed and whether it
// started a run of its own.
func (f *cappedNights) secondNight(t *testing.T, c secondNightCase) {
	t.Helper()
	run := f.run
	must(t, os.WriteFile(filepath.Join(f.n.store, "runs"), []byte("101\n"), 0o644))
	billed, asked := f.srv.Billed(), f.srv.Count()
	job := map[bool]string{false: "102", true: "103"}[c.newRun]
	second := f.n.run(night{job: job, secrets: f.secrets, vars: f.capOf(c.cap), env: f.env})
	paid := f.srv.Billed() - billed
	t.Logf("%s: the second night paid $%.2f for %d requests", c.name, paid, f.srv.Count()-asked)
	if second.codes["Run the harness"] != 1 || second.outputs["unfinished"] != "" {
		t.Fatalf("%s: harness step exit %d, outputs %v; want 1 (a partial run's verdict) and nothing unfinished\n%s", c.name, second.codes["Run the harness"], second.outputs, second.log)
	}
	if !strings.Contains(second.log, "nightly: restored "+run+", left unfinished by job 101: spending cap reached") {
		t.Errorf("%s: the restore step did not restore %s:\n%s", c.name, run, second.log)
	}
	if paid > c.cap*f.estimate+dearest(f.srv) {
		t.Errorf("%s: the second night paid $%.4f, above its cap $%.4f and a request", c.name, paid, c.cap*f.estimate)
	}
	f.checkResumeCap(t, c, second.log)
	art := filepath.Join(f.n.store, job, "harness-"+job)
	kept := transcripts(t, filepath.Join(art, run))
	resumed := f.srv.Count() - asked
	if c.newRun {
		resumed -= transcripts(t, filepath.Join(art, "runs", strings.TrimPrefix(second.outputs["tonight"], "runs/")))
	}
	if f.asked1+resumed != kept {
		t.Errorf("%s: %d requests over the two nights for the run, %d transcripts: a request was paid twice or not kept (%s)", c.name, f.asked1+resumed, kept, c.reason)
	}
	id := filepath.Base(run)
	if _, err := os.Stat(filepath.Join(art, run, "seal.json")); err != nil ||
		!strings.Contains(readFile(t, filepath.Join(art, "reports", id+".json")), `"integrity": "sealed with HARNESS_SEAL_KEY over `) {
		t.Errorf("%s: the finished run is not sealed (seal.json: %v)", c.name, err)
	}
	f.checkSecondSummary(t, c, second.summary)
	if state := readFile(t, filepath.Join(art, "nightly", "state")); !strings.Contains(state, "run=\n") {
		t.Errorf("%s: the second night carries a run to the next:\n%s", c.name, state)
	}
}

// checkResumeCap checks that the resume's cap is the run's known cost
// and the night's.
func (f *cappedNights) checkResumeCap(t *testing.T, c secondNightCase, log string) {
	t.Helper()
	m := regexp.MustCompile(`nightly: bin/harness run --resume ` + regexp.QuoteMeta(f.run) + ` --max-cost ([0-9.]+)\n`).FindStringSubmatch(log)
	var resumeCap float64
	if m != nil {
		fmt.Sscan(m[1], &resumeCap)
	}
	if m == nil || math.Abs(resumeCap-(f.billed1+c.cap*f.estimate)) > 0.02 {
		t.Errorf("%s: the resume's --max-cost is %v; want the run's known cost $%.4f and the night's cap $%.4f", c.name, m, f.billed1, c.cap*f.estimate)
	}
}

// checkSecondSummary checks that the second night's Summary says what it
// resumed, its verdict and spend, the run's report, and whether a run of
// its own started.
func (f *cappedNights) checkSecondSummary(t *testing.T, c secondNightCase, summary string) {
	t.Helper()
	want := []string{"## Night: fail (exit 1)\n", "- Resumed `" + f.run + "`, which job 101 left unfinished (spending cap reached: $",
		"  - Verdict: thresholds not met", "- Spent tonight: $", "# BendScript round-trip report `" + filepath.Base(f.run) + "`"}
	if c.newRun {
		want = append(want, "- Tonight's run, `runs/")
	} else {
		want = append(want, "- Tonight's run was not started: its estimate, $")
	}
	for _, w := range want {
		if !strings.Contains(summary, w) {
			t.Errorf("%s: the Summary lacks %q (%s):\n%s", c.name, w, c.reason, summary)
		}
	}
	if c.newRun != strings.Contains(summary, "- Tonight's run, `runs/") {
		t.Errorf("%s: a new run started: %v; want %v (%s)", c.name, !c.newRun, c.newRun, c.reason)
	}
}

// nightAfterTheLastResume runs job 104 with HARNESS_RESUME_NIGHTS 1: the
// first night's run has had its night, so it is left to a person, named
// in the Summary, and only tonight's run is asked.
func (f *cappedNights) nightAfterTheLastResume(t *testing.T) {
	t.Helper()
	run := f.run
	must(t, os.WriteFile(filepath.Join(f.n.store, "runs"), []byte("101\n"), 0o644))
	asked := f.srv.Count()
	third := f.n.run(night{job: "104", secrets: f.secrets, vars: f.capOf(4),
		env: map[string]string{"HARNESS_RUN_ARGS": f.env["HARNESS_RUN_ARGS"], "HARNESS_RESUME_NIGHTS": "1"}})
	for _, w := range []string{"- Not resumed: `" + run + "` could not finish in 1 night (the last: spending cap reached: $",
		"  It is kept in this job's artifact, harness-104, in " + run + "; finish it by hand with", "  bin/harness run --resume " + run, "- Tonight's run, `runs/"} {
		if !strings.Contains(third.summary, w) {
			t.Errorf("a run left to a person: the Summary lacks %q:\n%s", w, third.summary)
		}
	}
	if tonight := third.outputs["tonight"]; tonight == "" || f.srv.Count()-asked != transcripts(t, filepath.Join(f.n.store, "104", "harness-104", tonight)) {
		t.Errorf("a run left to a person: %d requests, tonight's run %q; want only tonight's run's\n%s", f.srv.Count()-asked, tonight, third.log)
	}
}

// dearest is the most one request has cost at srv.
func dearest(srv *modeltest.Server) float64 {
	most := 0.0
	for _, g := range srv.Generations() {
		most = max(most, g.Cost)
	}
	return most
}

// nightEstimate is the preflight's estimate of a smallNight.
func nightEstimate(t *testing.T, n *nightly) float64 {
	t.Helper()
	cmd := exec.Command("bin/harness", append([]string{"run", "--dry-run", "--base-url", n.srv.URL}, strings.Fields(smallNight)...)...)
	cmd.Dir = n.checkout()
	cmd.Env = append(os.Environ(), "OPENROUTER_API_KEY=sk-or-test")
	out, err := cmd.CombinedOutput()
	m := regexp.MustCompile(`estimated cost: \$([0-9.]+)`).FindSubmatch(out)
	if err != nil || m == nil {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	var f float64
	fmt.Sscan(string(m[1]), &f)
	return f
}

// transcripts counts the transcripts of a run directory (answers and
// judge votes), and fails the test on a superseded one: a request asked
// again.
func transcripts(t *testing.T, runDir string) int {
	t.Helper()
	n := 0
	must(t, filepath.WalkDir(runDir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case strings.Contains(d.Name(), ".superseded-"):
			t.Errorf("%s: a request was asked again", p)
		case regexp.MustCompile(`\.r[0-9]+\.json$`).MatchString(d.Name()):
			n++
		}
		return nil
	}))
	return n
}

// TestNightlyRestore: the restore step puts back in runs/ the run the
// last night's state names as unfinished, and only such a run: the state
// comes from an artifact, so a path out of runs/ or a run the artifact
// does not hold restores nothing. A night whose job ended while the
// harness ran (cancelled, or past the job's limit) left the state it
// wrote before the harness started: its run is restored, and the reason
// says so.
func TestNightlyRestore(t *testing.T) {
	t.Parallel()
	script, err := filepath.Abs("../../scripts/nightly")
	must(t, err)
	for _, c := range tabletest.Cases(t, []struct {
		name     string
		state    string // the artifact's nightly/state; "" for none
		restored string // the run restored; "" for none
		say      string // in the step's output
		reason   string
	}{
		{"unfinished", "run=runs/r1\ncode=2\nreason=spending cap reached\nresume=bin/harness run --resume runs/r1\nnights=1\njob=41\n", "runs/r1",
			"nightly: restored runs/r1, left unfinished by job 41: spending cap reached", "a run stopped with exit 2 is carried on"},
		{"job ended", "run=runs/r1\ncode=\nreason=\nresume=\nnights=1\njob=41\n", "runs/r1",
			"left unfinished by job 41: the job ended before the harness did", "a state written before the harness started, never completed: the job ended first"},
		{"finished", "run=\ncode=1\nreason=\nresume=\nnights=0\njob=41\n", "",
			"the last night (job 41) left no unfinished run", "a night that finished carries nothing"},
		{"out of runs/", "run=runs/../outside\ncode=2\nreason=x\nresume=\nnights=1\njob=41\n", "",
			"not a run directory under runs/", "a state naming a path out of runs/ restores nothing"},
		{"absent run", "run=runs/r2\ncode=2\nreason=x\nresume=\nnights=1\njob=41\n", "",
			"holds no runs/r2/run.json", "a state naming a run the artifact lacks restores nothing"},
		{"no state", "", "", "no earlier night's state in last", "an artifact from before scripts/nightly"},
	}) {
		dir := t.TempDir()
		last := filepath.Join(dir, "last")
		must(t, os.MkdirAll(filepath.Join(last, "runs", "r1"), 0o755))
		must(t, os.WriteFile(filepath.Join(last, "runs", "r1", "run.json"), []byte("{}"), 0o644))
		// What a state naming runs/../outside would copy out of runs/.
		must(t, os.MkdirAll(filepath.Join(last, "outside"), 0o755))
		must(t, os.WriteFile(filepath.Join(last, "outside", "run.json"), []byte("{}"), 0o644))
		if c.state != "" {
			must(t, os.MkdirAll(filepath.Join(last, "nightly"), 0o755))
			must(t, os.WriteFile(filepath.Join(last, "nightly", "state"), []byte(c.state), 0o644))
		}
		cmd := exec.Command("bash", script, "restore", "last")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), c.say) {
			t.Errorf("%s: restore: %v, said %q; want %q (%s)", c.name, err, out, c.say, c.reason)
		}
		restored, _ := filepath.Glob(filepath.Join(dir, "runs", "*"))
		if _, err := os.Stat(filepath.Join(dir, "outside")); err == nil {
			restored = append(restored, filepath.Join(dir, "outside"))
		}
		carried, _ := os.ReadFile(filepath.Join(dir, "nightly", "carried"))
		switch {
		case c.restored == "" && (len(restored) > 0 || len(carried) > 0):
			t.Errorf("%s: restored %v, carried %q; want nothing (%s)", c.name, restored, carried, c.reason)
		case c.restored != "" && (len(restored) != 1 || !strings.Contains(string(carried), "run="+c.restored+"\ncode=2\n")):
			t.Errorf("%s: restored %v, carried %q; want %s, exit 2 (%s)", c.name, restored, carried, c.restored, c.reason)
		}
	}
}
