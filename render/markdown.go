package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for pull
// requests and CI job summaries: the verdict, the failures, the model ×
// Threshold matrix, the drift and faithfulness statistics, the calls and
// the warnings. It holds numbers and names only, never model output.
func WriteMarkdown(w io.Writer, r *report.Report) error {
	// Every text a server or a model chose (a provider, a served model, a
	// reason) passes the terminal filter too: mdText escapes Markdown, not
	// ESC or a line-start "::" (issue 45: raw ESC reached reports/*.md).
	sw := safetext.NewWriter(w)
	bw := bufio.NewWriter(sw)
	md := mdWriter{bw}
	md.header(r)
	md.failures(r)
	if !r.Informational() {
		md.reading(r)
		md.matrix(r)
	}
	for i, sec := range r.Sections {
		md.table(LostSteps(sec, SectionTable(r, sec, i)))
		md.breaks(sec)
		for _, t := range DelegationTables(sec, i) {
			md.table(t)
		}
	}
	if t, ok := FormatsTable(r); ok {
		md.table(t)
	}
	for _, t := range []Table{driftTable(r), faithTable(r), callsTable(r), modelsTable(r)} {
		md.table(t)
	}
	md.warnings(r)
	md.footer(r)
	if err := bw.Flush(); err != nil {
		return err
	}
	return sw.Flush()
}

type mdWriter struct{ w *bufio.Writer }

func (m mdWriter) p(format string, args ...any) { fmt.Fprintf(m.w, format, args...) }

func (m mdWriter) header(r *report.Report) {
	m.p("# BendScript round-trip report %s\n\n", code(r.RunID))
	if strings.HasPrefix(r.Integrity, report.IntegritySealRemoved) {
		m.p("**WARNING: %s.**\n\n", mdText(r.Integrity))
	}
	if r.Informational() {
		m.p("Suite `%s`, informational: no §8.5 threshold applies; the verdict says only whether the run is complete.\n\n", r.Suite)
	}
	m.p("**Verdict: %s**: %s.\n\n", VerdictWord(r), VerdictReason(r))
	if r.Partial != nil {
		m.p("Partial run: %s, %d of the suite's %d tasks.\n\n", mdText(r.Partial.String()), r.Tasks, r.Partial.Of)
	}
	if len(r.Custom) > 0 {
		var parts []string
		for _, c := range r.Custom {
			key, rest, _ := strings.Cut(c.String(), " ")
			parts = append(parts, code(key)+" "+mdText(rest))
		}
		m.p("Custom configuration, not the spec's: %s.\n\n", strings.Join(parts, "; "))
	}
	when := "ran at " + r.RanAt
	if r.RescoredAt != "" {
		when += ", rescored at " + r.RescoredAt
	}
	m.p("Harness %s, %s; %s; metric version %s (what its thresholds let through: `harness corpus sensitivity`).  \n",
		mdText(r.HarnessVersion), when, JobsText(r), mdText(r.MetricVersion))
	m.p("Corpus %s, prompts %s, config %s.", code(short(r.CorpusHash)), code(short(r.PromptHash)), code(short(r.ConfigHash)))
	if r.APIRoot != "" {
		m.p(" API root %s.", code(r.APIRoot))
	}
	m.p("\n\n")
	if c := CostText(r.Cost); c != "" {
		m.p("%s\n\n", c)
	}
	if r.Integrity != "" {
		m.p("Archive: %s.\n\n", mdText(r.Integrity))
	}
}

func (m mdWriter) failures(r *report.Report) {
	if len(r.Failures) == 0 {
		return
	}
	m.p("## Failures\n\n")
	for i, f := range r.Failures {
		m.p("%d. %s\n", i+1, mdText(f.Message))
	}
	m.p("\n")
}

// upperFirst is s with its first letter in upper case, to begin a
// sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// reading writes §8.5's reading: why, each model's standing with what is
// not clean, and why the run cannot gate v0.1.
func (m mdWriter) reading(r *report.Report) {
	if r.Reading.Outcome == "" {
		return
	}
	why, models, reasons := readingLines(r)
	if len(reasons) > 0 {
		m.p("## %s\n\n%s. Why it cannot gate:\n\n", readingHeading(r), upperFirst(mdText(r.Reading.Says)))
		for _, w := range reasons {
			m.p("- %s\n", mdText(w))
		}
		m.p("\n")
	} else {
		m.p("## %s\n\nThis run can gate v0.1 (§8.6). %s: %s.\n\n", readingHeading(r), upperFirst(mdText(r.Reading.Says)), mdText(why))
	}
	for _, rm := range models {
		m.p("- %s: %s.\n", mdText(rm.Model), rm.Standing)
		for _, g := range rm.Groups {
			m.p("  - %s:\n", g.Title)
			for _, n := range g.Notes {
				m.p("    - %s\n", mdText(n))
			}
		}
	}
	m.p("\n%s *short*: the documents whose own value falls short of the limit; *over* or *under*: those of a threshold that holds, which it allows.\n\n", mdText(marginsText(r)))
}

func (m mdWriter) matrix(r *report.Report) {
	ts := r.Checks()
	m.p("## %s\n\n| model | standing |", verdict.ThresholdsHeading(ts))
	own := false
	for _, t := range ts {
		m.p(" %s |", t.Heading())
		own = own || t.Own
	}
	m.p(" complete |\n|---|---|")
	for range ts {
		m.p("---:|")
	}
	m.p("---:|\n")
	for i, model := range r.Models {
		mr := r.Results[model]
		checks := ModelChecks(r, i)
		m.p("| %s | %s |", code(model), Standing(r, i))
		for j, t := range ts {
			v := mr.Gated(t)
			text := unit.NumOr(v, "n/a")
			if checks != nil {
				text = cellText(checks[j], t.Share())
			}
			m.p(" %s %s |", unit.Mark(t.Holds(v) || (checks != nil && checks[j].NotSelected)), mdText(text))
		}
		n := r.Incomplete(model).Count()
		m.p(" %s %d/%d |\n", unit.Mark(n == 0), r.Planned(model)-n, r.Planned(model))
	}
	if own {
		m.p("\n† %s\n", OwnFootnote)
	}
	m.p("\n")
}

// table writes a table the viewer shows too (Table): its section
// heading and text, its head, and its rows, the model as code and text a
// server chose escaped. A table without rows keeps its heading and head.
func (m mdWriter) table(t Table) {
	m.p("## %s\n\n", t.MDTitle)
	if len(t.Rows) == 0 && t.Empty != "" {
		m.p("%s\n\n", t.Empty)
		return
	}
	if t.MDNote != "" {
		m.p("%s\n\n", t.MDNote)
	}
	writeMarkdownRows(m.w, t)
	m.p("\n")
}

// JobsText counts what the run asked: models × tasks (in every answer
// format) × repeats = jobs.
func JobsText(r *report.Report) string {
	return fmt.Sprintf("%d %s × %d %s × %d %s = %d %s", len(r.Models), unit.Plural(len(r.Models), "model", "models"),
		r.Tasks, unit.Plural(r.Tasks, "task", "tasks"), r.Repeats, unit.Plural(r.Repeats, "repeat", "repeats"), r.Jobs, unit.Plural(r.Jobs, "job", "jobs"))
}

// WriteMarkdownTable writes a table's head, alignment and rows as
// Markdown: the first column (the model, or the report) as code, text a
// server chose escaped, a total in bold, a ✔/✘ cell with its mark.
func WriteMarkdownTable(w io.Writer, t Table) error {
	bw := bufio.NewWriter(w)
	writeMarkdownRows(bw, t)
	return bw.Flush()
}

func writeMarkdownRows(w *bufio.Writer, t Table) {
	align := t.MDAlign
	if align == "" {
		align = "|---|" + strings.Repeat("---:|", max(len(t.Head)-1, 0))
	}
	fmt.Fprintf(w, "| %s |\n%s\n", strings.Join(t.Head, " | "), align)
	for _, row := range t.Rows {
		cells := make([]string, len(row.Cells))
		for i, c := range row.Cells {
			switch {
			case i == 0:
				cells[i] = code(c.Text)
			case c.Free:
				cells[i] = mdText(c.Text)
			case c.Strong:
				cells[i] = "**" + c.Text + "**"
			case c.Class != "":
				cells[i] = unit.Mark(c.Class == "ok") + " (" + c.Text + ")"
			default:
				cells[i] = c.Text
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
}

// WriteTextTable writes a table's head and rows as aligned plain text,
// for a terminal.
func WriteTextTable(w io.Writer, t Table) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.Head, "\t"))
	for _, row := range t.Rows {
		cells := make([]string, len(row.Cells))
		for i, c := range row.Cells {
			cells[i] = c.Text
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// Code renders s as a Markdown code span that a table cell can hold.
func Code(s string) string { return code(s) }

// MDText escapes s for Markdown text (mdText).
func MDText(s string) string { return mdText(s) }

// breaks lists per model where relay chains first exceeded their class's
// P95 threshold.
func (m mdWriter) breaks(sec report.Section) {
	if len(sec.Breaks) == 0 {
		return
	}
	m.p("First step at which a chain's drift exceeds its class's §8.5 P95 threshold:\n\n")
	for _, b := range sec.Breaks {
		who := code(b.Model)
		if Labelled(sec) {
			who += " (" + mdText(b.Format) + ")"
		}
		m.p("- %s: %s\n", who, firstExceedText(b.FirstExceed))
	}
	m.p("\n")
}

// OwnFootnote explains the † of the harness's own thresholds.
const OwnFootnote = "the harness's own threshold, beside §8.5 (`thresholds.class_b_…`/`class_c_…` in harness.yaml; docs/statistics.md, \"What a pass means\"): " +
	"*edits applied*, the share of scored answers whose edit was fully applied (`edit_applied_min`), so a model that does not edit cannot pass on low drift; " +
	"*P95 residual*, the residual component that sees what §8.4's five cannot (meta, unknown members, the version, duplicated edges; `residual_p95_max`); " +
	"*answers invalid*, the share of outputs with no document or one a conformant processor rejects (`invalid_max`); " +
	"*answers without unrequested change*, the share that changed nothing the edit left alone (`unchanged_min`)."

func (m mdWriter) warnings(r *report.Report) {
	if len(r.Warnings) == 0 {
		return
	}
	m.p("## Warnings\n\n")
	for i, w := range r.Warnings {
		m.p("%d. %s\n", i+1, mdText(WarningText(w)))
	}
	m.p("\n")
}

func (m mdWriter) footer(r *report.Report) {
	m.p("<sub>Quantiles: %s. Intervals: exact at %s, no seed (order statistics for quantiles, Clopper–Pearson for shares), over %s. Report schema %d.</sub>\n",
		mdText(r.Quantile), unit.Percent(r.Intervals.Level), mdText(r.Intervals.Unit), r.Schema)
}

// short abbreviates a hash to 12 characters.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	if h == "" {
		return "-"
	}
	return h
}

// code renders s as a Markdown code span that a table cell can hold.
func code(s string) string {
	s = strings.NewReplacer("`", "'", "|", "\\|", "\n", " ", "\r", " ").Replace(s)
	return "`" + s + "`"
}

// mdText escapes the characters that Markdown or inline HTML would read as
// markup, and folds line breaks, so that a string a server or a model chose
// (a provider name, a reason, an error message) stays one run of text in
// its cell or line and can forge no line of its own.
var mdText = strings.NewReplacer(
	"\\", "\\\\", "`", "\\`", "*", "\\*", "_", "\\_", "[", "\\[", "]", "\\]",
	"<", "&lt;", ">", "&gt;", "|", "\\|", "#", "\\#", "~", "\\~", "&", "&amp;",
	"\n", " ", "\r", " ",
).Replace
