package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestSlugCollisionRefused: two model ids whose transcripts would share a
// directory are refused before any request, instead of overwriting each
// other's transcripts in a run that can never complete.
func TestSlugCollisionRefused(t *testing.T) {
	// The key is TestMain's, and no base URL but --base-url.
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"answer": "x", "evidence": []}`))
	dir := t.TempDir()
	_, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", dir, "--reports", dir, "--base-url", srv.URL,
		"--no-preflight", "--models", "fake/echo+fence,fake/echo_fence", "--judges", "offline/judge", "--progress", "none")
	if code != 2 || !strings.Contains(errs, `"fake/echo+fence" and "fake/echo_fence" would share the transcript directory "fake_echo_fence"`) {
		t.Errorf("exit %d, stderr %q; want exit 2 naming both models and the directory", code, errs)
	}
	if n := srv.Count(); n != 0 {
		t.Errorf("%d requests sent before the refusal", n)
	}
}

// TestResumeUsesTheManifest: a run against a local server given by
// --base-url is interrupted; the resume command it prints (which names the
// server, since a resume does not trust run.json for it) finishes it
// against the same server and writes the reports where the run did. A flag that contradicts the manifest is refused
// before any request.
func TestResumeUsesTheManifest(t *testing.T) {
	// The key is TestMain's, and no base URL but --base-url.
	t.Parallel()
	// The run is killed when its tenth request arrives, one request in
	// flight (--per-model 1): no request of it can reach the server after
	// it ends, to be counted as a refused resume's. (Killed by a goroutine
	// that polled the count, with two in flight, a straggler could come
	// late on a loaded machine, and waiting for the server to be quiet for
	// 150 ms was a guess.)
	ctx, interrupt := interruptAt(10)
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Delay: 20 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "elsewhere")
	var out, errb bytes.Buffer
	err := run(ctx, []string{"run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports, "--base-url", srv.URL,
		"--models", "vendor/a", "--judges", "offline/judge", "--run-id", "r", "--progress", "none", "--per-model", "1"}, &out, &errb)
	runDir := filepath.Join(runs, "r")
	if exitCode(err) != 2 || !strings.Contains(errb.String(), "harness run --resume "+runDir+" --base-url "+srv.URL+"\n") {
		t.Fatalf("interrupted run: exit %d, stderr %q", exitCode(err), errb.String())
	}
	m, err := transcript.ReadManifest(runDir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Inputs.BaseURL != srv.URL || m.Inputs.ReportDir != reports || m.ModelDirs["vendor/a"] != "vendor_a" {
		t.Errorf("manifest inputs %+v, model dirs %v; want the base URL, the reports directory and vendor/a → vendor_a", m.Inputs, m.ModelDirs)
	}

	// The job in flight when the run was killed is archived as
	// interrupted, and asked again.
	kept := answered(t, filepath.Join(runDir, "vendor_a", "*.json"))
	before := srv.Count()
	for _, bad := range [][]string{
		{"--models", "vendor/b"},
		{"--base-url", "http://127.0.0.1:9/v1"},
		{"--reports", filepath.Join(dir, "other")},
		{"--repeats", "2"},
	} {
		args := append([]string{"run", "--resume", runDir, "--progress", "none"}, bad...)
		if _, errs, code := runCLI(t, args...); code != 2 || !strings.Contains(errs, bad[0]+" ") && !strings.Contains(errs, "run.json says the run asked") || !strings.Contains(errs, "contradicts the run's manifest") && !strings.Contains(errs, "name it yourself") {
			t.Errorf("resume with %v: exit %d, stderr %q; want exit 2 naming the flag", bad, code, errs)
		}
	}
	if n := srv.Count(); n != before {
		t.Fatalf("refused resumes sent %d requests", n-before)
	}

	_, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none", "--base-url", srv.URL)
	if code != 0 && code != 1 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	// Exactly the missing jobs.
	if got, missing := srv.Count()-before, 60-len(kept); got != missing {
		t.Errorf("the resume sent %d requests to the run's server; want the %d missing", got, missing)
	}
	if _, err := os.Stat(filepath.Join(reports, "r.json")); err != nil {
		t.Errorf("the resume did not write the report where the run asked: %v", err)
	}
}

// TestRunRefusesBadFlagValues: a flag value that cannot mean anything is a
// usage error (exit 2) naming the flag and what it takes, before anything
// is run or written.
func TestRunRefusesBadFlagValues(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range tabletest.Cases(t, []struct {
		args   []string
		want   string
		reason string
	}{
		{[]string{"--repeats", "-1"}, "--repeats takes a whole number from 1 to 1000", "a negative repeat count cannot mean anything, and the error gives the range"},
		{[]string{"--per-model", "0"}, "--per-model takes a whole number of at least 1", "a concurrency of 0 per model could never send a request"},
		{[]string{"--global", "-3"}, "--global takes a whole number of at least 1", "a negative global concurrency is refused the same way, naming its own flag"},
		{[]string{"--progress", "bogus"}, "--progress takes auto, bars, lines or none", "an unknown progress style is refused with the list of styles, not silently defaulted"},
		{[]string{"--models", ""}, "--models takes a comma-separated list", "an empty model list would run nothing"},
		{[]string{"--models", " , "}, "--models takes a comma-separated list", "a list of blanks and commas is as empty as no list"},
		{[]string{"--run-id", "../../escape"}, "--run-id takes one path element", "a run id that climbs out of the output directory would write outside it"},
		{[]string{"--run-id", "a/b"}, "--run-id takes one path element", "a run id with a separator would write into a subdirectory, not one run's directory"},
	}) {
		args := append([]string{"run", "--models", "offline/oracle", "--judges", "offline/judge", "--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports")}, tc.args...)
		_, errs, code := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q (%s)", tc.args, code, errs, tc.want, tc.reason)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("refused runs wrote %d entries", len(entries))
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape")); err == nil {
		t.Error("a run id climbed out of the runs directory")
	}
}

// TestScoreTaskMustExist: score --task names a file; one that does not
// exist is a usage error, never the embedded task of the same name.
func TestScoreTaskMustExist(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	answer := writeFile(t, dir, "answer.txt", "{}")
	for _, cmd := range [][]string{
		{"score", "--task", filepath.Join(dir, "instructions", "01-b.json"), "--output", answer},
		{"expect", "--task", filepath.Join(dir, "instructions", "01-b.json")},
	} {
		out, errs, code := runCLI(t, cmd...)
		if code != 2 || out != "" || !strings.Contains(errs, "--task") || !strings.Contains(errs, "no such file") {
			t.Errorf("%s with a missing task file: exit %d, stdout %.80q, stderr %q; want exit 2 naming --task and saying the file does not exist (it said \"not a task file\": issue 34)", cmd[0], code, out, errs)
		}
	}
}
