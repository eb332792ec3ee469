package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

// offlineRun runs the offline pipeline through the CLI into dir/runs and
// dir/reports, with the configuration dir/harness.yaml (the defaults when
// absent), and returns the run directory.
func offlineRun(t *testing.T, dir, id string, extra ...string) string {
	t.Helper()
	cfg := filepath.Join(dir, "harness.yaml")
	if _, err := os.Stat(cfg); err != nil {
		writeFile(t, dir, "harness.yaml", "repeats: 1\n")
	}
	args := append([]string{"run", "--models", "offline/oracle,offline/identity,offline/noisy", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--config", cfg,
		"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"), "--run-id", id}, extra...)
	_, errs, code := runCLI(t, args...)
	// offline/identity fails by design: the verdict is fail, exit 1.
	if code != 1 {
		t.Fatalf("harness run: exit %d, want 1 (a failing verdict): %s", code, errs)
	}
	return filepath.Join(dir, "runs", id)
}

// shared is one full offline run (offlineRun's three models over all 60
// tasks, repeats 1, run id "r"), for the tests that only read a whole
// run; sharedAgain is the same run made again, as a second nightly run of
// an unchanged configuration, for the tests that read two
// (TestOfflineRunReproducible, TestCompareCLI).
var shared, sharedAgain made[string]

// sharedOfflineRun returns the directory of the shared run (runs/r and
// reports/r.json below it). Tests must not change it: one that needs to
// copies the run directory first.
func sharedOfflineRun(t *testing.T) string {
	return shared.get(t, "the shared offline run", func(dir string) (string, error) { return fullOfflineRun(t, dir) })
}

// sharedOfflineRunAgain returns the directory of the shared run's twin.
func sharedOfflineRunAgain(t *testing.T) string {
	return sharedAgain.get(t, "the shared offline run's twin", func(dir string) (string, error) { return fullOfflineRun(t, dir) })
}

// fullOfflineRun makes the shared run in dir and returns dir.
func fullOfflineRun(t *testing.T, dir string) (string, error) {
	if err := os.WriteFile(filepath.Join(dir, "harness.yaml"), []byte("repeats: 1\n"), 0o644); err != nil {
		return "", err
	}
	_, errs, code := runBuilt(t, "run", "--models", "offline/oracle,offline/identity,offline/noisy", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--config", filepath.Join(dir, "harness.yaml"),
		"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"), "--run-id", "r")
	if code != 1 {
		return "", fmt.Errorf("harness run: exit %d, want 1 (a failing verdict): %s", code, errs)
	}
	return dir, nil
}

// TestRescoreReproducesReport is the rescore guarantee: the same
// transcripts scored by the same metric give the same JSON report, byte
// for byte, but for the rescored_at line.
func TestRescoreReproducesReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "harness.yaml", "repeats: 2\n")
	// Four documents give every class and task shape, repeats included;
	// the guarantee is per transcript and per aggregate, not per count.
	runDir := offlineRun(t, dir, "demo", "--docs", "01,02,03,04")
	fresh, err := os.ReadFile(filepath.Join(dir, "reports", "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "rescored")
	stdout, errs, code := runCLI(t, "rescore", "--out", out, "--format", "json", runDir)
	if code != 1 {
		t.Fatalf("rescore: exit %d, want 1 (the run's verdict is fail): %s", code, errs)
	}
	rescored, err := os.ReadFile(filepath.Join(out, "demo.json"))
	if err != nil {
		t.Fatal(err)
	}
	if stdout != string(rescored) {
		t.Error("rescore --format json printed something other than the report it wrote")
	}
	if !bytes.Contains(rescored, []byte(`"rescored_at": `)) {
		t.Error("the rescored report does not say when it was rescored")
	}
	if got := report.StripRescoredAt(rescored); !bytes.Equal(got, fresh) {
		t.Errorf("the rescored report differs from the fresh one beyond rescored_at")
	}
	for _, ext := range []string{".md", ".html"} {
		if _, err := os.Stat(filepath.Join(out, "demo"+ext)); err != nil {
			t.Errorf("rescore did not write the %s report: %v", ext, err)
		}
	}
}

func TestRescoreRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// One document's tasks are enough to refuse: every case breaks the
	// run directory, not a score.
	runDir := offlineRun(t, dir, "r", "--docs", "03")
	tamper := func(path, old, new string) {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("%s holds no %q", path, old)
		}
		if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		break_ func(runDir string)
		want   string
		reason string
	}{
		{"tampered transcript", func(d string) {
			tamper(transcript.TaskPath(d, "offline/noisy", "03-b", 0), `"finish_reason": "stop"`, `"finish_reason": "length"`)
		}, "does not match its hash", "an edited transcript is evidence no more"},
		{"changed corpus", func(d string) {
			tamper(filepath.Join(d, transcript.ManifestName), `"corpus_hash": "`, `"corpus_hash": "0`)
		}, "the corpus or tasks differ from the run's", "scores are only reproducible against the corpus the run used"},
		{"edited configuration", func(d string) {
			tamper(filepath.Join(d, transcript.ManifestName), `"class_b_median_max": 0.05`, `"class_b_median_max": 0.5`)
		}, "does not match config_hash", "a loosened threshold must not pass unnoticed"},
		{"no manifest", func(d string) { os.Remove(filepath.Join(d, transcript.ManifestName)) }, "run.json", "not a run directory"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			d := filepath.Join(t.TempDir(), "run")
			copyDir(t, runDir, d)
			tc.break_(d)
			_, errs, code := runCLI(t, "rescore", "--out", t.TempDir(), d)
			if code != 2 || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 mentioning %q (%s)", code, errs, tc.want, tc.reason)
			}
		})
	}
}

// TestCompareCLI: compare's formats and refusals, on two nights of an
// unchanged configuration (what compare makes of differences is
// compare.txtar's, and the report package's, golden).
func TestCompareCLI(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(sharedOfflineRun(t), "reports", "r.json"), filepath.Join(sharedOfflineRunAgain(t), "reports", "r.json")
	out, errs, code := runCLI(t, "compare", a, b)
	if code != 0 || !strings.Contains(out, "median drift old → new") || !regexp.MustCompile(`offline/noisy +B +0`).MatchString(out) {
		t.Errorf("compare: exit %d, stdout:\n%s\nstderr: %s", code, out, errs)
	}
	md, _, code := runCLI(t, "compare", "--format", "md", a, b)
	if code != 0 || !strings.Contains(md, "| `offline/noisy` | B |") {
		t.Errorf("compare --format md: exit %d:\n%s", code, md)
	}
	bad := writeFile(t, dir, "bad.json", `{"schema": 99}`)
	if _, errs, code := runCLI(t, "compare", a, bad); code != 2 || !strings.Contains(errs, "report schema 99") {
		t.Errorf("compare with a future schema: exit %d, %s", code, errs)
	}
	if _, _, code := runCLI(t, "compare", a); code != 2 {
		t.Errorf("compare with one report: exit %d, want 2", code)
	}
}

// TestReportJSONIsSpecShaped: the fields of §8.7 are where the spec puts
// them, under their names.
func TestReportJSONIsSpecShaped(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(sharedOfflineRun(t), "reports", "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		HarnessVersion string   `json:"harness_version"`
		RanAt          string   `json:"ran_at"`
		Models         []string `json:"models"`
		Results        map[string]struct {
			A           *float64 `json:"class_a_faithfulness"`
			BMed        *float64 `json:"class_b_median_drift"`
			BP95        *float64 `json:"class_b_p95_drift"`
			CMed        *float64 `json:"class_c_median_drift"`
			CP95        *float64 `json:"class_c_p95_drift"`
			Transcripts string   `json:"transcripts"`
		} `json:"results"`
		Verdict string `json:"verdict"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.HarnessVersion != Version || r.RanAt == "" || len(r.Models) != 3 || r.Verdict != "fail" ||
		r.Results["offline/oracle"].Transcripts != "runs/r/offline_oracle/" {
		t.Errorf("report: %+v", r)
	}
	// The §8.7 numbers, as the offline models are built to score: the
	// oracle is exact, identity never edits (so it drifts on B and C and
	// answers "unknown", which the offline judge finds unfaithful).
	oracle, identity := r.Results["offline/oracle"], r.Results["offline/identity"]
	for name, v := range map[string]*float64{"A": oracle.A, "B median": oracle.BMed, "B P95": oracle.BP95, "C median": oracle.CMed, "C P95": oracle.CP95} {
		if v == nil {
			t.Fatalf("offline/oracle: %s is missing from the report", name)
		}
	}
	if *oracle.A != 1 || *oracle.BMed != 0 || *oracle.BP95 != 0 || *oracle.CMed != 0 || *oracle.CP95 != 0 {
		t.Errorf("offline/oracle: A %v, B %v/%v, C %v/%v; want faithfulness 1 and drift 0", *oracle.A, *oracle.BMed, *oracle.BP95, *oracle.CMed, *oracle.CP95)
	}
	if identity.A == nil || *identity.A != 0 || identity.CP95 == nil || *identity.CP95 <= 0.30 || identity.BMed == nil || *identity.BMed <= 0 {
		t.Errorf("offline/identity: A %v, B median %v, C P95 %v; want faithfulness 0, B drift above 0 and C P95 above 0.30", identity.A, identity.BMed, identity.CP95)
	}
}

// TestOfflineRunReproducible: two separate offline runs of the same
// configuration archive transcripts with the same hashes and write the same
// JSON report but for the run's name and start time.
func TestOfflineRunReproducible(t *testing.T) {
	t.Parallel()
	// The shared run and its twin.
	a, b := sharedOfflineRun(t), sharedOfflineRunAgain(t)
	runA, runB := filepath.Join(a, "runs", "r"), filepath.Join(b, "runs", "r")
	hashes := func(dir string) map[string]string {
		trs, err := transcripttest.ReadAll(dir)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for _, tr := range trs {
			m[tr.Kind+"/"+tr.Model+"/"+tr.TaskID+"/"+tr.Judged.String()] = tr.Hash
		}
		return m
	}
	ha, hb := hashes(runA), hashes(runB)
	if len(ha) == 0 || len(ha) != len(hb) {
		t.Fatalf("%d and %d transcripts", len(ha), len(hb))
	}
	for k, h := range ha {
		if hb[k] != h {
			t.Errorf("%s: hash %s in one run, %s in the other", k, h, hb[k])
		}
	}
	ranAt := regexp.MustCompile(`(?m)^  "ran_at": .*$`)
	ra, _ := os.ReadFile(filepath.Join(a, "reports", "r.json"))
	rb, _ := os.ReadFile(filepath.Join(b, "reports", "r.json"))
	if !bytes.Equal(ranAt.ReplaceAll(ra, nil), ranAt.ReplaceAll(rb, nil)) {
		t.Error("two identical offline runs wrote different reports beyond ran_at")
	}
}
