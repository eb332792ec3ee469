package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestDelegatePreflightCountsWholeChainsAndWhatIsLeft: the preflight's
// per-document line counts a delegate chain's every call (20 at 10 round
// trips; issue 56: it counted the 10 forward steps), and a resume's
// preflight estimates the work left alone: the answers without a
// transcript, but not the steps after a chain's answer that handed on no
// document (they are never asked). The fake model answers an empty JSON
// Patch (the document unchanged, so chains go on) except in chain 02,
// which it ends at step 1; the resume then asks exactly what its
// estimate counted. A document with nothing to ask (not selected, or
// nothing left) has no line.
func TestDelegatePreflightCountsWholeChainsAndWhatIsLeft(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if strings.HasPrefix(taskIDOf(req), "02-") {
			return modeltest.Text("no patch here")
		}
		return modeltest.Text("[]")
	})
	srv.SetModels(modeltest.ModelEntry{ID: "vendor/a", PromptPrice: "0.000002", CompletionPrice: "0.00001", SupportedParameters: []string{"temperature", "seed"}})
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	args := []string{"run", "--base-url", srv.URL, "--config", "../../harness.yaml", "--out", runs, "--reports", filepath.Join(dir, "reports"),
		"--suite", "delegate", "--docs", "01,02,03", "--formats", "json-patch", "--models", "vendor/a", "--judges", "offline/judge", "--progress", "none"}
	perDoc := func(out, doc string) string {
		m := regexp.MustCompile(`(?m)^\s+` + doc + `-\S+\s+(\d+) jobs`).FindStringSubmatch(out)
		if m == nil {
			return "no line"
		}
		return m[1]
	}

	out, errs, code := runCLI(t, append(args, "--dry-run")...)
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s%s", code, out, errs)
	}
	for _, doc := range []string{"01", "02", "03"} {
		if got := perDoc(out, doc); got != "20" {
			t.Errorf("dry run: document %s's line counts %s jobs, want 20 (its chain's every call)\n%s", doc, got, out)
		}
	}
	for _, doc := range []string{"04", "10"} {
		if got := perDoc(out, doc); got != "no line" {
			t.Errorf("dry run: document %s, which --docs left out, has a line of %s jobs, want none\n%s", doc, got, out)
		}
	}

	if out, errs, code = runCLI(t, append(args, "--run-id", "d")...); code > 1 {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}
	if n := srv.Count(); n != 41 {
		t.Fatalf("the run asked %d requests, want 41 (chains 01 and 03 whole, chain 02 its first step)", n)
	}
	// Chain 01 as an interruption after its step 10 leaves it.
	for s := 11; s <= 20; s++ {
		matches, _ := filepath.Glob(filepath.Join(runs, "d", "vendor_a", "01-d0"+itoa2(s)+".*"))
		if len(matches) != 1 {
			t.Fatalf("step %d of chain 01: %d transcripts, want 1", s, len(matches))
		}
		if err := os.Remove(matches[0]); err != nil {
			t.Fatal(err)
		}
	}
	resume := []string{"run", "--resume", filepath.Join(runs, "d"), "--base-url", srv.URL, "--progress", "none"}
	out, errs, code = runCLI(t, append(resume, "--dry-run")...)
	if code != 0 {
		t.Fatalf("resume dry run: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "resume: 10 of 60 answer jobs and 0 judge votes left to ask") || !regexp.MustCompile(`vendor/a\s+10 jobs`).MatchString(out) {
		t.Errorf("the resume's preflight does not estimate the 10 steps left (chain 02's 19 never asked are not work left)\n%s", out)
	}
	for doc, want := range map[string]string{"01": "10", "02": "no line", "03": "no line"} {
		if got := perDoc(out, doc); got != want {
			t.Errorf("resume: document %s's line counts %s jobs, want %s\n%s", doc, got, want, out)
		}
	}
	if out, errs, code = runCLI(t, resume...); code > 1 {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errs)
	}
	if n := srv.Count(); n != 51 {
		t.Errorf("the resume asked %d requests, want the 10 its estimate counted", n-41)
	}
}

// itoa2 is n on two digits.
func itoa2(n int) string { return string(rune('0'+n/10)) + string(rune('0'+n%10)) }
