package viewer

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestHTMLHoldsNoTerminalControls: a provider or served-model name
// holding ESC reached the reports raw (issue 45); the HTML page passes
// the terminal filter as render's Markdown does.
func TestHTMLHoldsNoTerminalControls(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	for i := range in.Scores {
		in.Scores[i].Provider = "evil\x1b]52;c;SGk=\a\u202e"
		if i%7 == 0 {
			in.Scores[i].ModelServed = "vendor/x\x1b[2J"
		}
	}
	var page strings.Builder
	if err := WriteHTML(&page, aggregate.Build(in.Input), in); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(page.String(), "\x1b\a\u202e") {
		t.Error("the HTML report holds a raw control character")
	}
}
