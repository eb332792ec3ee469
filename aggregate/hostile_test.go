package aggregate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestServedModelMismatchWarned: the server said openai/gpt-3.5-turbo
// answered for the model asked for, and only the transcript's
// model_served recorded it; the report now warns, naming both.
func TestServedModelMismatchWarned(t *testing.T) {
	t.Parallel()
	in := inputOf(scoringtest.FailingRun.Run())
	n := 0
	for i := range in.Scores {
		if in.Scores[i].Status == scoring.StatusScored && n < 2 {
			in.Scores[i].ModelServed = "openai/gpt-3.5-turbo"
			n++
		}
	}
	rep := Build(in)
	for _, w := range rep.Warnings {
		if w.Kind == report.WarnServed && w.N == 2 && slices.Equal(w.Items, []string{"openai/gpt-3.5-turbo"}) && slices.Equal(w.Counts, []int{2}) {
			return
		}
	}
	t.Errorf("warnings %+v; want one naming the served model", rep.Warnings)
}

// TestReportSymlinkToDeviceRefused: a report that was a symlink to
// /dev/zero made compare and trend run out of memory in a second or two.
func TestReportSymlinkToDeviceRefused(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "r.json")
	if err := os.Symlink("/dev/zero", p); err != nil {
		t.Skip(err)
	}
	if _, err := report.ReadFiles([]string{p}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFiles = %v; want not a regular file", err)
	}
}
