package render

import (
	"encoding/csv"
	"io"
	"strconv"

	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
)

// WriteCSV writes the per-transcript table of the viewer as CSV
// (reports/<run-id>.csv), one row per planned (model, task, repeat) of
// r.Answers, in its order, for spreadsheets and scripts: every cell is
// read from the report. Columns: model, task, class, document, repeat,
// status, drift, the drift components (as metric.ComponentLabels),
// edit_applied (the edit compliance, B and C), valid, faithful (A),
// prompt_tokens, completion_tokens, cost_usd (empty when unknown),
// latency_ms, attempts and transcript (its path below the run directory).
// A value that does not apply is empty. A report without answers (a
// schema 4 report written before them) gives the header alone.
func WriteCSV(w io.Writer, r *report.Report) error {
	cw := csv.NewWriter(w)
	head := []string{"model", "task", "class", "document", "repeat", "status", "drift"}
	head = append(head, metric.ComponentLabels[:]...)
	head = append(head, "edit_applied", "valid", "faithful", "prompt_tokens", "completion_tokens", "cost_usd", "latency_ms", "attempts", "transcript")
	if err := cw.Write(head); err != nil {
		return err
	}
	for i := range r.Answers {
		if err := cw.Write(csvRow(&r.Answers[i])); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRow(a *report.Answer) []string {
	// The text cells are names a manifest or a task set chose: neutralise
	// formulas (a model named =HYPERLINK(…) was live in a spreadsheet).
	row := []string{safetext.CSVCell(a.Model), safetext.CSVCell(a.TaskID), a.Class, safetext.CSVCell(a.Document), strconv.Itoa(a.Repeat), a.Status}
	comps := make([]string, len(metric.ComponentLabels))
	if a.Components != nil {
		for i, x := range a.Components {
			if i < len(comps) {
				comps[i] = csvNum(x)
			}
		}
	}
	faithful := ""
	switch a.Judged {
	case report.JudgedFaithful:
		faithful = "true"
	case report.JudgedUnfaithful:
		faithful = "false"
	}
	valid := ""
	if a.Valid != nil {
		valid = strconv.FormatBool(*a.Valid)
	}
	row = append(row, csvNumOr(a.Drift))
	row = append(row, comps...)
	return append(row, csvNumOr(a.EditCompliance), valid, faithful,
		strconv.FormatInt(a.PromptTokens, 10), strconv.FormatInt(a.CompletionTokens, 10), csvNumOr(a.CostUSD),
		strconv.FormatInt(a.LatencyMS, 10), strconv.Itoa(a.Attempts), safetext.CSVCell(a.Transcript))
}

// csvNum is a number in Go's shortest exact form, so that a script reads
// the value the report computed with.
func csvNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// csvNumOr is csvNum of *v, or empty when v is nil.
func csvNumOr(v *float64) string {
	if v == nil {
		return ""
	}
	return csvNum(*v)
}
