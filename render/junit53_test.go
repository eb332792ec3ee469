package render

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
)

// TestJUnitEscapesWhatAServerChose: a right-to-left override (U+202E) and
// an escape sequence in a name the server chose reached the JUnit file
// raw, though every other output escapes them (issue 53). The file passes
// the shared filter (internal/safetext): it holds them as visible
// escapes, and still parses.
func TestJUnitEscapesWhatAServerChose(t *testing.T) {
	t.Parallel()
	run, _ := pipelinetest.Pipeline(t, []string{offline.Oracle}, nil, 1, 20260427)
	r := aggregate.Build(inputOf(run))
	hostile := "evil\u202egpj.exe\x1b]0;title\x07"
	r.RunID = hostile
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, raw := range []string{"\u202e", "\x1b", "\x07"} {
		if strings.Contains(out, raw) {
			t.Errorf("the JUnit file holds %q raw", raw)
		}
	}
	if !strings.Contains(out, `evil\u202egpj.exe`) {
		t.Errorf("the JUnit file does not show the override as an escape:\n%.400s", out)
	}
	parseJUnit(t, buf.Bytes())
}
