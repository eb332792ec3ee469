package progress_test

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/cmd/harness/internal/progress"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/transcript"
)

// TestBarsDrawTheWholeTotal: on a terminal the bars were drawn at every
// Add while the plan was still being counted (the later jobs first, then
// each first job as it was queued), so a model read 0/40, then 0/60
// (issue 46). They are drawn from the first job's end, with the total
// whole, and redrawn when a total changes after that.
func TestBarsDrawTheWholeTotal(t *testing.T) {
	var out bytes.Buffer
	b := &progress.Bars{W: &out}
	b.Add("m", 40)
	for range 20 {
		b.Add("m", 1)
	}
	if out.Len() != 0 {
		t.Fatalf("drawn before any job ended: %q", out.String())
	}
	b.Done(runner.Result{Job: runner.Job{Model: "m"}, Transcript: &transcript.Transcript{}})
	if !strings.Contains(out.String(), " 1/60 ") || strings.Contains(out.String(), "/40") {
		t.Errorf("after the first job: %q, want 1/60", out.String())
	}
	b.Add("m", -2)
	if !strings.Contains(out.String(), " 1/58 ") {
		t.Errorf("a total that changes after the start is not redrawn: %q", out.String())
	}
}
