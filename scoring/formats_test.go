package scoring

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// TestPatchThatDoesNotApplyIsInvalid: a patch answer of each kind of
// failure is scored as an invalid answer (drift 1, every component 1),
// with the failing operation and the reason in the score, never a panic.
func TestPatchThatDoesNotApplyIsInvalid(t *testing.T) {
	set := tasktest.Set(t).WithFormats([]string{"", formats.JSONPatch, formats.BendOps})
	w := config.Default().Weights
	for _, tt := range tabletest.Cases(t, []struct {
		name, format, answer, kind string
		op                         int
		reason                     string // a part of the reason
	}{
		{"not JSON", formats.JSONPatch, "I would change the title.", formats.NotJSON, -1, "not JSON"},
		{"not an array", formats.JSONPatch, `{"op": "remove", "path": "/title"}`, formats.NotFormat, -1, "array"},
		{"unknown operation", formats.JSONPatch, `[{"op": "rename", "path": "/title"}]`, formats.NotFormat, 0, "rename"},
		{"missing value", formats.JSONPatch, `[{"op": "test", "path": "/title", "value": "x"}, {"op": "replace", "path": "/title"}]`, formats.NotFormat, 1, "value"},
		{"bad path", formats.JSONPatch, `[{"op": "replace", "path": "/blocks/0/colour", "value": 1}]`, formats.Failed, 0, "/blocks/0/colour"},
		{"index out of range", formats.JSONPatch, `[{"op": "remove", "path": "/blocks/999"}]`, formats.Failed, 0, "999"},
		{"failed test", formats.JSONPatch, `[{"op": "test", "path": "/title", "value": "not the title"}]`, formats.Failed, 0, "test"},
		{"unknown block", formats.BendOps, `[{"op": "remove_block", "block": "blk-nowhere"}]`, formats.Failed, 0, "blk-nowhere"},
		{"unknown op", formats.BendOps, `[{"op": "move_block", "block": "blk-x"}]`, formats.NotFormat, 0, "move_block"},
	}) {
		t.Run(tt.name, func(t *testing.T) {
			tk := set.Task("03-b." + tt.format)
			if tk == nil {
				t.Fatal("no task 03-b in " + tt.format)
			}
			tr := &transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: tk.ID, Class: tk.Class,
				Hashes: transcript.Hashes{Document: tk.Source.Hash}, Response: &transcript.Response{Content: tt.answer, FinishReason: "stop"}}
			s := scoreOne(tk, "m", 0, tr, nil, w)
			f := s.ApplyFailure
			if s.Status != StatusScored || s.Metric == nil || s.Metric.Valid || s.Metric.Drift != 1 || f == nil {
				t.Fatalf("status %s, metric %+v, failure %+v; want an invalid answer, drift 1, with its failure", s.Status, s.Metric, f)
			}
			if f.Kind != tt.kind || f.Op != tt.op || !strings.Contains(f.Reason+f.Text, tt.reason) || s.Metric.Reason != f.Error() {
				t.Errorf("failure %+v (reason %q); want kind %s at operation %d naming %q, in the metric's reason", f, s.Metric.Reason, tt.kind, tt.op, tt.reason)
			}
		})
	}
}

// TestOutputIsTheDocumentScored: the score phase hands on, beside each
// score, the document the answer made as the metric scored it (a patch
// applied once, here), so that no writer applies a patch again (issue 47):
// a patch that applies gives the patched document, one that does not
// gives none, and a whole-document answer its content.
func TestOutputIsTheDocumentScored(t *testing.T) {
	set := tasktest.Set(t).WithFormats([]string{"", formats.JSONPatch})
	w := config.Default().Weights
	for _, tt := range tabletest.Cases(t, []struct {
		name, id, answer string
		want             func(tk *task.Task) string
		reason           string
	}{
		{"patch", "03-b." + formats.JSONPatch, `[{"op": "replace", "path": "/title", "value": "Made by the patch"}]`, func(tk *task.Task) string {
			out, fail := formats.Lookup(formats.JSONPatch).Apply(tk.Source.Bytes, `[{"op": "replace", "path": "/title", "value": "Made by the patch"}]`)
			if fail != nil {
				t.Fatal(fail)
			}
			return string(out)
		}, "the patch applied to the document given, as the metric scored it"},
		{"patch that fails", "03-b." + formats.JSONPatch, `[{"op": "remove", "path": "/blocks/999"}]`, func(*task.Task) string { return "" }, "a patch that does not apply made no document"},
		{"whole document", "03-b", `{"not": "checked here"}`, func(*task.Task) string { return `{"not": "checked here"}` }, "a whole-document answer is its own document"},
	}) {
		tk := set.Task(tt.id)
		if tk == nil {
			t.Fatalf("%s: no task %s", tt.name, tt.id)
		}
		tr := &transcript.Transcript{Kind: transcript.KindTask, Model: "m", TaskID: tk.ID, Class: tk.Class,
			Hashes: transcript.Hashes{Document: tk.Source.Hash}, Response: &transcript.Response{Content: tt.answer, FinishReason: "stop"}}
		var got Output
		_, err := Stream(set, Plan{Models: []string{"m"}, TaskIDs: []string{tk.ID}, Repeats: 1}, memory([]*transcript.Transcript{tr}), w,
			func(_ int, _ *Score, o Output) { got = o })
		if err != nil {
			t.Fatal(err)
		}
		if want := tt.want(tk); got.Document != want || got.Transcript != tr {
			t.Errorf("%s: Output.Document %.80q (transcript handed on: %v); want %.80q (%s)", tt.name, got.Document, got.Transcript == tr, want, tt.reason)
		}
	}
}
