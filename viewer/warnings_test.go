package viewer

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestPageWarningsAreTheirText: the viewer lists each warning as the
// Markdown words it, not as its data.
func TestPageWarningsAreTheirText(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	r := aggregate.Build(in.Input)
	if len(r.Warnings) == 0 {
		t.Fatal("the failing run has no warning")
	}
	var b bytes.Buffer
	if err := WriteHTML(&b, r, in); err != nil {
		t.Fatal(err)
	}
	for _, w := range r.Warnings {
		if li := "<li>" + template.HTMLEscapeString(render.WarningText(w)) + "</li>"; !strings.Contains(b.String(), li) {
			t.Errorf("the page lacks %s", li)
		}
	}
}
