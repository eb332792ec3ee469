package viewer

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestWritersReadOnlyTheJSON: the Markdown, the JUnit file, the CSV and
// the HTML page written from a report read back from its JSON are the
// bytes written from the report Build returned: every number they print
// is in the JSON, none is computed beside it. The Markdown, the JUnit
// file, the CSV and the page's format charts are given no scores at all
// (they take the report alone). The page shows evidence beside the
// numbers (outputs, diagnostics, votes) from the run's scores and
// transcripts: written from the report read back, it is given scores
// whose every number is altered (alteredNumbers), and its transcript
// table, its details and its step plots must not move.
func TestWritersReadOnlyTheJSON(t *testing.T) {
	t.Parallel()
	writers := []struct {
		name   string
		write  func(*bytes.Buffer, *report.Report, Input) error
		reason string
	}{
		{"markdown", func(b *bytes.Buffer, r *report.Report, _ Input) error { return render.WriteMarkdown(b, r) }, "the summary a pull request shows"},
		{"junit", func(b *bytes.Buffer, r *report.Report, _ Input) error { return render.WriteJUnit(b, r) }, "the CI test results"},
		{"csv", func(b *bytes.Buffer, r *report.Report, _ Input) error { return render.WriteCSV(b, r) }, "every answer's numbers, for spreadsheets: the report's answers alone"},
		{"html", func(b *bytes.Buffer, r *report.Report, in Input) error { return WriteHTML(b, r, in) }, "the viewer: its table, details and step plots from the report's answers, given scores with other numbers"},
		{"format charts", func(b *bytes.Buffer, r *report.Report, _ Input) error {
			_, err := fmt.Fprintf(b, "%+v", formatPlots(r))
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
		altered := alteredNumbers(c.in)
		if csvOf(t, aggregate.Build(c.in.Input)) == csvOf(t, aggregate.Build(altered.Input)) {
			t.Fatalf("%s: the altered scores give the same answers: the test would prove nothing", c.name)
		}
		for _, w := range tabletest.Cases(t, writers) {
			var want, got bytes.Buffer
			if err := w.write(&want, built, c.in); err != nil {
				t.Fatal(err)
			}
			if err := w.write(&got, back, altered); err != nil {
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

// alteredNumbers is in with every number of its scores changed that the
// writers print from the report (drift, components, edit compliance,
// lossless, residual, unrequested changes, tokens and whether they are
// estimates, cost, latency, attempts), on cloned scores. What the page
// shows as evidence (the output, the diagnostics, the validation, the
// judges' votes, the status) is left as it is.
func alteredNumbers(in Input) Input {
	scores := slices.Clone(in.Scores)
	for i := range scores {
		s := &scores[i]
		if m := s.Metric; m != nil {
			c := *m
			// A quarter, and a little: the step plots' y-scale would shrink.
			c.Drift, c.EditCompliance, c.Residual, c.Lossless = c.Drift/4+0.001, 1-c.EditCompliance, c.Residual+0.25, !c.Lossless
			c.Components = metric.ComponentsOf(func(j int) float64 { return float64(j+1) / 7 })
			c.UnrequestedChanges = new(1000 + i)
			s.Metric = &c
		}
		s.Usage.PromptTokens, s.Usage.CompletionTokens = s.Usage.PromptTokens*3+11, s.Usage.CompletionTokens+7
		s.Usage.Estimated = !s.Usage.Estimated
		s.Usage.Cost = new(0.125 + float64(i))
		s.LatencyMS, s.Attempts = s.LatencyMS+4321, s.Attempts+2
	}
	in.Scores = scores
	return in
}

// csvOf is the CSV of r.
func csvOf(t *testing.T, r *report.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := render.WriteCSV(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
