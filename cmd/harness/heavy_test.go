//go:build !race

package main

// The tests in this file move tens of megabytes through the whole
// pipeline: under the race detector, which checks every byte copied, they
// took 40 s each of a go test -race ./... that must stay quick. They test
// sizes and limits, not concurrency, so they run without it: make test
// runs them in a second go test without -race (the race detector's
// coverage of the same code paths comes from the other tests).

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/browsertest"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
)

// TestHugeAnswerIsArchivedAndScoredInvalid: an answer over about 8 MB
// made a transcript (which holds the content and the body it came in)
// over the 16 MB document limit that its own hash check refused: nothing
// was archived, the run aborted, and every resume paid again and failed
// again. Every answer the client accepts is archived and verifies; one
// too large to be a document is scored invalid with that reason, and the
// run finishes.
func TestHugeAnswerIsArchivedAndScoredInvalid(t *testing.T) {
	// The key is TestMain's; the server is passed by --base-url.
	t.Parallel()
	big := strings.Repeat("x", 9<<20)   // the probe's size: the transcript is over 16 MB
	huge := strings.Repeat("y", 17<<20) // no document can be this large
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		switch taskIDOf(req) {
		case "03-b":
			return modeltest.Text(big)
		case "04-c":
			return modeltest.Text(huge)
		}
		return modeltest.Text(`{"answer": "x", "evidence": []}`)
	})
	srv.SetModels(modeltest.Entry("vendor/a"))
	dir := t.TempDir()
	runs, reports := filepath.Join(dir, "runs"), filepath.Join(dir, "reports")
	// The two huge answers and one ordinary one of each class: the other
	// tasks add nothing the huge ones do not.
	_, errs, code := runCLI(t, "run", "--config", "../../harness.yaml", "--out", runs, "--reports", reports, "--base-url", srv.URL,
		"--models", "vendor/a", "--judges", "offline/judge", "--run-id", "r", "--progress", "none", "--tasks", "03-*,04-c")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the run finished; its verdict is fail): %s", code, errs)
	}
	runDir := filepath.Join(runs, "r")
	for id, content := range map[string]string{"03-b": big, "04-c": huge} {
		tr, err := transcript.Read(transcript.TaskPath(runDir, "vendor/a", id, 0))
		if err != nil || !tr.OK() || tr.Response.Content != content {
			t.Errorf("%s: the paid answer was not archived whole: %v", id, err)
		}
	}
	html := string(mustRead(t, filepath.Join(reports, "r.html")))
	if !strings.Contains(html, "the answer is 17825792 bytes, over the 16777216-byte limit of a document (§3): too large to score") {
		t.Error("the HTML report does not say why 04-c was scored invalid")
	}
	if srv.Count() != 4 {
		t.Errorf("%d requests, want 4: nothing paid twice", srv.Count())
	}
	if st, err := os.Stat(filepath.Join(reports, "r.html")); err != nil || st.Size() > 10<<20 {
		t.Errorf("HTML report: %v, %d bytes", err, st.Size())
	}
}

// TestFormats512kRung: on the 512k rung the oracle's patch answers are
// under 1% of its whole-document answers' bytes, and the report's rows say
// so per rung; the oracle is lossless there in every format.
func TestFormats512kRung(t *testing.T) {
	t.Parallel()
	rows := runFormats(t, "size", "--rungs", "512k")
	bytes := map[string]int64{}
	for _, r := range rows {
		if r.Model == "offline/oracle" && r.Rung == "512k" {
			bytes[r.Format] = r.AnswerBytes
			if r.Lossless == nil || *r.Lossless != 1 {
				t.Errorf("512k rung: the oracle's %s answers are not all lossless", r.Format)
			}
		}
	}
	doc := bytes["document"]
	for _, f := range []string{"json-patch", "bend-ops"} {
		if doc == 0 || bytes[f] == 0 || bytes[f]*100 >= doc {
			t.Errorf("512k rung: the oracle's %s answers are %d bytes against %d for whole documents; want under 1%%", f, bytes[f], doc)
		}
	}
}

// TestSizeSuite is the size suite's done-when, offline: per model one row
// per rung and position (and one per rung), the oracle at drift 0
// everywhere, offline/noisy's median drift on the largest rung above the
// smallest; rescore reproduces the report from the manifest alone.
func TestSizeSuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	reports := filepath.Join(dir, "reports")
	out, errs, code := runCLI(t, "run", "--suite", "size", "--models", "offline/oracle,offline/noisy", "--judges", "offline/judge",
		"--no-preflight", "--progress", "none", "--run-id", "s", "--out", filepath.Join(dir, "runs"), "--reports", reports)
	if code != 0 {
		t.Fatalf("exit %d (a complete informational run passes)\n%s%s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(reports, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := report.ReadJSON(bytes.NewReader(b), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Suite != "size" || len(rep.Sections) != 1 || len(rep.Sections[0].Rows) != 2*4*4 {
		t.Fatalf("suite %q, %d sections; want size and 32 rows (2 models × 4 rungs × 3 positions and all)", rep.Suite, len(rep.Sections))
	}
	median := map[string]float64{}
	for _, r := range rep.Sections[0].Rows {
		if r.MedianDrift == nil {
			t.Fatalf("%s %s %s: no median", r.Model, r.Rung, r.Position)
		}
		if r.Model == "offline/oracle" && *r.MedianDrift != 0 {
			t.Errorf("offline/oracle %s %s: median drift %v, want 0", r.Rung, r.Position, *r.MedianDrift)
		}
		if r.Position == "all" {
			median[r.Model+" "+r.Rung] = *r.MedianDrift
		}
	}
	if small, large := median["offline/noisy 8k"], median["offline/noisy 512k"]; large <= small {
		t.Errorf("offline/noisy: median drift %v on 512k, %v on 8k; want it to grow with size", large, small)
	}
	md, _ := os.ReadFile(filepath.Join(reports, "s.md"))
	html, _ := os.ReadFile(filepath.Join(reports, "s.html"))
	if !strings.Contains(string(md), "## Size ladder") || !strings.Contains(string(html), ": drift against document size") {
		t.Error("the Markdown summary or the viewer lacks the size ladder")
	}
}

// TestSearchReplace512kRung: on the 512k rung the oracle is lossless in
// search-replace and its answers are under 2% of its whole-document
// answers' bytes; offline/noisy's are under 2% of them too (its own
// document answers are mostly cut off there, so they are no measure of a
// document's size), and not lossless.
func TestSearchReplace512kRung(t *testing.T) {
	t.Parallel()
	rows := runFormats(t, "size", "--rungs", "512k", "--formats", "document,search-replace")
	bytes := map[string]int64{}
	for _, r := range rows {
		if r.Rung != "512k" {
			continue
		}
		bytes[r.Model+" "+r.Format] = r.AnswerBytes
		switch {
		case r.Format != "search-replace" || r.Lossless == nil:
		case r.Model == "offline/oracle" && *r.Lossless != 1:
			t.Errorf("512k rung: the oracle's search-replace answers are not all lossless")
		case r.Model == "offline/noisy" && *r.Lossless == 1:
			t.Errorf("512k rung: offline/noisy's search-replace answers are all lossless")
		}
	}
	doc := bytes["offline/oracle document"]
	for _, m := range []string{"offline/oracle", "offline/noisy"} {
		if sr := bytes[m+" search-replace"]; doc == 0 || sr == 0 || sr*50 >= doc {
			t.Errorf("512k rung: %s's search-replace answers are %d bytes against %d for whole documents; want under 2%%", m, sr, doc)
		}
	}
}

// fakeRun writes a run directory holding only a manifest.
func fakeRun(t *testing.T, runs, id string) string {
	t.Helper()
	dir := filepath.Join(runs, id)
	if err := transcript.WriteManifest(dir, &transcript.Manifest{RunID: id, Models: []string{"vendor/a"}, StartedAt: time.Unix(0, 0).UTC()}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRunsSkipsNoFIFOAndNoLargeTranscript: a FIFO run.json hung `harness
// runs` past SIGTERM; and runs summed the cost of transcripts of at most
// 16 MiB (the document limit), so two paid transcripts of 17 MiB at $0.50
// showed as $0.0000 without "+?".
func TestRunsSkipsNoFIFOAndNoLargeTranscript(t *testing.T) {
	t.Parallel()
	runs := t.TempDir()
	if err := os.Mkdir(filepath.Join(runs, "fifo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(runs, "fifo", "run.json"), 0o644); err != nil {
		t.Skip(err)
	}
	dir := fakeRun(t, runs, "big")
	os.Mkdir(filepath.Join(dir, "vendor_a"), 0o755)
	pad := strings.Repeat("x", 17<<20)
	for _, name := range []string{"01-b.r0.json", "01-c.r0.json"} {
		writeFile(t, filepath.Join(dir, "vendor_a"), name, `{"response": {"usage": {"cost": 0.5}}, "pad": "`+pad+`"}`)
	}
	done := make(chan struct{})
	var out, errs string
	var code int
	go func() { out, errs, code = runCLI(t, "runs", runs); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a hang; reading 34 MB is seconds on a busy machine
		t.Fatal("harness runs blocked on a FIFO run.json")
	}
	if code != 0 || !strings.Contains(errs, "named pipe") || !strings.Contains(out, "$1.0000") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the FIFO named and a cost of $1.0000", code, out, errs)
	}
}

// TestDemoEndsOnTheVerdict is issue 34's "make demo ends with the gating
// verdict and the report paths": make demo runs scripts/demo, run here in
// a scratch directory with the built harness. It exits 0 (the gating
// verdict fails by design), prints each informational part's table, and
// its last lines are the gating run's report paths, verdict and viewer,
// every path a file the run wrote.
func TestDemoEndsOnTheVerdict(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil || !strings.Contains(string(mk), "\t@./scripts/demo $(BIN)\n") {
		t.Fatalf("the Makefile's demo does not run scripts/demo $(BIN) (%v)", err)
	}
	script, err := filepath.Abs("../../scripts/demo")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var out, errb bytes.Buffer
	cmd := exec.Command(script, builtHarness(t))
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/demo: %v\n%s\n%s", err, out.String(), errb.String())
	}
	text := out.String()
	// The answer formats are the size section's rows per format (issue
	// 31); the demo printed no table for them when it looked for a
	// section of their own.
	heads := map[string]int{}
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "## "):
			heads[l]++
		case strings.HasPrefix(l, "| model | rung | position | format |"):
			heads["per format"]++
		}
	}
	if heads["## Size ladder"] != 2 || heads["## Relay"] != 1 || heads["per format"] != 1 {
		t.Errorf("the demo's tables: %v; want the size ladder, the relay, and the size ladder per answer format", heads)
	}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) < 6 {
		t.Fatalf("the demo printed %d lines:\n%s", len(lines), text)
	}
	end := lines[len(lines)-6:]
	want := []string{"wrote reports/demo.md", "wrote reports/demo.csv", "wrote reports/demo.junit.xml",
		"Verdict: * §8.5 reading: *", "HTML report: reports/demo.html", "JSON report: reports/demo.json"}
	for i, pattern := range want {
		if ok, _ := filepath.Match(pattern, end[i]); !ok {
			t.Errorf("line %d from the end: %q, want the gating run's %q", len(want)-i, end[i], pattern)
		}
		if _, path, ok := strings.Cut(end[i], "reports/"); ok && !strings.HasPrefix(end[i], "Verdict") {
			if _, err := os.Stat(filepath.Join(dir, "reports", path)); err != nil {
				t.Errorf("%q: %v", end[i], err)
			}
		}
	}
	t.Run("pages", func(t *testing.T) { demoPagesFit(t, dir) })
	// The runs have fixed names, for the help examples (issue 46): a
	// second demo replaces the first's, saying so, rather than failing
	// on a run directory that exists.
	again := exec.Command(script, builtHarness(t))
	again.Dir = dir
	if out, err := again.CombinedOutput(); err != nil || !strings.Contains(string(out), "demo: replacing the last demo's runs and reports") {
		t.Errorf("a second demo: %v\n%s", err, out)
	}
}

// demoPagesFit checks the demo's pages in headless Chromium at 1280 px
// (browsertest.CheckFit): the gating run's, the size ladder's, the
// relay's, the answer formats', and a trend over the gating report and a
// copy of it (issue 34: the trend's list of reports ran 4,759 px wide, and
// no test opened a formats or trend page).
func demoPagesFit(t *testing.T, dir string) {
	bin := browsertest.Find()
	if bin == "" {
		t.Skipf("no Chromium found (looked for %s): the demo's pages were not opened", strings.Join(browsertest.Browsers, ", "))
	}
	reports := filepath.Join(dir, "reports")
	gating, _ := filepath.Glob(filepath.Join(reports, "demo.json"))
	if len(gating) != 1 {
		t.Fatalf("gating reports %v, want one", gating)
	}
	b, err := os.ReadFile(gating[0])
	if err != nil {
		t.Fatal(err)
	}
	night := filepath.Join(dir, "night2.json")
	writeFile(t, dir, "night2.json", string(b))
	trendPage := filepath.Join(dir, "trend.html")
	if _, errs, code := scriptCommand(t, dir, nil, "trend", "--html", trendPage, gating[0], night); code != 0 {
		t.Fatalf("trend: exit %d: %s", code, errs)
	}
	pages, _ := filepath.Glob(filepath.Join(reports, "demo*.html"))
	if len(pages) != 4 {
		t.Fatalf("pages %v, want the demo's four", pages)
	}
	ctx := browsertest.Start(t, bin)
	for _, page := range append(pages, trendPage) {
		browsertest.CheckFit(t, ctx, filepath.Base(page), page)
	}
}
