package progress_test

import (
	"bytes"
	"fmt"
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

// TestLinesCountJobsNotRequested: issue 56: against a dead API root,
// --progress lines printed 180 identical "not requested after a fatal
// error" lines. Each model's skipped jobs are now one line with their
// count, printed when its jobs are done (or another of its jobs ends),
// after the line of the error that stopped it.
func TestLinesCountJobsNotRequested(t *testing.T) {
	var b strings.Builder
	l := &progress.Lines{W: &b}
	const n = 60
	for _, m := range []string{"a", "b", "c"} {
		l.Add(m, n)
	}
	fatal := &transcript.CallError{Message: "no response (unreachable)", Fatal: true}
	skip := &transcript.CallError{Code: transcript.CodeSkipped, Message: "not requested after a fatal error of the model: no response", Fatal: true}
	for _, m := range []string{"a", "b", "c"} {
		l.Done(runner.Result{Job: runner.Job{Model: m}, Transcript: &transcript.Transcript{TaskID: "01-a", Error: fatal}})
	}
	for i := 2; i <= n; i++ {
		for _, m := range []string{"a", "b", "c"} {
			l.Done(runner.Result{Job: runner.Job{Model: m}, Transcript: &transcript.Transcript{TaskID: fmt.Sprintf("%02d-a", i), Error: skip}})
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines, want 6 (the fatal error and one count per model):\n%s", len(lines), b.String())
	}
	if want := "[60/60] a: 59 jobs not requested after the model's fatal error (02-a r0 to 60-a r0; $0.0000 so far)"; lines[3] != want {
		t.Errorf("line 4 %q, want %q", lines[3], want)
	}
}
