package render

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/reporttest"
)

// TestCSVModelNameIsNoFormula: a model named =HYPERLINK(…) was a live
// formula in the CSV report.
func TestCSVModelNameIsNoFormula(t *testing.T) {
	t.Parallel()
	in := inputOf(reporttest.FailingRun.Run())
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
