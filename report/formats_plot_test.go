package report

import (
	"slices"
	"testing"
)

// TestFormatPlotLegendDistinct: with the four answer formats, each series
// has its own mark (shape or colour), so the legend tells them apart.
func TestFormatPlotLegendDistinct(t *testing.T) {
	names := []string{"document", "json-patch", "bend-ops", "search-replace"}
	var ps []formatPoint
	for _, f := range names {
		ps = append(ps, formatPoint{format: f, bytes: 1000, drift: 0.1, tokens: 10})
	}
	c := formatPlot("m", "drift", ps, names, 1, 10, 1)
	seen := map[string]string{}
	for _, l := range c.Legend {
		k := l.Kind + " " + l.Class
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share the mark %s", other, l.Label, k)
		}
		seen[k] = l.Label
	}
}

// TestTokensVsDocument: the format table gives each format's mean output
// tokens as a share of the whole-document answers' of the same model and
// suite part, beside the share of bytes.
func TestTokensVsDocument(t *testing.T) {
	r := &Report{Formats: []FormatRow{
		{Model: "m", Suite: "gating", Format: "document", Scored: 4, OutputTokens: 40000, AnswerBytes: 120000},
		{Model: "m", Suite: "gating", Format: "search-replace", Scored: 2, OutputTokens: 600, AnswerBytes: 1200},
	}}
	tab := formatTable(r)
	col := slices.Index(tab.Head, "tokens vs document")
	if col < 0 {
		t.Fatalf("no tokens column in %v", tab.Head)
	}
	if got := tab.Rows[1].Cells[col].Text; got != "3.00%" {
		t.Errorf("search-replace's tokens vs document %s, want 3.00%% (300 tokens an answer against 10000)", got)
	}
	if got := tab.Rows[1].Cells[col+2].Text; got != "2.00%" {
		t.Errorf("search-replace's bytes vs document %s, want 2.00%%", got)
	}
}
