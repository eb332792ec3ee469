package render

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
)

// The report's tables are built here, once, from the Report: rows of
// plain-text cells that the viewer renders (the HTML holds every table
// of the Markdown; TestHTMLHasEveryMarkdownTable holds it to that) and
// the Markdown writer renders too (mdWriter.table), so the two never
// compute a cell apart and neither knows what a row means.

// Table is one table of the report, as rows of plain-text cells;
// the viewer renders it (the template escapes every cell), and so does the
// Markdown writer (mdWriter.table). The first column is the model.
type Table struct {
	ID, Title, Note string
	Head            []string
	Rows            []TableRow
	// Sortable is set on long tables: clicking a column sorts by it.
	Sortable bool
	// MDTitle and MDNote are the Markdown section's heading and text (the
	// HTML's Title and Note are the viewer's); MDAlign is the Markdown
	// alignment row.
	MDTitle, MDNote, MDAlign string
	// Empty, when set, is the sentence that stands in place of the table
	// when it has no row, saying why (issue 56: a delegate run in
	// search-replace alone printed an empty drift table).
	Empty string
}

type TableRow struct{ Cells []TableCell }

// TableCell is one cell; Class is "ok" or "bad" for a ✔ or ✘ cell. Free is
// set on text a server chose (a provider's name), which the Markdown
// escapes; every other cell is the harness's own words and numbers.
type TableCell struct {
	Text, Class string
	Free        bool
	// Strong marks a row's total (a rung's "all"), bold in the Markdown.
	Strong bool
	// Prose marks a sentence or a path (a verdict, a list of failures, a
	// report's file), which the viewer lets wrap; numbers and names never
	// do.
	Prose bool
}

// Classes is the cell's HTML class attribute: its mark (Class) and
// "prose" for a Prose cell.
func (c TableCell) Classes() string {
	if c.Prose {
		return strings.TrimSpace(c.Class + " prose")
	}
	return c.Class
}

// Value is the cell's text before its interval ("0.0167" of "0.0167
// [0.0167, 0.3]"); the viewer sets the interval on a line of its own,
// where it does not wrap, so an interval column stays narrow.
func (c TableCell) Value() string {
	v, _ := c.split()
	return v
}

// Interval is the cell's closing interval, "[low, high]", or "".
func (c TableCell) Interval() string {
	_, iv := c.split()
	return iv
}

func (c TableCell) split() (value, interval string) {
	i := strings.Index(c.Text, " [")
	if i < 0 || !strings.HasSuffix(c.Text, "]") {
		return c.Text, ""
	}
	return c.Text[:i], c.Text[i+1:]
}

// sortableRows is the number of rows from which a table is sortable.
const sortableRows = 8

// Add appends a row of plain cells.
func (t *Table) Add(cells ...string) { t.add(cells...) }

func (t *Table) add(cells ...string) {
	row := TableRow{}
	for _, c := range cells {
		row.Cells = append(row.Cells, TableCell{Text: c})
	}
	t.Rows = append(t.Rows, row)
	t.Sortable = len(t.Rows) >= sortableRows
}

// checked is a cell that holds (✔) or not (✘).
func checked(ok bool, text string) TableCell {
	if ok {
		return TableCell{Text: text, Class: "ok"}
	}
	return TableCell{Text: text, Class: "bad"}
}

// NumberTables are the tables of the viewer's "Numbers" section, in the
// Markdown's order: the formats against the whole document (when the run
// has several), drift, faithfulness, calls, models.
func NumberTables(r *report.Report) []Table {
	var out []Table
	if t, ok := FormatsTable(r); ok {
		out = append(out, t)
	}
	for _, t := range []Table{driftTable(r), faithTable(r), callsTable(r), modelsTable(r)} {
		if len(t.Rows) > 0 || t.Empty != "" {
			out = append(out, t)
		}
	}
	return out
}

// noWholeDocument is the drift table's Empty for a run that asked for no
// whole-document answer: the table is §8.5's classes, which are those
// answers; "" for a run that asked for them.
func noWholeDocument(r *report.Report) string {
	if len(r.Formats) == 0 || formats.HasWhole(r.Formats) {
		return ""
	}
	return fmt.Sprintf("No row: this table is the whole-document answers (the classes §8.5 gates), and this run asked only in %s; "+
		"each format's drift is in its section above.", strings.Join(r.Formats, ", "))
}

func driftTable(r *report.Report) Table {
	t := Table{ID: "drift", Title: "Drift (classes B and C)",
		Note:    "Per document, the drift is its first scored repeat's; n is the number of documents. The interval is the exact 95% interval of the median (order statistics); noise is the range of the median across repeats. Components are medians over documents. Lossless, residual, unchanged, unrequested and invalid are the harness's own (see the lossless table).",
		MDTitle: "Drift (classes B and C)",
		MDNote: "Per document, the drift is its first scored repeat's; n is the number of documents. The interval is the exact 95% interval of the median (order statistics); noise is the range of the median across repeats. Components are medians over documents. " +
			"Beside §8.4, the harness's own (`metric/doc.go`): *lossless*, the share of answers equal to the expected document up to member order, declared id, edge order, how self-references are written and aligned new ids; *residual*, the sixth component (median / P95 over documents), not part of the drift; *unchanged*, the share of answers with no unrequested change, and the median / max count of them; *invalid*, answers with no document or one that fails validation.",
		MDAlign: "|---|---|---:|---:|---:|---:|---:|" + strings.Repeat("---:|", metric.NumComponents) + "---:|---:|---:|---:|---:|---:|",
		Head: append(append([]string{"model", "class", "n", "median [95% CI]", "P95", "max", "noise (range)"}, metric.ComponentLabels[:]...),
			"edit applied", "lossless", "residual", "unchanged", "unrequested", "invalid"),
		Empty: noWholeDocument(r)}
	for _, model := range r.Models {
		for _, class := range []string{task.ClassB, task.ClassC} {
			c := r.Results[model].Class(class)
			if c == nil {
				continue
			}
			cells := []string{model, class, strconv.Itoa(c.Tasks), WithInterval(c.MedianDrift, c.MedianInterval),
				unit.NumOr(c.P95Drift, "n/a"), unit.NumOr(c.MaxDrift, "n/a"), NoiseText(c.Noise)}
			for i := range metric.NumComponents {
				if cm := c.ComponentMedians; cm != nil {
					cells = append(cells, unit.Num(cm.List()[i]))
				} else {
					cells = append(cells, "n/a")
				}
			}
			t.add(append(cells, unit.PercentOr(c.EditsApplied), unit.PercentOr(c.Lossless),
				unit.NumOr(c.ResidualMedian, "n/a")+" / "+unit.NumOr(c.ResidualP95, "n/a"), unit.PercentOr(c.Unchanged),
				unit.NumOr(c.UnrequestedMedian, "n/a")+" / "+unit.IntOr(c.UnrequestedMax), strconv.Itoa(c.Invalid))...)
			if r.Repeats >= 2 {
				last := &t.Rows[len(t.Rows)-1]
				last.Cells = append(last.Cells, TableCell{Text: repeatText(c.Repeatability)})
			}
		}
	}
	if r.Repeats >= 2 {
		t.Head = append(t.Head, "lossless in every / some / no repeat")
		t.MDAlign += "---:|"
		t.Note += " Lossless in every / some / no repeat: the tasks lossless in all their repeats (pass^k), in some only (flaky, named in the warnings), in none."
		t.MDNote += " *Lossless in every / some / no repeat*: the tasks lossless in all their repeats (pass^k), in some only (flaky, named in the warnings), in none."
	}
	return t
}

// repeatText is a class's tasks lossless in every, some and no repeat.
func repeatText(rp *report.Repeatability) string {
	if rp == nil {
		return "n/a"
	}
	return fmt.Sprintf("%d / %d / %d", rp.Every, rp.Some, rp.None)
}

func faithTable(r *report.Report) Table {
	t := Table{ID: "faithfulness", Title: "Faithfulness (class A)", MDTitle: "Faithfulness (class A)",
		MDAlign: "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
		Head:    []string{"model", "n", "faithfulness [95% CI]", "noise (range)", "decided", "undecided", "votes faithful / unfaithful / error", "ungrounded votes", "judge agreement", "evidence resolved", "invalid"},
		Empty:   "No row: no class A answer was judged in this run."}
	for _, model := range r.Models {
		c := r.Results[model].ClassA
		if c == nil || c.Judging == nil {
			continue
		}
		j := c.Judging
		t.add(model, strconv.Itoa(c.Tasks), WithInterval(c.Faithfulness, c.FaithfulnessInterval), NoiseText(c.Noise),
			strconv.Itoa(j.Decided), strconv.Itoa(j.Undecided), fmt.Sprintf("%d / %d / %d", j.Votes.Faithful, j.Votes.Unfaithful, j.Votes.Error),
			strconv.Itoa(j.Votes.Ungrounded), unit.PercentOr(j.Agreement), unit.PercentOr(c.EvidenceResolvedMean), strconv.Itoa(c.Invalid))
	}
	return t
}

func modelsTable(r *report.Report) Table {
	t := Table{ID: "models", Title: "Models", MDTitle: "Models", MDAlign: "|---|---|---|---|---:|---:|",
		Note: "Which determinism controls each model's requests carried (§8.7 \"where supported\"), who served the answers, and how many were cut off at the output budget.",
		Head: []string{"model", "temperature", "seed", "providers", "cut off while reasoning", "cut off (output)"}}
	for _, model := range r.Models {
		mr := r.Results[model]
		reasoning, output := cutOffs(mr)
		t.add(model, control(mr, "temperature"), control(mr, "seed"), providerList(mr), strconv.Itoa(reasoning), strconv.Itoa(output))
		t.Rows[len(t.Rows)-1].Cells[3].Free = true // the providers are whatever the server said
	}
	return t
}

// naturalLimits are the limits the natural section shows a class against:
// §8.5's median and P95 and the harness's edits-applied gate.
func naturalLimits(r *report.Report, class string) (median, p95, gate float64) {
	t := r.Thresholds
	if class == task.ClassC {
		return t.ClassCMedianMax, t.ClassCP95Max, t.ClassCEditAppliedMin
	}
	return t.ClassBMedianMax, t.ClassBP95Max, t.ClassBEditAppliedMin
}

// withinLimit says whether v is within limit (at most, or at least), and
// the bound as "≤ 0.05"; measured is false when v is nil.
func withinLimit(v *float64, limit float64, atLeast bool) (ok bool, bound string, measured bool) {
	if v == nil {
		return false, "", false
	}
	if atLeast {
		return *v >= limit, "≥ " + unit.Num(limit), true
	}
	return *v <= limit, "≤ " + unit.Num(limit), true
}

// costText is a known cost in USD, with the calls whose cost is unknown
// counted beside it.
func costText(usd float64, unknown int) string {
	cost := fmt.Sprintf("%.4f", usd)
	if unknown > 0 {
		cost += fmt.Sprintf(" (+%d unknown)", unknown)
	}
	return cost
}

// cachedText is the share of prompt tokens the provider served from its
// cache (the three tasks of a document share their prefix), or n/a.
func cachedText(t report.Tokens) string {
	if t.Prompt == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(t.Cached)/float64(t.Prompt))
}

// control says whether a model's requests carried the determinism
// control p (temperature, seed).
func control(mr *report.ModelResult, p string) string {
	switch d := mr.Determinism; {
	case d == nil:
		return "not recorded"
	case slices.Contains(d.Lacking, p):
		return "not supported, not sent"
	case d.Source == transcript.DeterminismUnchecked:
		return "sent, unchecked"
	}
	return "sent"
}

// providerList lists who served a model's answers, with counts; the
// names are the server's words (a Free cell, escaped by the Markdown).
func providerList(mr *report.ModelResult) string {
	var providers []string
	for _, p := range slices.Sorted(maps.Keys(mr.Providers)) {
		providers = append(providers, fmt.Sprintf("%s (%d)", p, mr.Providers[p]))
	}
	return strings.Join(providers, ", ")
}

// cutOffs counts a model's answers cut off at the output budget while
// reasoning and in the answer itself.
func cutOffs(mr *report.ModelResult) (reasoning, output int) {
	for _, class := range report.Classes {
		if c := mr.Class(class); c != nil {
			reasoning += c.CutOffReasoning
			output += c.CutOffOutput
		}
	}
	return reasoning, output
}

// firstExceedText lists, by step ("never" last), how many chains first
// exceed their class's P95 threshold there.
func firstExceedText(counts map[string]int) string {
	var parts []string
	for _, k := range slices.SortedFunc(maps.Keys(counts), func(a, b string) int {
		ai, aerr := strconv.Atoi(a)
		bi, berr := strconv.Atoi(b)
		if aerr != nil || berr != nil {
			return cmp.Or(cmp.Compare(btoi(aerr != nil), btoi(berr != nil)), cmp.Compare(a, b)) // "never" after the numbers
		}
		return cmp.Compare(ai, bi)
	}) {
		parts = append(parts, fmt.Sprintf("%s: %d", k, counts[k]))
	}
	return strings.Join(parts, ", ")
}

// formatsWhole reports whether a format answers with the whole document.
func formatsWhole(name string) bool { return formats.Of(name).Whole }
