package render

import (
	"fmt"
	"strconv"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
)

// FormatsTable is the report's formats against the whole document
// (report.FormatsCompared), one row per model, group and format; false
// for a report without them.
func FormatsTable(r *report.Report) (Table, bool) {
	fc := r.FormatsCompared
	if fc == nil || len(fc.Rows) == 0 {
		return Table{}, false
	}
	note := fc.Note + fmt.Sprintf(" %d %s in the family.", fc.Tests, unit.Plural(fc.Tests, "test", "tests"))
	t := Table{ID: "formats-compared", Title: "Which format loses least: each against the whole document", MDTitle: "Which format loses least: each against the whole document",
		Note: PlainNote(note), MDNote: note, MDAlign: "|---|---|---|---|---:|---:|---:|---|---:|---:|---:|---|---|",
		Head: []string{"model", "part", "tasks", "format", "median drift document → format", "tasks (differing)", "p (adjusted)", "drift",
			"lossless document → format", "gained / lost", "p (adjusted)", "lossless", "unresolved"}}
	for _, x := range fc.Rows {
		// Part, group, format and resolution are read from the report as
		// written (Free: the Markdown escapes them).
		t.Rows = append(t.Rows, TableRow{Cells: []TableCell{{Text: x.Model}, {Text: x.Part, Free: true}, {Text: x.Group, Free: true}, {Text: x.Format, Free: true},
			{Text: unit.NumOr(x.DocumentDrift, "n/a") + " → " + unit.NumOr(x.FormatDrift, "n/a")},
			{Text: fmt.Sprintf("%d (%d)", x.Pairs, x.N)}, {Text: pText(x.P, x.PAdjusted)}, changeCell(x.Change),
			{Text: unit.PercentOr(x.DocumentLossless) + " → " + unit.PercentOr(x.FormatLossless)},
			{Text: strconv.Itoa(x.Gained) + " / " + strconv.Itoa(x.Lost)}, {Text: pText(x.LosslessP, x.LosslessPAdjusted)}, changeCell(x.LosslessChange),
			{Text: x.Resolution, Prose: true, Free: true}}})
	}
	t.Sortable = len(t.Rows) >= sortableRows
	return t, true
}

// pText is a test's p-value with its adjusted one, "–" without a test.
func pText(p, adjusted *float64) string {
	if p == nil {
		return "–"
	}
	if adjusted == nil {
		return fmt.Sprintf("%.3g", *p)
	}
	return fmt.Sprintf("%.3g (%.3g)", *p, *adjusted)
}

// changeCell is a change marked as the tables mark a threshold: better
// ✔, worse ✘, the rest as it is ("~" not significant, "=" no difference).
func changeCell(change string) TableCell {
	switch change {
	case "better":
		return TableCell{Text: "better", Class: "ok"}
	case "worse":
		return TableCell{Text: "worse", Class: "bad"}
	}
	return TableCell{Text: change}
}
