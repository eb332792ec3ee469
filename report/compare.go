package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
)

// Alpha is the significance level of Compare.
const Alpha = 0.05

// Comparison is old against new, per model and class, in the manner of
// benchstat: each row pairs the two reports' per-document values by task
// id and tests the paired differences with the Wilcoxon signed-rank test.
type Comparison struct {
	// Old and New are the two reports, as given.
	Old Side `json:"old"`
	New Side `json:"new"`
	// Rows are the (model, class) pairs both reports have, by model (old
	// report's order, then the new report's) and class.
	Rows []Row `json:"rows"`
	// Notes qualify the comparison: different metric versions, weights,
	// corpora or prompts, unpaired documents, models or classes in one
	// report only, samples too small to reach significance.
	Notes []string `json:"notes"`
}

// Side names one report of a comparison.
type Side struct {
	Name          string `json:"name"` // as given on the command line
	RunID         string `json:"run_id"`
	RanAt         string `json:"ran_at"`
	MetricVersion string `json:"metric_version"`
}

// Row compares one (model, class). For classes B and C the center is the
// median drift (lower is better) and P95 is compared too; for class A the
// center is the faithfulness (higher is better).
type Row struct {
	Model string `json:"model"`
	Class string `json:"class"`
	// OldCenter and NewCenter are the median drift (B, C) or the
	// faithfulness (A); nil when not measured.
	OldCenter *float64 `json:"old_center"`
	NewCenter *float64 `json:"new_center"`
	// OldP95 and NewP95 are the P95 drift (B, C).
	OldP95 *float64 `json:"old_p95,omitempty"`
	NewP95 *float64 `json:"new_p95,omitempty"`
	// Pairs is the number of documents with a value in both reports.
	Pairs int `json:"pairs"`
	// P is the two-sided p-value of the signed-rank test over the pairs,
	// and N the number of pairs that differ (zero differences are dropped).
	P float64 `json:"p"`
	N int     `json:"n"`
	// Change is "better", "worse" or "~" (no significant change at Alpha).
	Change string `json:"change"`

	// The lossless share (B, C), the harness's own headline, compared on
	// answers paired by (task, repeat): OldLossless and NewLossless are the
	// two reports' LosslessRate; Gained counts pairs lossless only in the
	// new report, Lost those lossless only in the old; LosslessP is the
	// two-sided exact (McNemar) test over those discordant pairs, and
	// LosslessChange says "better", "worse" or "~" at Alpha.
	OldLossless    *float64 `json:"old_lossless,omitempty"`
	NewLossless    *float64 `json:"new_lossless,omitempty"`
	Gained         int      `json:"lossless_gained,omitempty"`
	Lost           int      `json:"lossless_lost,omitempty"`
	LosslessP      float64  `json:"lossless_p,omitempty"`
	LosslessChange string   `json:"lossless_change,omitempty"`
}

// WriteJSON writes the comparison as indented JSON: the same rows and
// notes as the text, for scripts. Its schema is this struct.
func (c *Comparison) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// Compare compares two reports.
func Compare(old, new *Report, oldName, newName string) *Comparison {
	c := &Comparison{Old: sideOf(old, oldName), New: sideOf(new, newName)}
	c.Notes = append(c.Notes, provenanceNotes(old, new)...)
	models := slices.Clone(old.Models)
	for _, m := range new.Models {
		if !slices.Contains(models, m) {
			models = append(models, m)
		}
	}
	for _, m := range models {
		om, nm := old.Results[m], new.Results[m]
		switch {
		case om == nil:
			c.Notes = append(c.Notes, fmt.Sprintf("%s is only in %s", m, newName))
			continue
		case nm == nil:
			c.Notes = append(c.Notes, fmt.Sprintf("%s is only in %s", m, oldName))
			continue
		}
		for _, class := range Classes {
			oc, nc := om.Class(class), nm.Class(class)
			if oc == nil || nc == nil {
				if oc != nil || nc != nil {
					c.Notes = append(c.Notes, fmt.Sprintf("%s class %s is in one report only", m, class))
				}
				continue
			}
			row, notes := compareClass(m, class, oc, nc)
			c.Rows = append(c.Rows, row)
			c.Notes = append(c.Notes, notes...)
		}
		c.compareFormats(m, old, new)
		// The natural suite, when both reports have it, per class.
		on, nn := old.Natural[m], new.Natural[m]
		if on == nil || nn == nil {
			continue
		}
		for _, pair := range [][2]*ClassResult{{on.ClassB, nn.ClassB}, {on.ClassC, nn.ClassC}} {
			if pair[0] == nil || pair[1] == nil {
				continue
			}
			row, notes := compareClass(m, pair[0].Class, pair[0], pair[1])
			row.Class = "natural " + pair[0].Class
			c.Rows = append(c.Rows, row)
			c.Notes = append(c.Notes, notes...)
		}
	}
	return c
}

func sideOf(r *Report, name string) Side {
	return Side{Name: name, RunID: r.RunID, RanAt: r.RanAt, MetricVersion: r.MetricVersion}
}

func provenanceNotes(old, new *Report) []string {
	var out []string
	if old.MetricVersion != new.MetricVersion {
		out = append(out, fmt.Sprintf("metric versions differ (%s, %s): rescore both runs with one metric to compare drift", old.MetricVersion, new.MetricVersion))
	}
	if old.Weights != new.Weights {
		out = append(out, "drift weights differ")
	}
	if old.CorpusHash != new.CorpusHash {
		out = append(out, "the corpora or tasks differ (corpus hashes differ)")
	}
	if old.PromptHash != new.PromptHash {
		out = append(out, "the prompt templates differ (prompt hashes differ)")
	}
	return out
}

// compareClass pairs the per-document values of one (model, class) and
// tests them.
func compareClass(model, class string, oc, nc *ClassResult) (Row, []string) {
	row := Row{Model: model, Class: class}
	value := func(d DocumentResult) *float64 { return d.Drift }
	if class == task.ClassA {
		value = func(d DocumentResult) *float64 { return d.Faithful }
		row.OldCenter, row.NewCenter = oc.Faithfulness, nc.Faithfulness
	} else {
		row.OldCenter, row.NewCenter = oc.MedianDrift, nc.MedianDrift
		row.OldP95, row.NewP95 = oc.P95Drift, nc.P95Drift
	}
	olds := map[string]*float64{}
	for _, d := range oc.PerDocument {
		olds[d.TaskID] = value(d)
	}
	var diffs []float64
	seen := map[string]bool{}
	unpaired := 0
	for _, d := range nc.PerDocument {
		seen[d.TaskID] = true
		o, n := olds[d.TaskID], value(d)
		if o == nil || n == nil {
			if o != nil || n != nil {
				unpaired++
			}
			continue
		}
		diffs = append(diffs, *n-*o)
	}
	for id, o := range olds {
		if !seen[id] && o != nil {
			unpaired++
		}
	}
	var notes []string
	if unpaired > 0 {
		notes = append(notes, fmt.Sprintf("%s class %s: %d documents have a value in one report only and are left out of the test", model, class, unpaired))
	}
	var sign int
	row.Pairs = len(diffs)
	row.P, row.N, sign = stats.SignedRank(diffs)
	row.Change = "~"
	if row.P < Alpha {
		row.Change = "worse"
		if (sign > 0) == (class == task.ClassA) {
			row.Change = "better"
		}
	}
	if row.N > 0 && row.N < 6 {
		notes = append(notes, fmt.Sprintf("%s class %s: %d documents differ; the signed-rank test needs at least 6 to reach p < %s", model, class, row.N, num(Alpha)))
	}
	if class != task.ClassA {
		compareLossless(&row, oc, nc)
	}
	return row, notes
}

// compareLossless pairs the answers of two reports by (task, repeat) and
// compares whether each was lossless with McNemar's exact test: under no
// change, each discordant pair is as likely gained as lost, so the
// two-sided p-value is that of a fair binomial over Gained + Lost.
func compareLossless(row *Row, oc, nc *ClassResult) {
	row.OldLossless, row.NewLossless = oc.LosslessRate, nc.LosslessRate
	type key struct {
		task   string
		repeat int
	}
	old := map[key]bool{}
	for _, d := range oc.PerDocument {
		for _, r := range d.Repeats {
			if r.Lossless != nil {
				old[key{d.TaskID, r.Repeat}] = *r.Lossless
			}
		}
	}
	for _, d := range nc.PerDocument {
		for _, r := range d.Repeats {
			o, ok := old[key{d.TaskID, r.Repeat}]
			switch {
			case !ok || r.Lossless == nil || o == *r.Lossless:
			case *r.Lossless:
				row.Gained++
			default:
				row.Lost++
			}
		}
	}
	row.LosslessP = stats.ExactBinomial(row.Gained, row.Lost)
	row.LosslessChange = "~"
	if row.LosslessP < Alpha {
		row.LosslessChange = "worse"
		if row.Gained > row.Lost {
			row.LosslessChange = "better"
		}
	}
}

// CompareFiles reads two JSON reports and compares them (Compare). Reports
// of different suites are refused: they measure different tasks, so their
// numbers pair by model and class but mean different things.
func CompareFiles(oldName, newName string) (*Comparison, error) {
	reps, err := ReadFiles([]string{oldName, newName})
	if err != nil {
		return nil, err
	}
	if a, b := cmp.Or(reps[0].Suite, suites.Gating), cmp.Or(reps[1].Suite, suites.Gating); a != b {
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

// WriteText writes the comparison as aligned text tables.
func (c *Comparison) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "old: %s (run %s, %s, metric %s)\n", c.Old.Name, c.Old.RunID, c.Old.RanAt, c.Old.MetricVersion)
	fmt.Fprintf(bw, "new: %s (run %s, %s, metric %s)\n", c.New.Name, c.New.RunID, c.New.RanAt, c.New.MetricVersion)
	for _, t := range c.tables() {
		fmt.Fprintln(bw)
		tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(t.header, "\t"))
		for _, r := range t.rows {
			fmt.Fprintln(tw, strings.Join(r, "\t"))
		}
		tw.Flush()
	}
	c.writeNotes(bw, "")
	return bw.Flush()
}

// WriteMarkdown writes the comparison as Markdown tables, for pull
// requests.
func (c *Comparison) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "**old** %s: run %s, %s, metric %s  \n", code(c.Old.Name), code(c.Old.RunID), mdText(c.Old.RanAt), mdText(c.Old.MetricVersion))
	fmt.Fprintf(bw, "**new** %s: run %s, %s, metric %s\n", code(c.New.Name), code(c.New.RunID), mdText(c.New.RanAt), mdText(c.New.MetricVersion))
	for _, t := range c.tables() {
		fmt.Fprintf(bw, "\n| %s |\n|", strings.Join(t.header, " | "))
		for i := range t.header {
			if i < 2 {
				fmt.Fprint(bw, "---|")
			} else {
				fmt.Fprint(bw, "---:|")
			}
		}
		fmt.Fprintln(bw)
		for _, r := range t.rows {
			r = slices.Clone(r)
			r[0] = code(r[0])
			// The class column joins a report's format name, rung and class:
			// text from a file, escaped like every other (a hostile report
			// forged a heading and a <script> here).
			r[1] = mdText(r[1])
			fmt.Fprintf(bw, "| %s |\n", strings.Join(r, " | "))
		}
	}
	c.writeNotes(bw, "md")
	return bw.Flush()
}

func (c *Comparison) writeNotes(w io.Writer, format string) {
	if len(c.Notes) == 0 {
		return
	}
	fmt.Fprintln(w)
	for i, n := range c.Notes {
		if format == "md" {
			n = mdText(n)
		}
		fmt.Fprintf(w, "%d. %s\n", i+1, n)
	}
}

type table struct {
	header []string
	rows   [][]string
}

// tables lays the rows out: one table for drift (B, C), one for
// faithfulness (A).
func (c *Comparison) tables() []table {
	drift := table{header: []string{"model", "class", "median drift old → new", "Δ", "P95 drift old → new", "Δ", "vs old"}}
	lossless := table{header: []string{"model", "class", "lossless old → new", "Δ", "gained / lost", "vs old (exact test)"}}
	faith := table{header: []string{"model", "class", "faithfulness old → new", "Δ", "vs old"}}
	for _, r := range c.Rows {
		change := fmt.Sprintf("%s (p=%s n=%d)", r.Change, strconv.FormatFloat(r.P, 'f', 3, 64), r.N)
		if r.Class == task.ClassA {
			faith.rows = append(faith.rows, []string{r.Model, r.Class, arrow(r.OldCenter, r.NewCenter), delta(r.OldCenter, r.NewCenter), change})
			continue
		}
		drift.rows = append(drift.rows, []string{r.Model, r.Class, arrow(r.OldCenter, r.NewCenter), delta(r.OldCenter, r.NewCenter),
			arrow(r.OldP95, r.NewP95), delta(r.OldP95, r.NewP95), change})
		lossless.rows = append(lossless.rows, []string{r.Model, r.Class, arrow(r.OldLossless, r.NewLossless), delta(r.OldLossless, r.NewLossless),
			fmt.Sprintf("%d / %d", r.Gained, r.Lost), fmt.Sprintf("%s (p=%s)", r.LosslessChange, strconv.FormatFloat(r.LosslessP, 'f', 3, 64))})
	}
	var out []table
	for _, t := range []table{drift, lossless, faith} {
		if len(t.rows) > 0 {
			out = append(out, t)
		}
	}
	return out
}

func arrow(o, n *float64) string {
	return fmt.Sprintf("%s → %s", fixed(o), fixed(n))
}

func delta(o, n *float64) string {
	if o == nil || n == nil {
		return "n/a"
	}
	s := fmt.Sprintf("%+.4f", *n-*o)
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

// compareFormats compares model m's answers in each answer format other
// than the whole document that both reports have (Report.Formats), per
// suite part and class: tasks are paired within a format.
func (c *Comparison) compareFormats(m string, old, new *Report) {
	for _, nf := range new.Formats {
		if nf.Model != m || nf.Format == formats.Document {
			continue
		}
		for _, of := range old.Formats {
			if of.Model != m || of.Suite != nf.Suite || of.Rung != nf.Rung || of.Format != nf.Format {
				continue
			}
			for _, pair := range [][2]*ClassResult{{of.ClassB, nf.ClassB}, {of.ClassC, nf.ClassC}} {
				if pair[0] == nil || pair[1] == nil {
					continue
				}
				row, notes := compareClass(m, pair[0].Class, pair[0], pair[1])
				row.Class = strings.Join(slices.DeleteFunc([]string{nf.Format, nf.Rung, pair[0].Class}, func(s string) bool { return s == "" }), " ")
				c.Rows = append(c.Rows, row)
				c.Notes = append(c.Notes, notes...)
			}
		}
	}
}
