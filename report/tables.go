package report

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// The report's tables are built here, once, from the Report: rows of
// plain-text cells that the viewer renders (the HTML holds every table
// of the Markdown; TestHTMLHasEveryMarkdownTable holds it to that) and
// the Markdown writer renders too (mdWriter.table), so the two never
// compute a cell apart and neither knows what a row means.

// reportTable is one table of the report, as rows of plain-text cells;
// the viewer renders it (the template escapes every cell), and so does the
// Markdown writer (mdWriter.table). The first column is the model.
type reportTable struct {
	ID, Title, Note string
	Head            []string
	Rows            []tableRow
	// Sortable is set on long tables: clicking a column sorts by it.
	Sortable bool
	// MDTitle and MDNote are the Markdown section's heading and text (the
	// HTML's Title and Note are the viewer's); MDAlign is the Markdown
	// alignment row.
	MDTitle, MDNote, MDAlign string
}

type tableRow struct{ Cells []tableCell }

// tableCell is one cell; Class is "ok" or "bad" for a ✔ or ✘ cell. Free is
// set on text a server chose (a provider's name), which the Markdown
// escapes; every other cell is the harness's own words and numbers.
type tableCell struct {
	Text, Class string
	Free        bool
	// Strong marks a row's total (a rung's "all"), bold in the Markdown.
	Strong bool
}

// sortableRows is the number of rows from which a table is sortable.
const sortableRows = 8

func (t *reportTable) add(cells ...string) {
	row := tableRow{}
	for _, c := range cells {
		row.Cells = append(row.Cells, tableCell{Text: c})
	}
	t.Rows = append(t.Rows, row)
	t.Sortable = len(t.Rows) >= sortableRows
}

// checked is a cell that holds (✔) or not (✘).
func checked(ok bool, text string) tableCell {
	if ok {
		return tableCell{Text: text, Class: "ok"}
	}
	return tableCell{Text: text, Class: "bad"}
}

// numberTables are the tables of the viewer's "Numbers" section, in the
// Markdown's order: drift, faithfulness, calls, models.
func numberTables(r *Report) []reportTable {
	var out []reportTable
	for _, t := range []reportTable{driftTable(r), faithTable(r), callsTable(r), modelsTable(r)} {
		if len(t.Rows) > 0 {
			out = append(out, t)
		}
	}
	return out
}

func driftTable(r *Report) reportTable {
	t := reportTable{ID: "drift", Title: "Drift (classes B and C)",
		Note:    "Per document, the drift is its mean over repeats; n is the number of documents. The interval is the bootstrap 95% interval of the median; noise is the range of the median across repeats. Components are medians over documents. Lossless, residual, unchanged, unrequested and invalid are the harness's own (see the lossless table).",
		MDTitle: "Drift (classes B and C)",
		MDNote: "Per document, the drift is its mean over repeats; n is the number of documents. The interval is the bootstrap 95% interval of the median; noise is the range of the median across repeats. Components are medians over documents. " +
			"Beside §8.4, the harness's own (`metric/doc.go`): *lossless*, the share of answers equal to the expected document up to member order, declared id, edge order, how self-references are written and aligned new ids; *residual*, the sixth component (median / P95 over documents), not part of the drift; *unchanged*, the share of answers with no unrequested change, and the median / max count of them; *invalid*, answers with no document or one that fails validation.",
		MDAlign: "|---|---|---:|---:|---:|---:|---:|" + strings.Repeat("---:|", metric.NumComponents) + "---:|---:|---:|---:|---:|---:|",
		Head: append(append([]string{"model", "class", "n", "median [95% CI]", "P95", "max", "noise (range)"}, metric.ComponentLabels[:]...),
			"edit applied", "lossless", "residual", "unchanged", "unrequested", "invalid")}
	for _, model := range r.Models {
		for _, class := range []string{task.ClassB, task.ClassC} {
			c := r.Results[model].Class(class)
			if c == nil {
				continue
			}
			cells := []string{model, class, strconv.Itoa(c.Documents), withInterval(c.MedianDrift, c.MedianInterval),
				numOr(c.P95Drift, "n/a"), numOr(c.MaxDrift, "n/a"), noiseText(c.Noise)}
			for i := range metric.NumComponents {
				if cm := c.ComponentMedians; cm != nil {
					cells = append(cells, num(cm.List()[i]))
				} else {
					cells = append(cells, "n/a")
				}
			}
			t.add(append(cells, percentOr(c.EditComplianceRate), percentOr(c.LosslessRate),
				numOr(c.ResidualMedian, "n/a")+" / "+numOr(c.ResidualP95, "n/a"), percentOr(c.UnchangedRate),
				numOr(c.UnrequestedMedian, "n/a")+" / "+intOr(c.UnrequestedMax), strconv.Itoa(c.Invalid))...)
		}
	}
	return t
}

func faithTable(r *Report) reportTable {
	t := reportTable{ID: "faithfulness", Title: "Faithfulness (class A)", MDTitle: "Faithfulness (class A)",
		MDAlign: "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
		Head:    []string{"model", "n", "faithfulness [95% CI]", "noise (range)", "decided", "undecided", "votes faithful / unfaithful / error", "ungrounded votes", "judge agreement", "evidence resolved", "invalid"}}
	for _, model := range r.Models {
		c := r.Results[model].ClassA
		if c == nil || c.Judging == nil {
			continue
		}
		j := c.Judging
		t.add(model, strconv.Itoa(c.Documents), withInterval(c.Faithfulness, c.FaithfulnessInterval), noiseText(c.Noise),
			strconv.Itoa(j.Decided), strconv.Itoa(j.Undecided), fmt.Sprintf("%d / %d / %d", j.Votes.Faithful, j.Votes.Unfaithful, j.Votes.Error),
			strconv.Itoa(j.Votes.Ungrounded), percentOr(j.Agreement), percentOr(c.EvidenceResolvedMean), strconv.Itoa(c.Invalid))
	}
	return t
}

func callsTable(r *Report) reportTable {
	t := reportTable{ID: "calls", Title: "Calls: tokens, cost and latency", MDTitle: "Calls",
		MDAlign: "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
		Note:    "Cached: the share of prompt tokens the provider served from its cache. Cost: the known cost; calls whose cost was not reported are counted beside it. ≈: estimated from the text's length (offline models count no tokens).",
		Head:    []string{"model", "class", "planned", "scored", "API errors", "missing", "prompt tokens", "cached", "completion tokens", "cost (USD)", "latency p50 / p95 / max (ms)"}}
	for _, model := range r.Models {
		for _, class := range Classes {
			c := r.Results[model].Class(class)
			if c == nil {
				continue
			}
			cost, cached := costText(c.Cost.USD, c.Cost.Unknown), cachedText(c.Tokens)
			t.add(model, class, strconv.Itoa(c.Planned), strconv.Itoa(c.Scored), strconv.Itoa(c.APIErrors), strconv.Itoa(c.Missing),
				tokenText(c.Tokens.Prompt, c.Tokens.Estimated), cached, tokenText(c.Tokens.Completion, c.Tokens.Estimated), cost,
				fmt.Sprintf("%d / %d / %d", c.LatencyMS.P50, c.LatencyMS.P95, c.LatencyMS.Max))
		}
	}
	return t
}

func modelsTable(r *Report) reportTable {
	t := reportTable{ID: "models", Title: "Models", MDTitle: "Models", MDAlign: "|---|---|---|---|---:|---:|",
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

// sizeTable is the size ladder per model, rung and position.
func sizeTable(r *Report) *reportTable {
	if len(r.Size) == 0 {
		return nil
	}
	t := &reportTable{ID: "size-table", Note: "One value per answer; the rung's row (all) aggregates its positions. Cut off: answers stopped at the output budget.",
		MDTitle: "Size ladder", MDNote: "The same edits at the start, middle and end of documents of growing size (one value per answer; the rung's row aggregates its positions). Cut off: answers stopped at the output budget.",
		MDAlign: "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
		Head:    []string{"model", "rung", "bytes", "position", "n", "median drift", "P95 drift", "edits applied", "lossless", "invalid", "cut off", "output tokens", "cost (USD)"}}
	for _, row := range r.Size {
		cost := costText(row.Cost, row.CostUnknown)
		t.add(row.Model, row.Rung, strconv.Itoa(row.Bytes), row.Position, strconv.Itoa(row.Scored), numOr(row.MedianDrift, "n/a"),
			numOr(row.P95Drift, "n/a"), percentOr(row.EditsApplied), percentOr(row.Lossless), strconv.Itoa(row.Invalid),
			strconv.Itoa(row.CutOff), tokenText(row.OutputTokens, row.Estimated), cost)
		t.Rows[len(t.Rows)-1].Cells[3].Strong = row.Position == PositionAll
	}
	return t
}

// relayTable is the relay per model and step; relayBreaks says per model
// where chains first broke.
func relayTable(r *Report) *reportTable {
	if len(r.Relay) == 0 {
		return nil
	}
	t := &reportTable{ID: "relay-table", Note: "↺: the step expects the source itself, so its drift is the drift against the source. Not run: chains ended earlier by an answer with no document (drift 1).",
		MDTitle: "Relay", MDNote: "Each chain edits one document step after step, every step given the model's own previous answer (B, C, C⁻¹, B⁻¹, repeated); steps marked ↺ expect the source itself, so their drift is the drift against the source. A chain whose answer held no document ends there; its later steps are not run and count as drift 1.",
		MDAlign: "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
		Head:    []string{"model", "step", "edit", "chains", "median drift [95% CI]", "P95 drift", "edits applied", "lossless", "not run", "API errors", "missing"}}
	for _, s := range r.Relay {
		step := strconv.Itoa(s.Step)
		if s.RoundTrip {
			step += " ↺"
		}
		t.add(s.Model, step, s.Edit, strconv.Itoa(s.Chains), withInterval(s.MedianDrift, s.MedianInterval), numOr(s.P95Drift, "n/a"),
			percentOr(s.EditsApplied), percentOr(s.Lossless), strconv.Itoa(s.NotRun), strconv.Itoa(s.APIErrors), strconv.Itoa(s.Missing))
	}
	return t
}

// relayBreaks lists, per model, the number of chains that first exceed
// their class's P95 threshold at each step.
func relayBreaks(r *Report) []string {
	var out []string
	for _, b := range breaksOf(r) {
		out = append(out, b[0]+": "+b[1])
	}
	return out
}

// breaksOf is relayBreaks as (model, counts) pairs, for each writer to
// format the model its way.
func breaksOf(r *Report) [][2]string {
	var out [][2]string
	for _, rm := range r.RelayModels {
		var parts []string
		for _, k := range slices.SortedFunc(maps.Keys(rm.FirstExceed), func(a, b string) int {
			ai, aerr := strconv.Atoi(a)
			bi, berr := strconv.Atoi(b)
			if aerr != nil || berr != nil {
				return cmp.Compare(a, b) // "never" after the numbers
			}
			return cmp.Compare(ai, bi)
		}) {
			parts = append(parts, fmt.Sprintf("%s: %d", k, rm.FirstExceed[k]))
		}
		out = append(out, [2]string{rm.Model, strings.Join(parts, ", ")})
	}
	return out
}

// naturalTable is the natural suite as information, with the gating
// suite's thresholds shown beside each number.
func naturalTable(r *Report) *reportTable {
	if len(r.Natural) == 0 {
		return nil
	}
	th := r.Thresholds
	t := &reportTable{ID: "natural-table", MDTitle: "Natural suite (information)",
		MDNote:  "The 40 class B and C changes asked for as an editor would, no id dictated for new content; the output's new ids are aligned to the expected document's before scoring (`metric/doc.go`). The same numbers and thresholds as the gating suite's, shown as information: they decide no verdict.",
		MDAlign: "|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|",
		Head:    []string{"model", "class", "n", "median drift [95% CI]", "P95 drift", "edits applied", "lossless", "unchanged", "unrequested", "median within limit", "P95 within limit", "edits applied within gate"}}
	within := func(v *float64, limit float64, atLeast bool) tableCell {
		ok, bound, measured := withinLimit(v, limit, atLeast)
		if !measured {
			return tableCell{Text: "n/a"}
		}
		return checked(ok, bound)
	}
	for _, model := range r.Models {
		nr := r.Natural[model]
		if nr == nil {
			continue
		}
		for _, c := range []*ClassResult{nr.ClassB, nr.ClassC} {
			if c == nil {
				continue
			}
			medLimit, p95Limit, gate := naturalLimits(th, c.Class)
			t.add(model, c.Class, strconv.Itoa(c.Documents), withInterval(c.MedianDrift, c.MedianInterval), numOr(c.P95Drift, "n/a"),
				percentOr(c.EditComplianceRate), percentOr(c.LosslessRate), percentOr(c.UnchangedRate),
				numOr(c.UnrequestedMedian, "n/a")+" / "+intOr(c.UnrequestedMax))
			row := &t.Rows[len(t.Rows)-1]
			row.Cells = append(row.Cells, within(c.MedianDrift, medLimit, false), within(c.P95Drift, p95Limit, false), within(c.EditComplianceRate, gate, true))
		}
	}
	return t
}

// naturalLimits are the limits the natural section shows a class against:
// §8.5's median and P95 and the harness's edits-applied gate.
func naturalLimits(t config.Thresholds, class string) (median, p95, gate float64) {
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
		return *v >= limit, "≥ " + num(limit), true
	}
	return *v <= limit, "≤ " + num(limit), true
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
func cachedText(t Tokens) string {
	if t.Prompt == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(t.Cached)/float64(t.Prompt))
}

// control says whether a model's requests carried the determinism
// control p (temperature, seed).
func control(mr *ModelResult, p string) string {
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
func providerList(mr *ModelResult) string {
	var providers []string
	for _, p := range slices.Sorted(maps.Keys(mr.Providers)) {
		providers = append(providers, fmt.Sprintf("%s (%d)", p, mr.Providers[p]))
	}
	return strings.Join(providers, ", ")
}

// cutOffs counts a model's answers cut off at the output budget while
// reasoning and in the answer itself.
func cutOffs(mr *ModelResult) (reasoning, output int) {
	for _, class := range Classes {
		if c := mr.Class(class); c != nil {
			reasoning += c.CutOffReasoning
			output += c.CutOffOutput
		}
	}
	return reasoning, output
}
