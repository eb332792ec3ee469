package viewer

import (
	"bytes"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestWritersReadOnlyTheJSON: the Markdown, the JUnit file and the HTML
// page written from a report read back from its JSON are the bytes
// written from the report Build returned: every number they print is in
// the JSON, none is computed beside it. (The CSV lists every answer, from
// the scores, and the page's documents come from the run's transcripts:
// those are given to both alike.)
func TestWritersReadOnlyTheJSON(t *testing.T) {
	t.Parallel()
	writers := []struct {
		name   string
		write  func(*bytes.Buffer, *report.Report, Input) error
		reason string
	}{
		{"markdown", func(b *bytes.Buffer, r *report.Report, _ Input) error { return render.WriteMarkdown(b, r) }, "the summary a pull request shows"},
		{"junit", func(b *bytes.Buffer, r *report.Report, _ Input) error { return render.WriteJUnit(b, r) }, "the CI test results"},
		{"html", func(b *bytes.Buffer, r *report.Report, in Input) error { return WriteHTML(b, r, in) }, "the viewer, given the same scores and transcripts"},
	}
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		in     Input
		reason string
	}{
		{"passing", inputOf(scoringtest.PassingRun.Run()), "a gating run that passes, one repeat"},
		{"failing", inputOf(scoringtest.FailingRun.Run()), "three repeats: noise, spreads, failures, incomplete models"},
		{"size", inputOf(scoringtest.SizeRun()), "a size ladder's sections and plots"},
		{"relay", inputOf(scoringtest.RelayRun()), "a relay's steps, breaks and curves"},
		{"offline", inputOf(pipelinetest.OracleNoisyRun(t)), "the real offline pipeline, with transcripts"},
	}) {
		built := report.Build(c.in.Input)
		js, err := report.MarshalJSON(built)
		if err != nil {
			t.Fatal(err)
		}
		back, err := report.ReadJSON(bytes.NewReader(js), c.name+".json")
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tabletest.Cases(t, writers) {
			var want, got bytes.Buffer
			if err := w.write(&want, built, c.in); err != nil {
				t.Fatal(err)
			}
			if err := w.write(&got, back, c.in); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(want.Bytes(), got.Bytes()) {
				t.Errorf("%s %s: written from the report read back, it differs (%s):\n%s", c.name, w.name, c.reason, lineDiffText(want.String(), got.String()))
			}
		}
	}
}
