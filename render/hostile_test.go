package render

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestCSVModelNameIsNoFormula: a model named =HYPERLINK(…) was a live
// formula in the CSV report.
func TestCSVModelNameIsNoFormula(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	for i := range in.Scores {
		in.Scores[i].Model = `=HYPERLINK("http://x","y")`
	}
	var b strings.Builder
	if err := WriteCSV(&b, aggregate.Build(in)); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n")[1:] {
		if strings.HasPrefix(line, "=") || strings.HasPrefix(line, `"=`) {
			t.Errorf("a formula cell: %q", line)
		}
	}
}

// TestMarkdownHoldsNoTerminalControls: a provider or served-model name
// holding ESC reached reports/*.md raw (issue 45): mdText escapes
// Markdown, not control characters. The Markdown passes the terminal
// filter as well (the page's own test is viewer's
// TestHTMLHoldsNoTerminalControls).
func TestMarkdownHoldsNoTerminalControls(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	for i := range in.Scores {
		in.Scores[i].Provider = "evil\x1b]52;c;SGk=\a\u202e"
		if i%7 == 0 {
			in.Scores[i].ModelServed = "vendor/x\x1b[2J"
		}
	}
	var b strings.Builder
	if err := WriteMarkdown(&b, aggregate.Build(in)); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\a\u202e") {
		t.Error("the Markdown holds a raw control character")
	}
	if !strings.Contains(b.String(), `evil\u001b\]52`) {
		t.Error("the provider's name is not shown, escaped")
	}
}
