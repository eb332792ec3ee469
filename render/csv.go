package render

import (
	"encoding/csv"
	"io"
	"strconv"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
)

// WriteCSV writes the per-transcript table of the viewer as CSV
// (reports/<run-id>.csv), one row per planned (model, task, repeat) in the
// order of in.Scores, for spreadsheets and scripts. Columns: model, task,
// class, document, repeat, status, drift, the drift components (as
// metric.ComponentLabels), edit_applied (the edit compliance, B and C),
// valid, faithful (A), prompt_tokens, completion_tokens, cost_usd (empty
// when unknown), latency_ms, attempts and transcript (its path below the
// run directory). A value that does not apply is empty.
func WriteCSV(w io.Writer, in aggregate.Input) error {
	cw := csv.NewWriter(w)
	head := []string{"model", "task", "class", "document", "repeat", "status", "drift"}
	head = append(head, metric.ComponentLabels[:]...)
	head = append(head, "edit_applied", "valid", "faithful", "prompt_tokens", "completion_tokens", "cost_usd", "latency_ms", "attempts", "transcript")
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range in.Scores {
		if err := cw.Write(csvRow(s)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvRow(s scoring.Score) []string {
	// The text cells are names a manifest or a task set chose: neutralise
	// formulas (a model named =HYPERLINK(…) was live in a spreadsheet).
	row := []string{safetext.CSVCell(s.Model), safetext.CSVCell(s.TaskID), s.Class, safetext.CSVCell(s.Document), strconv.Itoa(s.Repeat), s.Status}
	drift, edit, valid, faithful := "", "", "", ""
	comps := make([]string, len(metric.ComponentLabels))
	if m := s.Metric; m != nil {
		drift, edit, valid = csvNum(m.Drift), csvNum(m.EditCompliance), strconv.FormatBool(m.Valid)
		for i, x := range m.Components.List() {
			if i < len(comps) {
				comps[i] = csvNum(x)
			}
		}
	}
	if a := s.Answer; a != nil {
		valid = strconv.FormatBool(a.Valid)
	}
	if s.Judge != nil {
		if f, decided := aggregate.Decision(s.Judge); decided {
			faithful = strconv.FormatBool(f)
		}
	}
	cost := ""
	if s.Usage.Cost != nil {
		cost = csvNum(*s.Usage.Cost)
	}
	row = append(row, drift)
	row = append(row, comps...)
	return append(row, edit, valid, faithful,
		strconv.FormatInt(s.Usage.PromptTokens, 10), strconv.FormatInt(s.Usage.CompletionTokens, 10), cost,
		strconv.FormatInt(s.LatencyMS, 10), strconv.Itoa(s.Attempts), safetext.CSVCell(s.Transcript))
}

// csvNum is a number in Go's shortest exact form, so that a script reads
// the value the report computed with.
func csvNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
