package viewer

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// TestDiffComparesNumbersAsTheMetric: number spellings the metric treats
// as one number (it reads documents in their RFC 8785 form) showed as -/+
// lines in show and the viewer: 1e21 → 1e+21, -0 → 0, 0.000001 → 1e-06
// (issue 46). Both sides are now shown with numbers as the metric reads
// them: an answer that differs from the expected document only so is
// identical, and a number that does differ still shows.
func TestDiffComparesNumbersAsTheMetric(t *testing.T) {
	t.Parallel()
	set, err := task.Load(corpus.FS, instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	base := set.Task("03-b")
	doc := func(meta string) *bend.Document {
		t.Helper()
		text := strings.Replace(string(bend.Marshal(base.Expected)), "\"meta\": {\n", "\"meta\": {\n  \"numbers\": "+meta+",\n", 1)
		d, err := bend.Parse([]byte(text))
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		return d
	}
	expected := doc(`{"big": 1e+21, "zero": 0, "small": 1e-6}`)
	tk := *base
	tk.Expected = expected
	for _, c := range tabletest.Cases(t, []struct {
		meta      string
		identical bool
		reason    string
	}{
		{`{"big": 1e21, "zero": -0, "small": 0.000001}`, true, "the issue's three spellings of the expected numbers"},
		{`{"big": 1E+21, "zero": 0.0, "small": 1.0e-6}`, true, "an upper-case exponent, a fraction of zero, a mantissa with a point"},
		{`{"big": 2e21, "zero": 0, "small": 1e-6}`, false, "a number that differs still shows"},
	}) {
		answer := string(bend.Marshal(doc(c.meta)))
		tr := &transcript.Transcript{Response: &transcript.Response{Content: answer}}
		s := scoring.Score{TaskID: tk.ID, Class: tk.Class, Status: scoring.StatusScored}
		out := OutputOf(s, &tk, scoring.Output{Transcript: tr, Document: answer})
		var diff strings.Builder
		for _, h := range out.Hunks {
			for _, l := range h.Lines {
				diff.WriteString(l.Op + l.Text + "\n")
			}
		}
		if out.Identical != c.identical {
			t.Errorf("meta %s: identical %v, want %v (%s); diff:\n%s", c.meta, out.Identical, c.identical, c.reason, diff.String())
		}
	}
}

// TestPatchShownAsScoringMadeIt: the viewer diffs the document scoring
// made of a patch answer (scoring.Output.Document) and never applies the
// patch itself (issue 47: a patch is applied once). The document handed
// on here differs from what the patch would make, so a viewer that
// applied the patch again would show the patch's title instead.
func TestPatchShownAsScoringMadeIt(t *testing.T) {
	t.Parallel()
	set, err := task.Load(corpus.FS, instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	tk := *set.Task("03-b")
	tk.Format = "json-patch"
	made := strings.Replace(string(bend.Marshal(tk.Expected)), "\"meta\": {\n", "\"meta\": {\n  \"shown\": \"the document scoring made\",\n", 1)
	patch := `[{"op": "replace", "path": "/title", "value": "what applying the patch again would show"}]`
	tr := &transcript.Transcript{Hashes: transcript.Hashes{Document: tk.Source.Hash}, Response: &transcript.Response{Content: patch}}
	s := scoring.Score{TaskID: tk.ID, Class: tk.Class, Status: scoring.StatusScored}
	out := OutputOf(s, &tk, scoring.Output{Transcript: tr, Document: made})
	var diff strings.Builder
	for _, h := range out.Hunks {
		for _, l := range h.Lines {
			diff.WriteString(l.Op + l.Text + "\n")
		}
	}
	if !strings.Contains(diff.String(), "the document scoring made") || strings.Contains(diff.String(), "applying the patch again") || out.Raw != patch {
		t.Errorf("diff:\n%s\nraw %q; want the document scoring made diffed against the expected one, and the patch shown as written", diff.String(), out.Raw)
	}
}
