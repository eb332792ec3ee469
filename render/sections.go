package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/unit"
)

// SectionTable is a section's rows as a table: the model, the key's
// columns (and the format, in a run of several), then the one summary's
// columns. The writers print it without knowing what a row means.
func SectionTable(r *report.Report, sec report.Section, index int) Table {
	t := Table{ID: fmt.Sprintf("section-%d", index), MDTitle: sec.Title, MDNote: sec.Note + intervalNote, Note: PlainNote(sec.Note) + intervalNote}
	head := append([]string{"model"}, sec.Heads...)
	labelled := Labelled(sec)
	if labelled {
		head = append(head, "format")
	}
	sized := sec.Chart == suites.ChartSize
	if sized {
		head = append(head, "document bytes")
	}
	head = append(head, "n", "median drift [interval]", "P95 drift", "edits applied", "lossless", "unchanged", "invalid")
	if sec.Formats {
		head = append(head, "failed to apply")
	}
	head = append(head, "cut off", "not run", "API errors", "missing", "output tokens")
	if sec.Formats {
		head = append(head, "tokens vs whole document", "answer bytes", "vs whole document")
		t.Note += wholeNote
		t.MDNote += wholeNote
	}
	head = append(head, "cost (USD)")
	feedback := slices.ContainsFunc(sec.Rows, func(r report.Row) bool { return r.WellFormedFirst != nil })
	if feedback {
		head = append(head, "well-formed 1st try", "applied 1st try", "lossless 1st try", "well-formed after feedback", "feedback rounds")
		t.Note += feedbackNote
		t.MDNote += feedbackNote
	}
	if sec.Limits {
		head = append(head, "median within limit", "P95 within limit", "edits applied within gate")
	}
	t.Head = head
	t.MDAlign = "|---|" + strings.Repeat("---|", len(sec.Heads)+btoi(labelled)) + strings.Repeat("---:|", len(head)-1-len(sec.Heads)-btoi(labelled))
	for _, row := range sec.Rows {
		cells := append([]string{row.Model}, row.Labels...)
		if labelled {
			cells = append(cells, row.Format)
		}
		if sized {
			cells = append(cells, strconv.Itoa(row.DocumentBytes))
		}
		s := row.Summary
		cells = append(cells, strconv.Itoa(s.Scored), WithIntervalShort(s.MedianDrift, s.MedianInterval), unit.NumOr(s.P95Drift, "n/a"),
			unit.PercentOr(s.EditsApplied), unit.PercentOr(s.Lossless), unit.PercentOr(s.Unchanged), strconv.Itoa(s.Invalid))
		if sec.Formats {
			cells = append(cells, strconv.Itoa(s.FailedToApply))
		}
		cells = append(cells, strconv.Itoa(s.CutOff), strconv.Itoa(s.NotRun), strconv.Itoa(s.APIErrors), strconv.Itoa(s.Missing),
			unit.TokenText(s.Tokens.Completion, s.Tokens.Estimated))
		if sec.Formats {
			cells = append(cells, vsWhole(sec, row, func(s report.Summary) float64 { return float64(s.Tokens.Completion) }, row.WholeTokens, "≈"),
				strconv.FormatInt(s.AnswerBytes, 10), vsWhole(sec, row, func(s report.Summary) float64 { return float64(s.AnswerBytes) }, row.WholeBytes, ""))
		}
		cells = append(cells, costText(s.Cost.USD, s.Cost.Unknown))
		if feedback {
			cells = append(cells, unit.PercentOr(s.WellFormedFirst), unit.PercentOr(s.AppliedFirst), unit.PercentOr(s.LosslessFirst),
				unit.PercentOr(s.WellFormedAfter), strconv.Itoa(s.FeedbackRounds))
		}
		t.add(cells...)
		if row.Total {
			t.Rows[len(t.Rows)-1].Cells[len(sec.Heads)].Strong = true
		}
		if sec.Limits {
			last := &t.Rows[len(t.Rows)-1]
			median, p95, gate := naturalLimits(r, row.Class)
			last.Cells = append(last.Cells, Within(s.MedianDrift, median, false), Within(s.P95Drift, p95, false), Within(s.EditsApplied, gate, true))
		}
	}
	return t
}

// Within is a cell that says whether v is within limit (at most, or at
// least), as information.
func Within(v *float64, limit float64, atLeast bool) TableCell {
	ok, bound, measured := withinLimit(v, limit, atLeast)
	if !measured {
		return TableCell{Text: "n/a"}
	}
	return checked(ok, bound)
}

// vsWhole is a row's mean of value per scored answer (answer bytes, or
// output tokens: every feedback round's included, what was paid) as a
// share of the whole-document answers' of the same model and key; in a
// run without them, value as a share of whole, what the row's answers
// would have been as whole documents (report.Row.WholeBytes, WholeTokens),
// marked approx when whole is an estimate; "n/a" without either.
func vsWhole(sec report.Section, row report.Row, value func(report.Summary) float64, whole int64, approx string) string {
	for _, d := range sec.Rows {
		k := d.Key
		k.Format = row.Format
		if k == row.Key && d.Format != row.Format && formatsWhole(d.Format) && value(d.Summary) > 0 && row.Scored > 0 {
			share := value(row.Summary) / float64(row.Scored) / (value(d.Summary) / float64(d.Scored))
			return strconv.FormatFloat(100*share, 'f', 2, 64) + "%"
		}
	}
	if whole > 0 && !formatsWhole(row.Format) {
		return approx + strconv.FormatFloat(100*value(row.Summary)/float64(whole), 'f', 2, 64) + "%"
	}
	return "n/a"
}

// wholeNote says what a section's columns against the whole document
// are.
const wholeNote = " Tokens and bytes vs whole document: an answer format's output tokens and answer bytes per scored answer as a share of the whole-document answers' of the same model and row; in a run without those, of what its answers would have been as whole documents, the expected documents (bytes exact; tokens ≈, the harness's estimate of three bytes a token)."

// intervalNote says what a section's intervals are.
const intervalNote = " The median's interval is exact (order statistics): a bare [low, high] is a 95% interval, one with a percentage all this many documents support. A P95 of fewer than 59 documents has no 95% interval; the report's JSON gives its one-sided ends (p95_interval)."

// feedbackNote explains the feedback columns of a section's table.
const feedbackNote = " With feedback rounds (--feedback), an answer that did not parse, apply or validate was asked again in the same conversation, told only its mechanical failure; drift, lossless and edits applied are the last round's answer's. Well-formed: parsed in its format, applied, and a valid .bend document. The 1st-try columns are the first answers' alone (the one-shot numbers); feedback rounds counts the rounds asked."

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// PlainNote is a Markdown note as the viewer's plain text.
func PlainNote(s string) string { return strings.NewReplacer("`", "", "*", "").Replace(s) }

// BreakLines say, per model (and format), how many chains first exceed
// their class's P95 threshold at each step.
func BreakLines(sec report.Section) []string {
	var out []string
	for _, b := range sec.Breaks {
		who := b.Model
		if Labelled(sec) {
			who += " (" + b.Format + ")"
		}
		out = append(out, who+": "+firstExceedText(b.FirstExceed))
	}
	return out
}

// callsTable is every answer of the run per model, suite part, class and
// format: what it planned, what it got, and what it cost.
func callsTable(r *report.Report) Table {
	parts, several := map[string]bool{}, len(r.Formats) > 1
	for _, c := range r.Calls {
		parts[c.Part] = true
	}
	t := Table{ID: "calls", Title: "Calls: tokens, cost and latency", MDTitle: "Calls",
		Note: "Every answer the run planned, in every suite part and answer format. Cached: the share of prompt tokens the provider served from its cache. Cost: the known cost; calls whose cost was not reported are counted beside it. ≈: estimated from the text's length (offline models count no tokens)."}
	t.Head = []string{"model"}
	if len(parts) > 1 {
		t.Head = append(t.Head, "part")
	}
	t.Head = append(t.Head, "class")
	if several {
		t.Head = append(t.Head, "format")
	}
	keys := len(t.Head) - 1
	t.Head = append(t.Head, "planned", "scored", "API errors", "missing", "prompt tokens", "cached", "completion tokens", "cost (USD)", "latency p50 / p95 / max (ms)")
	t.MDAlign = "|---|" + strings.Repeat("---|", keys) + strings.Repeat("---:|", len(t.Head)-1-keys)
	for _, c := range r.Calls {
		cells := []string{c.Model}
		if len(parts) > 1 {
			cells = append(cells, c.Part)
		}
		cells = append(cells, c.Class)
		if several {
			cells = append(cells, c.Format)
		}
		s := c.Summary
		t.add(append(cells, strconv.Itoa(s.Planned), strconv.Itoa(s.Scored), strconv.Itoa(s.APIErrors), strconv.Itoa(s.Missing),
			unit.TokenText(s.Tokens.Prompt, s.Tokens.Estimated), cachedText(s.Tokens), unit.TokenText(s.Tokens.Completion, s.Tokens.Estimated),
			costText(s.Cost.USD, s.Cost.Unknown), fmt.Sprintf("%d / %d / %d", s.LatencyMS.P50, s.LatencyMS.P95, s.LatencyMS.Max))...)
	}
	return t
}
