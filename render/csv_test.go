package render

import (
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
)

// TestCSVOfAReportWithoutAnswers: the CSV prints the report's answers
// alone; a report written before they were in the JSON (schemas 2 and
// 3, and 4 before them) gives the header and no row, never a row made
// up from something else (docs/interpretations.md).
func TestCSVOfAReportWithoutAnswers(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		name, file string
		reason     string
	}{
		{"schema 2", "schema-2.json", "the oldest report the harness still opens"},
		{"schema 3", "schema-3.json", "a report of per-document values without answers"},
	}) {
		f, err := os.Open("../report/testdata/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := report.ReadJSON(f, c.file)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Answers) != 0 {
			t.Fatalf("%s: %d answers read from a report that has none", c.name, len(r.Answers))
		}
		var b strings.Builder
		if err := WriteCSV(&b, r); err != nil {
			t.Fatal(err)
		}
		if lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "model,task,class,") {
			t.Errorf("%s: the CSV is %q, want its header alone (%s)", c.name, b.String(), c.reason)
		}
	}
}
