package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
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
	t.Parallel()
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
	runDir := offlineRun(t, off, "r", "--docs", "03") // any run.json will do
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
	t.Parallel()
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
	// The slots the cases copy between: 03-b and 04-b of two models, and
	// 03-b of another run.
	runDir := offlineRun(t, dir, "r", "--tasks", "03-b,04-b")
	otherRun := offlineRun(t, dir, "other", "--tasks", "03-b")
	for _, tc := range tabletest.Cases(t, []struct {
		name      string
		from      func(d string) string
		wantField string
		reason    string
	}{
		{"another task", func(d string) string { return transcript.TaskPath(d, "offline/noisy", "04-b", 0) }, "/task_id", "a transcript copied from another task of the same model and run is caught by its task id"},
		{"another model", func(d string) string { return transcript.TaskPath(d, "offline/oracle", "03-b", 0) }, "/model", "a transcript copied from another model for the same task is caught by its model"},
		{"another run", func(string) string { return transcript.TaskPath(otherRun, "offline/noisy", "03-b", 0) }, "/run_id", "a transcript copied from another run, same model and task, is caught by its run id"},
	}) {
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
				t.Errorf("exit %d, stderr %q; want exit 2 and %q naming the slot (%s)", code, errs, want, tc.reason)
			}
			if _, errs, code := runCLI(t, "run", "--resume", d, "--progress", "none"); code != 2 || !strings.Contains(errs, want) {
				t.Errorf("resume: exit %d, stderr %q; want exit 2 and %q", code, errs, want)
			}
		})
	}
}

// TestConcurrentResumeRefusedNotPaidTwice: two processes on one run
// directory (a run and a resume, or two resumes) paid for the same jobs
// (29 of 42 twice) and moved each other's successful transcripts aside.
// The second is refused before it sends anything, naming the run.
func TestConcurrentResumeRefusedNotPaidTwice(t *testing.T) {
	// The key is TestMain's, and no base URL but --base-url.
	t.Parallel()
	// The first run's requests after its third are held until the second
	// process has ended (a minute at most), so that the first is live
	// while the second tries: before, it was live for as long as its 60
	// answers of 30 ms took, which a loaded machine could outlast.
	live := holdAfter(t, 3)
	srv := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		live.hold(call)
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Delay: 30 * time.Millisecond}
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	runDir := filepath.Join(runs, "r")
	first := make(chan int)
	go func() {
		_, _, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", filepath.Join(dir, "reports"),
			"--base-url", srv.URL, "--models", "vendor/a", "--judges", "offline/judge", "--run-id", "r", "--progress", "none", "--per-model", "1")
		first <- code
	}()
	for srv.Count() < 3 {
		time.Sleep(2 * time.Millisecond)
	}
	// What the refused process sends cannot be told from what the first
	// one sends meanwhile; that no task is asked twice below can.
	_, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", srv.URL, "--progress", "none")
	if code != 2 || !strings.Contains(errs, "run "+runDir+" is in use by another harness process") {
		t.Errorf("second process: exit %d, stderr %q; want exit 2 naming the run", code, errs)
	}
	live.release()
	if c := <-first; c != 0 && c != 1 {
		t.Fatalf("the first run: exit %d", c)
	}
	seen := map[string]int{}
	for _, r := range srv.Requests() {
		seen[taskIDOf(r)]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("task %s was paid %d times", id, n)
		}
	}
	if sup, _ := filepath.Glob(filepath.Join(runDir, "*", "*.superseded-*")); len(sup) > 0 {
		t.Errorf("transcripts moved aside: %v", sup)
	}
}

// TestEditedRunJSONCannotRedirectTheKey: resume trusted inputs.base_url
// and the reports directory in run.json, which no hash covers: an edited
// run.json sent the key to another server and wrote the reports
// elsewhere, silently. A resume now sends requests only where its own
// command line (or environment, or default) says, refusing a run.json
// that disagrees before any request, and says where the key and the
// reports go.
func TestEditedRunJSONCannotRedirectTheKey(t *testing.T) {
	// The key is TestMain's, and no base URL but --base-url: the resume
	// without it asks the default API root.
	t.Parallel()
	ctx, interrupt := interruptAt(5)
	honest := modeltest.NewServer(t, func(call int, _ modeltest.ChatRequest) modeltest.Reply {
		interrupt(call)
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Delay: 20 * time.Millisecond}
	})
	honest.SetModels(modeltest.Entry("vendor/a"))
	thief := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"answer": "x", "evidence": []}`))
	thief.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	var out, errb bytes.Buffer
	run(ctx, []string{"run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports, "--base-url", honest.URL,
		"--models", "vendor/a", "--judges", "offline/judge", "--run-id", "r", "--progress", "none", "--per-model", "1"}, &out, &errb)
	runDir := filepath.Join(runs, "r")
	manifest := filepath.Join(runDir, transcript.ManifestName)
	orig := mustRead(t, manifest)

	if err := os.WriteFile(manifest, bytes.Replace(orig, []byte(honest.URL), []byte(thief.URL), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "run.json says the run asked " + thief.URL + ", but this resume would send the key to "
	for _, args := range [][]string{{"--base-url", honest.URL}, nil} {
		_, errs, code := runCLI(t, append([]string{"run", "--resume", runDir, "--progress", "none"}, args...)...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Errorf("resume %v: exit %d, stderr %q; want exit 2 and %q", args, code, errs, want)
		}
	}
	if n := thief.Count(); n != 0 || len(thief.ModelsRequests()) != 0 {
		t.Errorf("the URL from an edited run.json got %d requests and %d model listings", n, len(thief.ModelsRequests()))
	}
	os.WriteFile(manifest, orig, 0o644)
	stdout, errs, code := runCLI(t, "run", "--resume", runDir, "--base-url", honest.URL, "--progress", "none")
	if code != 0 && code != 1 || !strings.Contains(stdout, "resume: requests and the API key go to "+honest.URL+"\n") ||
		!strings.Contains(stdout, "resume: reports go to "+reports+" (recorded in run.json)\n") {
		t.Errorf("honest resume: exit %d, stdout %q, stderr %q; want it to say where the key and the reports go", code, stdout, errs)
	}
}

// onlineRun runs vendor/a against srv into dir with extra flags, and
// returns the exit code and stderr.
func onlineRun(t *testing.T, srv *modeltest.Server, dir string, extra ...string) (int, string) {
	t.Helper()
	srv.SetModels(modeltest.Entry("vendor/a"))
	t.Setenv("OPENROUTER_API_KEY", "sk-or-v1-probe-SECRET-0123456789")
	t.Setenv("OPENROUTER_BASE_URL", "")
	args := append([]string{"run", "--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"), "--base-url", srv.URL,
		"--models", "vendor/a", "--judges", "offline/judge", "--run-id", "r", "--progress", "none"}, extra...)
	_, errs, code := runCLI(t, args...)
	return code, errs
}

// TestNonFiniteConfigRefusedBeforeAnyRequest: a threshold of .inf was
// accepted, every call was paid, and then the report could not be written
// (json: unsupported value: +Inf); run.json recorded config: null. The
// configuration is validated whole before the first request.
func TestNonFiniteConfigRefusedBeforeAnyRequest(t *testing.T) {
	for _, yaml := range []string{"thresholds:\n  class_b_p95_max: .inf\n", "request:\n  temperature: .nan\n", "request:\n  max_tokens: -5\n"} {
		srv := modeltest.NewServer(t, modeltest.FixedDelay(0, `{"answer": "x", "evidence": []}`))
		dir := t.TempDir()
		cfg := writeFile(t, dir, "h.yaml", yaml)
		if code, errs := onlineRun(t, srv, dir, "--config", cfg); code != 2 || !strings.Contains(errs, "h.yaml: ") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 naming the file", yaml, code, errs)
		}
		if srv.Count() != 0 || len(srv.ModelsRequests()) != 0 {
			t.Errorf("%q: %d requests before the refusal", yaml, srv.Count())
		}
	}
}

// TestFatalCodeInsideOKStopsTheRun: a 402 in the body of a 200 let all 60
// jobs of the model be sent; the model now stops after the first, and the
// run, which measured nothing, could not run (exit 2, issue 34) rather
// than failing its verdict.
func TestFatalCodeInsideOKStopsTheRun(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.ErrorInsideOK(402, "Insufficient credits"))
	if code, errs := onlineRun(t, srv, t.TempDir(), "--config", "../../harness.yaml", "--per-model", "1"); code != 2 || !strings.Contains(errs, "could not run: vendor/a: HTTP 200 (402): Insufficient credits") {
		t.Errorf("exit %d, stderr %q; want 2, quoting the error", code, errs)
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("%d requests; want the model stopped after the first", n)
	}
}

// TestEscapedKeyEchoInNoFile: a server echoing the key as sk\u002dor…
// passed redaction, and the key landed in 60 transcripts and the HTML.
func TestEscapedKeyEchoInNoFile(t *testing.T) {
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply { return modeltest.EscapedKeyEcho(req) })
	dir := t.TempDir()
	if code, errs := onlineRun(t, srv, dir, "--config", "../../harness.yaml"); code != 1 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	key := os.Getenv("OPENROUTER_API_KEY")
	escaped := strings.ReplaceAll(key, "-", `\u002d`)
	files := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b := mustRead(t, p)
		if bytes.Contains(b, []byte(key)) || bytes.Contains(b, []byte(escaped)) {
			t.Errorf("%s holds the key", p)
		}
		return nil
	})
	if files < 60 {
		t.Errorf("only %d files written", files)
	}
}

// TestWriteFailureLeavesResumeAndNoOrphans: a run that stopped on an I/O
// failure (a full disk) printed no --resume command, and a write killed
// midway left a .tmp-* file that nothing cleaned. The failure now prints
// the resume command, and the next run or resume of the run, and the next
// write of its reports, remove their orphans.
func TestWriteFailureLeavesResumeAndNoOrphans(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// One document's tasks: the resumes redo offline/noisy's jobs.
	runDir := offlineRun(t, dir, "r", "--docs", "03")
	reports := filepath.Join(dir, "reports")
	orphans := []string{
		filepath.Join(runDir, "offline_oracle", atomicfile.TempPrefix("03-b.r0.json")+"123"),
		filepath.Join(reports, atomicfile.TempPrefix("r.html")+"456"),
	}
	other := filepath.Join(reports, atomicfile.TempPrefix("another-run.html")+"789")
	for _, o := range append(orphans, other) {
		writeFile(t, filepath.Dir(o), filepath.Base(o), "half a file")
	}
	// A transcript directory that cannot be written: the resume stops on
	// the I/O failure (the same path as a full disk, even as root).
	noisy := filepath.Join(runDir, "offline_noisy")
	os.RemoveAll(noisy)
	writeFile(t, runDir, "offline_noisy", "not a directory")
	_, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none")
	if code != 2 || !strings.Contains(errs, "when the problem is fixed, resume with\n  harness run --resume "+runDir+"\n") {
		t.Errorf("exit %d, stderr %q; want exit 2 and the resume command", code, errs)
	}
	if _, err := os.Stat(orphans[0]); err == nil {
		t.Error("the resume left the run's orphan temporary file")
	}
	os.Remove(noisy)
	if _, errs, code := runCLI(t, "run", "--resume", runDir, "--progress", "none"); code != 1 {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(orphans[1]); err == nil {
		t.Error("writing the reports left their orphan temporary file")
	}
	if _, err := os.Stat(other); err != nil {
		t.Error("writing the reports removed another run's temporary file")
	}
}
