package scoring

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

var srBlock = formats.Block

// TestSearchReplaceFailureKinds: a search-replace answer of each kind of
// failure (issue 35) is scored as an invalid answer, drift 1, with its
// kind, the block that failed and an excerpt in the score.
func TestSearchReplaceFailureKinds(t *testing.T) {
	set := tasktest.Set(t).WithFormats([]string{"", formats.SearchReplace})
	tk := set.Task("02-b." + formats.SearchReplace)
	if tk == nil {
		t.Fatal("no task 02-b.search-replace")
	}
	const (
		text = `          "text": "one ten-millionth of the distance from the North Pole to the equator"`
		same = text
	)
	w := config.Default().Weights
	for _, c := range tabletest.Cases(t, []struct {
		name, answer, kind string
		block              int
		excerpt            string // a part of Failure.Text
		reason             string // a part of the reason
	}{
		{"no blocks", "I would make it bold.", formats.NoBlocks, -1, "", "no block"},
		{"not found", srBlock(same, same) + srBlock(`    "missing line"`, same), formats.NotFound, 1, "missing line", "does not occur"},
		{"ambiguous", srBlock(`          "id": "spn-02",`, `          "id": "spn-02",`), formats.Ambiguous, 0, "spn-02", "occurs 2 times"},
		{"not JSON after the edits", srBlock(same, same) + srBlock(`      "id": "blk-4a90",`, `      "id": "blk-4a90"`), formats.EditedNotJSON, 1, "blk-4a90", "not JSON"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			tr := &transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: tk.ID, Class: tk.Class,
				Hashes: transcript.Hashes{Document: tk.Source.Hash}, Response: &transcript.Response{Content: c.answer, FinishReason: "stop"}}
			s := scoreOne(tk, "m", 0, tr, nil, w)
			f := s.ApplyFailure
			if s.Status != StatusScored || s.Metric == nil || s.Metric.Valid || s.Metric.Drift != 1 || f == nil {
				t.Fatalf("status %s, metric %+v, failure %+v; want an invalid answer, drift 1, with its failure", s.Status, s.Metric, f)
			}
			if f.Kind != c.kind || f.Op != c.block || !strings.Contains(f.Text, c.excerpt) || !strings.Contains(f.Reason, c.reason) || s.Metric.Reason != f.Error() {
				t.Errorf("failure %+v; want %s at block %d, excerpt holding %q, reason holding %q", f, c.kind, c.block, c.excerpt, c.reason)
			}
		})
	}
}
