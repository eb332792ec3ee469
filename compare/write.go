package compare

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
)

// CompareFiles reads two JSON reports and compares them (Compare). A file
// that is not a report is refused naming it (report.ReadHead: read
// without its answers, which compare never uses, passed as they stream by); reports of
// different suites are refused: they measure different tasks, so their
// numbers pair by model and class but mean different things.
func CompareFiles(oldName, newName string) (*Comparison, error) {
	reps, err := report.ReadHeads([]string{oldName, newName})
	if err != nil {
		return nil, err
	}
	if a, b := suites.Of(reps[0].Suite).Name, suites.Of(reps[1].Suite).Name; a != b {
		return nil, fmt.Errorf("compare: %s is a %s report and %s a %s report; compare two reports of one suite", oldName, a, newName, b)
	}
	return Compare(reps[0], reps[1], oldName, newName), nil
}

// Write writes the comparison in a format: text (WriteText), md
// (WriteMarkdown) or json (WriteJSON).
func (c *Comparison) Write(w io.Writer, format string) error {
	switch format {
	case "md":
		return c.WriteMarkdown(w)
	case "json":
		return c.WriteJSON(w)
	}
	return c.WriteText(w)
}

// WriteJSON writes the comparison as indented JSON: the same rows and
// notes as the text, for scripts. Its schema is this struct.
func (c *Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// WriteText writes the comparison as text: what changed first, then
// aligned tables, then the notes.
func (c *Comparison) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "old: %s (run %s, %s, metric %s)\n", c.Old.Name, c.Old.RunID, c.Old.RanAt, c.Old.MetricVersion)
	fmt.Fprintf(bw, "new: %s (run %s, %s, metric %s)\n", c.New.Name, c.New.RunID, c.New.RanAt, c.New.MetricVersion)
	for _, line := range c.opening() {
		fmt.Fprintln(bw, line)
	}
	for _, t := range c.tables() {
		fmt.Fprintln(bw)
		render.WriteTextTable(bw, t)
	}
	c.writeNotes(bw, func(s string) string { return s })
	return bw.Flush()
}

// WriteMarkdown writes the comparison as Markdown, for pull requests.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "**old** %s: run %s, %s, metric %s  \n", render.Code(c.Old.Name), render.Code(c.Old.RunID), render.MDText(c.Old.RanAt), render.MDText(c.Old.MetricVersion))
	fmt.Fprintf(bw, "**new** %s: run %s, %s, metric %s\n", render.Code(c.New.Name), render.Code(c.New.RunID), render.MDText(c.New.RanAt), render.MDText(c.New.MetricVersion))
	for _, line := range c.opening() {
		if line == "" {
			fmt.Fprintln(bw)
			continue
		}
		fmt.Fprintln(bw, render.MDText(line)+"  ")
	}
	for _, t := range c.tables() {
		fmt.Fprintln(bw)
		render.WriteMarkdownTable(bw, t)
	}
	c.writeNotes(bw, render.MDText)
	return bw.Flush()
}

// opening is what changed first: the verdict and the reading, old → new,
// the failures added and removed, and what differs between the runs.
func (c *Comparison) opening() []string {
	v := c.Verdict
	out := []string{""}
	if c.Paired < c.Documents {
		out = append(out, c.pairingLine(), "")
	}
	out = append(out, fmt.Sprintf("verdict: %s → %s", v.Old, v.New), fmt.Sprintf("reading: %s → %s", v.OldReading, v.NewReading))
	for _, f := range c.FailuresAdded {
		out = append(out, "failure added: "+f)
	}
	for _, f := range c.FailuresRemoved {
		out = append(out, "failure removed: "+f)
	}
	if len(c.FailuresAdded)+len(c.FailuresRemoved) == 0 {
		out = append(out, "failures: none added, none removed")
	}
	for _, d := range c.Differences {
		out = append(out, "differs: "+d)
	}
	if len(c.Differences) == 0 {
		out = append(out, "differs: nothing in what the runs asked (repeats, seed, models and providers, versions, corpus, prompts, configuration, suite, formats, selection)")
	}
	return out
}

// pairingLine says, when some documents are in one report only, how many
// pair: the tests compare those alone, while each report's median, P95
// and lossless share are over all of its own documents.
func (c *Comparison) pairingLine() string {
	if c.Paired == 0 {
		return fmt.Sprintf("pairs: none of the %d documents is in both reports, so nothing below is compared: each report's numbers are its own", c.Documents)
	}
	return fmt.Sprintf("pairs: only %d of %d documents are in both reports: the tests compare those %d; the other %d are in one report only and not compared (the values old → new are each report's own, over all its documents)",
		c.Paired, c.Documents, c.Paired, c.Documents-c.Paired)
}

func (c *Comparison) writeNotes(w io.Writer, esc func(string) string) {
	fmt.Fprintf(w, "\n%d %s adjusted together (Holm): better and worse need an adjusted p < %s; = means no document differs (no test).\n",
		c.Tests, unit.Plural(c.Tests, "test", "tests"), unit.Num(Alpha))
	for i, n := range c.Notes {
		fmt.Fprintf(w, "%d. %s\n", i+1, esc(n))
	}
}

// tables lays the rows out: drift (B, C), lossless, faithfulness (A) and
// the gates. The class column is free text (it holds a format's or a
// rung's name from the report).
func (c *Comparison) tables() []render.Table {
	align := func(n int) string { return "|---|---|" + strings.Repeat("---:|", n-2) }
	drift := render.Table{Head: []string{"model", "class", "median drift old → new", "Δ", "P95 drift old → new", "Δ", "vs old", "resolution"}, MDAlign: align(7) + "---|"}
	lossless := render.Table{Head: []string{"model", "class", "lossless old → new", "Δ", "gained / lost", "vs old (exact test)"}, MDAlign: align(6)}
	faith := render.Table{Head: []string{"model", "class", "faithfulness old → new", "Δ", "vs old", "resolution"}, MDAlign: align(5) + "---|"}
	for _, r := range c.Rows {
		if r.Class == task.ClassA {
			faith.Add(r.Model, r.Class, arrow(r.Center), delta(r.Center), changeText(r.Center, r.N), resolutionText(r))
			free(&faith)
			continue
		}
		drift.Add(r.Model, r.Class, arrow(r.Center), delta(r.Center), arrow(r.P95), delta(r.P95), changeText(r.Center, r.N), resolutionText(r))
		free(&drift)
		lossless.Add(r.Model, r.Class, arrow(r.Lossless), delta(r.Lossless), fmt.Sprintf("%d / %d", r.Gained, r.Lost), changeText(r.Lossless, r.Gained+r.Lost))
		free(&lossless)
	}
	var out []render.Table
	for _, t := range []render.Table{drift, lossless, faith, c.rsTable(), c.feedbackTable(), c.gateTable()} {
		if len(t.Rows) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// feedbackTable is the first try and the feedback rounds of each row both
// reports asked rounds for, old → new.
func (c *Comparison) feedbackTable() render.Table {
	t := render.Table{Head: []string{"model", "group", "well-formed 1st try old → new", "lossless 1st try old → new", "well-formed after feedback old → new", "lossless after feedback old → new", "rounds old → new"},
		MDAlign: "|---|---|---:|---:|---:|---:|---:|"}
	pc := func(o, n *float64) string { return unit.PercentOr(o) + " → " + unit.PercentOr(n) }
	for _, f := range c.Feedback {
		t.Add(f.Model, f.Group, pc(f.Old.WellFormedFirst, f.New.WellFormedFirst), pc(f.Old.LosslessFirst, f.New.LosslessFirst),
			pc(f.Old.WellFormedAfter, f.New.WellFormedAfter), pc(f.Old.LosslessAfter, f.New.LosslessAfter), fmt.Sprintf("%d → %d", f.Old.Rounds, f.New.Rounds))
		free(&t)
	}
	return t
}

// gateTable is every threshold per model, old → new, with whether it held.
func (c *Comparison) gateTable() render.Table {
	t := render.Table{Head: []string{"model", "threshold", "old", "new", "held old → new"}, MDAlign: "|---|---|---:|---:|---|"}
	held := func(ok bool) string {
		if ok {
			return "✔"
		}
		return "✘"
	}
	for _, g := range c.Gates {
		show := func(v *float64) string { return unit.NumOr(v, "n/a") }
		if g.Share {
			show = unit.PercentOr
		}
		t.Add(g.Model, g.Label, show(g.Old), show(g.New), held(g.OldHolds)+" → "+held(g.NewHolds))
	}
	return t
}

// changeText is a metric's change with its raw and adjusted p-values and
// its n; "=" alone when there was no test.
func changeText(d Delta, n int) string {
	if d.P == nil || d.PAdjusted == nil {
		return "= (no difference)"
	}
	return fmt.Sprintf("%s (p=%s, adjusted %s, n=%d)", d.Change, strconv.FormatFloat(*d.P, 'f', 3, 64), strconv.FormatFloat(*d.PAdjusted, 'f', 3, 64), n)
}

// resolutionText is what a row's test could not resolve, and the repeat
// noise it sees.
func resolutionText(r Row) string {
	text := r.Resolution
	if r.Unpaired > 0 {
		if text != "" {
			text = "; " + text
		}
		text = fmt.Sprintf("%d of %d documents paired", r.Pairs, r.Pairs+r.Unpaired) + text
	}
	if r.RepeatNoise != nil {
		if text != "" {
			text += "; "
		}
		text += fmt.Sprintf("repeat noise ±%s per document (median of each document's own); %d of %d changed beyond their own", unit.Num(*r.RepeatNoise), r.BeyondNoise, r.Pairs)
	}
	return text
}

// free marks the last row's class cell as text a report chose, which the
// Markdown escapes.
func free(t *render.Table) { t.Rows[len(t.Rows)-1].Cells[1].Free = true }

// arrow is a metric's values, old → new.
func arrow(d Delta) string {
	return fmt.Sprintf("%s → %s", fixed(d.Old), fixed(d.New))
}

// delta is a metric's change new − old, "n/a" when either is missing.
func delta(d Delta) string {
	if d.Old == nil || d.New == nil {
		return "n/a"
	}
	s := fmt.Sprintf("%+.4f", *d.New-*d.Old)
	if s == "-0.0000" {
		s = "+0.0000"
	}
	return s
}

// fixed formats v with 4 decimals, so that columns align.
func fixed(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return strconv.FormatFloat(*v, 'f', 4, 64)
}
