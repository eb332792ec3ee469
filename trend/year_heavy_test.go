//go:build !race

package trend_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/trend"
)

// TestYearFitsAScreen: a trend of 365 gating nights, whose failures
// change twice, writes Markdown under 40 KB (issue 55: 525 KB, a row and
// a footnote of ten failures per night): a row per week, and each
// distinct set of failures once.
func TestYearFitsAScreen(t *testing.T) {
	rep := offlineReport(t, "gating")
	if len(rep.Failures) < 2 {
		t.Fatalf("the offline gating report has %d failures; the test needs two", len(rep.Failures))
	}
	names := writeYear(t, t.TempDir(), rep, 365, func(i int, night *report.Report) {
		if i >= 100 && i < 200 {
			night.Failures = night.Failures[1:]
		}
	})
	tr, err := trend.OfFiles(names)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := tr.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if md.Len() > 40<<10 {
		t.Errorf("the Markdown of 365 nights is %d bytes; want under 40 KB", md.Len())
	}
	if weeks := len(regexp.MustCompile("(?m)^\\| `\\d{4}-W\\d\\d` \\|").FindAllString(md.String(), -1)); weeks < 52 || weeks > 54 {
		t.Errorf("the Markdown has %d week rows for 365 nights; want one per ISO week", weeks)
	}
	for _, want := range []string{"\n- **F1**, ", "(reports 1–100, 201–365)", "\n- **F2**, ", "(reports 101–200)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks %q: the failure sets are not listed once each with their nights", want)
		}
	}
	if strings.Contains(md.String(), "**F3**") {
		t.Error("the Markdown lists a third failure set; there are two")
	}
	t.Logf("365 nights: %d bytes of Markdown", md.Len())
}

// BenchmarkTrendYear is `harness trend` over 365 nights of an offline
// run's report (reading them from disk, the trend, its Markdown): the
// gating suite's, and the delegate suite's, whose report holds thousands
// of per-answer records. md-KB is the Markdown's size.
func BenchmarkTrendYear(b *testing.B) {
	for _, suite := range []string{"gating", "delegate"} {
		b.Run(suite, func(b *testing.B) {
			names := writeYear(b, b.TempDir(), offlineReport(b, suite), 365, nil)
			var md bytes.Buffer
			for b.Loop() {
				md.Reset()
				tr, err := trend.OfFiles(names)
				if err != nil {
					b.Fatal(err)
				}
				if err := tr.WriteMarkdown(&md); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(md.Len())/1024, "md-KB")
		})
	}
}
