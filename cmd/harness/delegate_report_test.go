package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDelegateSearchReplaceAloneReport is issue 56's done-when for the
// delegate report, offline: a run in search-replace alone says why it
// has no drift table, names its surface in every RS@k, loss and critical
// row, shows the token saving against the whole documents, and records
// every answer's format; a run in document alone names document the same
// way.
func TestDelegateSearchReplaceAloneReport(t *testing.T) {
	t.Parallel()
	for _, f := range []string{"search-replace", "document"} {
		dir := t.TempDir()
		rep, _ := delegateRun(t, dir, "--models", "offline/oracle,offline/noisy", "--docs", "01,02,03", "--round-trips", "2", "--formats", f)
		md, err := os.ReadFile(filepath.Join(dir, "reports", "d.md"))
		if err != nil {
			t.Fatal(err)
		}
		text := string(md)
		if f == "search-replace" && !strings.Contains(text, "No row: this table is the whole-document answers") {
			t.Errorf("%s: the drift table neither has rows nor says why", f)
		}
		for _, sec := range []string{"Reconstruction (RS@k)", "Where the loss comes from", "Critical round trips"} {
			rows := tableRows(text, sec)
			if len(rows) == 0 && sec != "Critical round trips" {
				t.Errorf("%s: no rows under %q", f, sec)
			}
			for _, row := range rows {
				if !strings.Contains(row, "("+f+")") {
					t.Errorf("%s: a row of %q does not name the surface: %s", f, sec, row)
				}
			}
		}
		if f == "search-replace" {
			saving := regexp.MustCompile(`\| ≈\d+\.\d\d% \| \d+ \| \d+\.\d\d% \|`)
			if n := len(saving.FindAllString(text, -1)); n == 0 {
				t.Errorf("%s: no per-step row shows its tokens and bytes against the whole document", f)
			}
		}
		for _, a := range rep.Answers {
			if a.Format != f {
				t.Errorf("%s: answer %s %s has format %q", f, a.Model, a.TaskID, a.Format)
				break
			}
		}
	}
}

// tableRows are the rows of the Markdown table under the heading title.
func tableRows(md, title string) []string {
	_, rest, ok := strings.Cut(md, "## "+title+"\n")
	if !ok {
		return nil
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "| `") {
			out = append(out, l)
		}
	}
	return out
}
