package render

import (
	"bufio"
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
)

// stepRow is a per-step row of model m in format f at step s whose
// answers were lossless in the share lossless, with missing answers.
func stepRow(m, f string, s int, lossless float64, missing int) report.Row {
	return report.Row{Key: report.Key{Model: m, Format: f, Step: s}, Labels: []string{strconv.Itoa(s), "forward"},
		Summary: report.Summary{Scored: 3, Lossless: &lossless, Missing: missing}}
}

// TestLostSteps: the Markdown's per-step table of a delegation keeps the
// steps where something was lost and names the others (issue 56: a row
// per model and step, 60 for three models); another section's table is
// left whole.
func TestLostSteps(t *testing.T) {
	t.Parallel()
	rows := []report.Row{stepRow("a", "document", 1, 1, 0), stepRow("a", "document", 2, 1, 0), stepRow("a", "document", 3, 1, 0),
		stepRow("a", "document", 5, 1, 0), stepRow("b", "document", 1, 1, 0), stepRow("b", "document", 2, 2.0/3, 0), stepRow("b", "document", 3, 1, 1)}
	deleg := report.Section{Heads: []string{"step", "edit"}, Rows: rows, Delegation: &report.Delegation{}}
	relay := deleg
	relay.Delegation = nil
	for _, tt := range tabletest.Cases(t, []struct {
		name    string
		sec     report.Section
		kept    []string
		noteHas string
		reason  string
	}{
		{"delegation", deleg, []string{"b 2", "b 3"}, "every answer was lossless at `a` (document) steps 1–3, 5; `b` (document) step 1",
			"a step not every answer of which was lossless, or one with an answer missing, stays; the rest is named by model, format and step"},
		{"relay", relay, []string{"a 1", "a 2", "a 3", "a 5", "b 1", "b 2", "b 3"}, "",
			"only a delegation's table is cut"},
	}) {
		got := LostSteps(tt.sec, SectionTable(&report.Report{}, tt.sec, 0))
		var kept []string
		for _, r := range got.Rows {
			kept = append(kept, r.Cells[0].Text+" "+r.Cells[1].Text)
		}
		if !slices.Equal(kept, tt.kept) {
			t.Errorf("%s: rows %v, want %v (%s)", tt.name, kept, tt.kept, tt.reason)
		}
		if tt.noteHas != "" && !strings.Contains(got.MDNote, tt.noteHas) {
			t.Errorf("%s: the note does not say %q (%s):\n%s", tt.name, tt.noteHas, tt.reason, got.MDNote)
		}
	}
}

// TestDriftTableSaysWhyItIsEmpty: a run that asked for no whole-document
// answer has no row in the drift table, and says why in its place (issue
// 56: a delegate run in search-replace printed the table's head alone); a
// run that asked for them keeps the table.
func TestDriftTableSaysWhyItIsEmpty(t *testing.T) {
	t.Parallel()
	for _, tt := range tabletest.Cases(t, []struct {
		name    string
		formats []string
		want    string
		reason  string
	}{
		{"search-replace alone", []string{"search-replace"}, "No row: this table is the whole-document answers (the classes §8.5 gates), and this run asked only in search-replace",
			"the run's answers are all in a format the classes do not count"},
		{"with document", []string{"document", "search-replace"}, "| model | class | n |", "whole-document answers were asked: the table stands"},
		{"no formats", nil, "| model | class | n |", "a run of whole documents alone records no formats"},
	}) {
		var b bytes.Buffer
		bw := bufio.NewWriter(&b)
		mdWriter{bw}.table(driftTable(&report.Report{Formats: tt.formats}))
		bw.Flush()
		if !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s: the drift table's Markdown lacks %q (%s):\n%s", tt.name, tt.want, tt.reason, b.String())
		}
	}
}

// TestDelegationLabelsEverySurface: in a delegation of one surface, the
// whole document, every table names it (issue 56: the RS@k and loss rows
// said the model alone where another run's said "(search-replace)").
func TestDelegationLabelsEverySurface(t *testing.T) {
	t.Parallel()
	lossless := 1.0
	sec := report.Section{Heads: []string{"step", "edit"},
		Rows: []report.Row{{Key: report.Key{Model: "m", Format: "document", Step: 1}, Labels: []string{"1", "forward"}, Summary: report.Summary{Scored: 1, Lossless: &lossless}}},
		Delegation: &report.Delegation{Ks: []int{2}, Horizon: 2,
			Surfaces: []report.DelegateSurface{{Model: "m", Format: "document", RS: []report.RSAt{{K: 2, Mean: 1}}, Loss: &report.Loss{}}},
			Critical: []report.CriticalStep{{Model: "m", Format: "document", Chain: "01", Step: 2, Loss: 0.5}}}}
	for _, tab := range DelegationTables(sec, 0) {
		for _, r := range tab.Rows {
			if r.Cells[0].Text != "m (document)" {
				t.Errorf("%s: a row names %q, want m (document)", tab.Title, r.Cells[0].Text)
			}
		}
	}
	if tab := SectionTable(&report.Report{}, sec, 0); !slices.Contains(tab.Head, "format") || !slices.ContainsFunc(tab.Rows[0].Cells, func(c TableCell) bool { return c.Text == "document" }) {
		t.Errorf("the per-step table of one surface has no format column: %v", tab.Head)
	}
}

// TestTokenSavingWithoutWholeDocument: an answer format's tokens and bytes
// are set against the expected documents' (Row.WholeTokens, WholeBytes)
// when the run has no whole-document answer to compare with (issue 56:
// n/a in a search-replace run), the tokens marked as estimated; a row of
// whole documents has nothing to be compared with.
func TestTokenSavingWithoutWholeDocument(t *testing.T) {
	t.Parallel()
	sec := report.Section{Formats: true, Heads: []string{"step"}, Rows: []report.Row{
		{Key: report.Key{Model: "m", Format: "search-replace", Step: 1}, Labels: []string{"1"}, WholeBytes: 9000, WholeTokens: 3000,
			Summary: report.Summary{Scored: 3, Tokens: report.Tokens{Completion: 300}, AnswerBytes: 900}},
		{Key: report.Key{Model: "m", Format: "document", Step: 1}, Labels: []string{"1"}, Summary: report.Summary{Scored: 3, Tokens: report.Tokens{Completion: 0}, AnswerBytes: 0}},
	}}
	tab := SectionTable(&report.Report{}, sec, 0)
	tokens, bytesCol := slices.Index(tab.Head, "tokens vs whole document"), slices.Index(tab.Head, "vs whole document")
	for i, want := range [][2]string{{"≈10.00%", "10.00%"}, {"n/a", "n/a"}} {
		if got := [2]string{tab.Rows[i].Cells[tokens].Text, tab.Rows[i].Cells[bytesCol].Text}; got != want {
			t.Errorf("row %d (%s): tokens and bytes vs whole document %v, want %v", i, sec.Rows[i].Format, got, want)
		}
	}
}
