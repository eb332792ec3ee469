package render

import (
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/report"
)

// TestTokensVsDocument: a section of several formats gives each row's
// mean output tokens as a share of the whole-document answers' of the same
// model and key, beside the share of bytes.
func TestTokensVsDocument(t *testing.T) {
	row := func(format string, scored int, tokens, bytes int64) report.Row {
		r := report.Row{Key: report.Key{Model: "m", Part: "gating", Class: "B", Format: format}, Labels: []string{"B"}}
		r.Scored, r.Tokens.Completion, r.AnswerBytes = scored, tokens, bytes
		return r
	}
	sec := report.Section{Part: "gating", Heads: []string{"class"}, Formats: true, Rows: []report.Row{
		row("document", 4, 40000, 120000), row("search-replace", 2, 600, 1200)}}
	tab := SectionTable(&report.Report{}, sec, 0)
	col := slices.Index(tab.Head, "tokens vs whole document")
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
