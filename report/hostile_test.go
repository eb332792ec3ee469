package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/scoring"
)

// TestServedModelMismatchWarned: the server said openai/gpt-3.5-turbo
// answered for the model asked for, and only the transcript's
// model_served recorded it; the report now warns, naming both.
func TestServedModelMismatchWarned(t *testing.T) {
	t.Parallel()
	in := failingRun.input()
	n := 0
	for i := range in.Scores {
		if in.Scores[i].Status == scoring.StatusScored && n < 2 {
			in.Scores[i].ModelServed = "openai/gpt-3.5-turbo"
			n++
		}
	}
	rep := Build(in)
	for _, w := range rep.Warnings {
		if strings.Contains(w, "2 answers were served by another model (openai/gpt-3.5-turbo ×2)") && strings.Contains(w, "cannot gate") {
			return
		}
	}
	t.Errorf("warnings %q; want one naming the served model", rep.Warnings)
}

// TestCompareClassColumnCannotForgeMarkdown: compare --format md wrote the
// class column (a report's format name, rung and class) unescaped; a
// hostile report made a "## ✅ PASS" heading and raw <script> in the
// output the README suggests appending to $GITHUB_STEP_SUMMARY.
func TestCompareClassColumnCannotForgeMarkdown(t *testing.T) {
	t.Parallel()
	old, new := comparePair()
	const forged = "B |\n\n## ✅ PASS\n\n<script>alert(1)</script>"
	c := Compare(old, new, "a.json", "b.json")
	for i := range c.Rows {
		c.Rows[i].Class = forged
	}
	var b strings.Builder
	if err := c.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "#") || strings.Contains(line, "<script>") {
			t.Errorf("forged markup in the comparison: %q", line)
		}
	}
}

// TestCSVModelNameIsNoFormula: a model named =HYPERLINK(…) was a live
// formula in the CSV report.
func TestCSVModelNameIsNoFormula(t *testing.T) {
	t.Parallel()
	in := failingRun.input()
	for i := range in.Scores {
		in.Scores[i].Model = `=HYPERLINK("http://x","y")`
	}
	var b strings.Builder
	if err := WriteCSV(&b, in); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n")[1:] {
		if strings.HasPrefix(line, "=") || strings.HasPrefix(line, `"=`) {
			t.Errorf("a formula cell: %q", line)
		}
	}
}

// TestReportSymlinkToDeviceRefused: a report that was a symlink to
// /dev/zero made compare and trend run out of memory in a second or two.
func TestReportSymlinkToDeviceRefused(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip(err)
	}
	if _, err := ReadFiles([]string{p}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFiles = %v; want not a regular file", err)
	}
}
