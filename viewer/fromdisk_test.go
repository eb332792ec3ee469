package viewer

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestWritersReadOnlyTheJSON: the Markdown, the JUnit file and the HTML
// page written from a report read back from its JSON are the bytes
// written from the report Build returned: every number they print is in
// the JSON, none is computed beside it. The Markdown, the JUnit file and
// the page's format charts are given no scores at all (they take the
// report alone); the page's list of answers and their documents come from
// the run's scores and transcripts, given to both alike. (The CSV lists
// every answer, from the scores.)
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
		{"format charts", func(b *bytes.Buffer, r *report.Report, _ Input) error {
			_, err := fmt.Fprintf(b, "%+v", render.FormatPlots(r))
			return err
		}, "the viewer's drift and tokens against document size per format: the report's format points alone"},
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
		{"formats", severalFormats(inputOf(pipelinetest.OracleNoisyRun(t))), "two answer formats: the format charts' points"},
	}) {
		built := aggregate.Build(c.in.Input)
		if formats.Several(c.in.Manifest.Inputs.Formats) && len(built.FormatPoints) == 0 {
			t.Fatalf("%s: a run of several formats has no format points", c.name)
		}
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

// severalFormats is in as a run of two answer formats: every answer given
// again as a JSON Patch one with half its output tokens, so that the
// formats' points differ.
func severalFormats(in Input) Input {
	m := *in.Manifest
	m.Inputs.Formats = []string{formats.Document, formats.JSONPatch}
	in.Manifest = &m
	scores := slices.Clone(in.Scores)
	for _, s := range in.Scores {
		s.Format = formats.JSONPatch
		s.Usage.CompletionTokens /= 2
		scores = append(scores, s)
	}
	in.Scores, in.Answers = scores, nil
	return in
}
