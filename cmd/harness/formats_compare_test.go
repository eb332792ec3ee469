package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatsAgainstDocument is issue 56's done-when for "which surface
// loses least": a delegate run in document and json-patch of
// offline/oracle and offline/noisy reports, per model, json-patch against
// document with the paired tests, in the JSON, the Markdown and the page:
// the oracle's formats equal (no task differs), noisy's json-patch worse
// (it carries its slips into its patches and adds slips of its own). A
// run of one format has no such comparison.
func TestFormatsAgainstDocument(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rep, _ := delegateRun(t, dir, "--models", "offline/oracle,offline/noisy", "--round-trips", "3", "--formats", "document,json-patch")
	fc := rep.FormatsCompared
	if fc == nil || len(fc.Rows) != 2 || fc.Tests < 1 {
		t.Fatalf("formats_compared %+v, want a row per model", fc)
	}
	want := map[string][2]string{"offline/oracle": {"=", "="}, "offline/noisy": {"worse", ""}}
	for _, r := range fc.Rows {
		w := want[r.Model]
		if r.Format != "json-patch" || r.Pairs != 20 || r.Change != w[0] || (w[1] != "" && r.LosslessChange != w[1]) {
			t.Errorf("%s: %s on %d tasks: drift %s, lossless %s; want json-patch on 20, drift %s (lossless %q)", r.Model, r.Format, r.Pairs, r.Change, r.LosslessChange, w[0], w[1])
		}
		if r.Change == "worse" && (r.PAdjusted == nil || *r.PAdjusted >= 0.05 || *r.PAdjusted < *r.P) {
			t.Errorf("%s: worse at adjusted p %v (raw %v)", r.Model, r.PAdjusted, r.P)
		}
	}
	for _, f := range []string{"d.md", "d.html"} {
		b, err := os.ReadFile(filepath.Join(dir, "reports", f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "Which format loses least") {
			t.Errorf("%s does not show the formats against the whole document", f)
		}
	}
	one, _ := delegateRun(t, t.TempDir(), "--models", "offline/noisy", "--round-trips", "1", "--docs", "01,02")
	if one.FormatsCompared != nil {
		t.Errorf("a run of one format compares formats: %+v", one.FormatsCompared)
	}
}
