package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteMarkdown writes the report as GitHub-flavoured Markdown, for pull
// requests and CI job summaries: the verdict, the failures, the model ×
// threshold matrix, the drift and faithfulness statistics, the calls and
// the warnings. It holds numbers and names only, never model output.
func WriteMarkdown(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	md := mdWriter{bw}
	md.header(r)
	md.failures(r)
	if gated(r.Suite) {
		md.matrix(r)
	}
	if t := sizeTable(r); t != nil {
		md.table(*t)
	}
	if t := relayTable(r); t != nil {
		md.table(*t)
		md.breaks(r)
	}
	if t := naturalTable(r); t != nil {
		md.table(*t)
	}
	if t := formatTable(r); t != nil {
		md.table(*t)
	}
	for _, t := range []reportTable{driftTable(r), faithTable(r), callsTable(r), modelsTable(r)} {
		md.table(t)
	}
	md.warnings(r)
	md.footer(r)
	return bw.Flush()
}

type mdWriter struct{ w *bufio.Writer }

func (m mdWriter) p(format string, args ...any) { fmt.Fprintf(m.w, format, args...) }

func (m mdWriter) header(r *Report) {
	m.p("# BendScript round-trip report %s\n\n", code(r.RunID))
	if !gated(r.Suite) {
		m.p("Suite `%s`, informational: no §8.5 threshold applies; the verdict says only whether the run is complete.\n\n", r.Suite)
	}
	m.p("**Verdict: %s**: %s.\n\n", VerdictWord(r), verdictReason(r))
	if r.Partial != nil {
		m.p("Partial run: %s, %d of the suite's %d tasks.\n\n", mdText(r.Partial.String()), r.Tasks, r.Partial.Of)
	}
	if len(r.Custom) > 0 {
		var parts []string
		for _, c := range r.Custom {
			parts = append(parts, fmt.Sprintf("%s %s (default %s)", code(c.Key), num(c.Value), num(c.Default)))
		}
		m.p("Custom configuration, not the spec's: %s.\n\n", strings.Join(parts, "; "))
	}
	when := "ran at " + r.RanAt
	if r.RescoredAt != "" {
		when += ", rescored at " + r.RescoredAt
	}
	m.p("Harness %s, %s; %d %s × %d tasks × %d %s; metric version %s (what its thresholds let through: `harness corpus sensitivity`).  \n",
		mdText(r.HarnessVersion), when, len(r.Models), plural(len(r.Models), "model", "models"),
		r.Tasks, r.Repeats, plural(r.Repeats, "repeat", "repeats"), mdText(r.MetricVersion))
	m.p("Corpus %s, prompts %s, config %s.\n\n", code(short(r.CorpusHash)), code(short(r.PromptHash)), code(short(r.ConfigHash)))
}

func (m mdWriter) failures(r *Report) {
	if len(r.Failures) == 0 {
		return
	}
	m.p("## Failures\n\n")
	for i, f := range r.Failures {
		m.p("%d. %s\n", i+1, mdText(f.Message))
	}
	m.p("\n")
}

func (m mdWriter) matrix(r *Report) {
	ts := r.thresholds()
	m.p("## %s\n\n| model |", thresholdsHeading(ts))
	own := false
	for _, t := range ts {
		m.p(" %s |", t.heading())
		own = own || t.own
	}
	m.p(" complete |\n|---|")
	for range ts {
		m.p("---:|")
	}
	m.p("---:|\n")
	for _, model := range r.Models {
		mr := r.Results[model]
		m.p("| %s |", code(model))
		for _, t := range ts {
			v := t.value(mr)
			m.p(" %s %s |", mark(t.holds(v)), numOr(v, "n/a"))
		}
		n, _ := incomplete(mr)
		m.p(" %s %d/%d |\n", mark(n == 0), planned(mr)-n, planned(mr))
	}
	if own {
		m.p("\n† %s\n", ownFootnote)
	}
	m.p("\n")
}

// table writes a table the viewer shows too (reportTable): its section
// heading and text, its head, and its rows, the model as code and text a
// server chose escaped. A table without rows keeps its heading and head.
func (m mdWriter) table(t reportTable) {
	m.p("## %s\n\n", t.MDTitle)
	if t.MDNote != "" {
		m.p("%s\n\n", t.MDNote)
	}
	m.p("| %s |\n%s\n", strings.Join(t.Head, " | "), t.MDAlign)
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
				cells[i] = mark(c.Class == "ok") + " (" + c.Text + ")"
			default:
				cells[i] = c.Text
			}
		}
		m.p("| %s |\n", strings.Join(cells, " | "))
	}
	m.p("\n")
}

// breaks lists per model where relay chains first exceeded their class's
// P95 threshold.
func (m mdWriter) breaks(r *Report) {
	m.p("First step at which a chain's drift exceeds its class's §8.5 P95 threshold:\n\n")
	for _, b := range breaksOf(r) {
		m.p("- %s: %s\n", code(b[0]), b[1])
	}
	m.p("\n")
}

// ownFootnote explains the † of the harness's own thresholds.
const ownFootnote = "the harness's own threshold, beside §8.5 (`thresholds.class_b_…`/`class_c_…` in harness.yaml; README, \"What a pass means\"): " +
	"*edits applied*, the share of scored answers whose edit was fully applied (`edit_applied_min`), so a model that does not edit cannot pass on low drift; " +
	"*P95 residual*, the residual component that sees what §8.4's five cannot (meta, unknown members, the version, duplicated edges; `residual_p95_max`); " +
	"*answers invalid*, the share of outputs with no document or one a conformant processor rejects (`invalid_max`); " +
	"*answers without unrequested change*, the share that changed nothing the edit left alone (`unchanged_min`)."

// VerdictWord is the verdict as a person reads it: PASS or FAIL for the
// gating verdict, "complete (informational)" or "incomplete
// (informational)" for a suite that decides none.
func VerdictWord(r *Report) string {
	switch r.Verdict {
	case Pass:
		return "✅ PASS"
	case Fail:
		return "❌ FAIL"
	}
	return r.Verdict + " (informational)"
}

// VerdictLine is the verdict in one line, for the end of a run: the
// verdict, why, and for a failure how many there are.
func VerdictLine(r *Report) string {
	line := fmt.Sprintf("Verdict: %s: %s", VerdictWord(r), verdictReason(r))
	if r.Partial != nil {
		line += fmt.Sprintf(" (partial run: %d of %d tasks)", r.Tasks, r.Partial.Of)
	}
	return line + "."
}

// verdictPlain is VerdictWord without its mark.
func verdictPlain(r *Report) string {
	switch r.Verdict {
	case Pass, Fail:
		return strings.ToUpper(r.Verdict)
	}
	return r.Verdict + " (informational)"
}

// verdictReason says in a phrase why the verdict is what it is.
func verdictReason(r *Report) string {
	switch {
	case !r.Passed():
		return fmt.Sprintf("%d %s", len(r.Failures), plural(len(r.Failures), "failure", "failures"))
	case !gated(r.Suite):
		return fmt.Sprintf("the run is complete; suite %s decides no verdict", r.Suite)
	case len(r.Custom) > 0:
		return "every threshold holds for every model, under a custom configuration (not §8.5)"
	}
	return "every §8.5 threshold and every harness gate † holds for every model"
}

// thresholdsHeading names the threshold table: §8.5 only when every
// threshold is the spec's.
func thresholdsHeading(ts []threshold) string {
	for _, t := range ts {
		if t.custom() {
			return "Thresholds (custom: not §8.5)"
		}
	}
	return "Thresholds (§8.5)"
}

// heading is a threshold's column heading; a custom one says so.
func (t threshold) heading() string {
	h := fmt.Sprintf("%s %s %s%s", t.label, opSymbol(t.op), num(t.limit), dagger(t.own))
	if t.custom() {
		h += " (custom)"
	}
	return h
}

// dagger marks the harness's own thresholds.
func dagger(own bool) string {
	if own {
		return " †"
	}
	return ""
}

// planned counts a model's planned transcripts.
func planned(mr *ModelResult) int {
	n := 0
	for _, class := range Classes {
		if c := mr.Class(class); c != nil {
			n += c.Planned
		}
	}
	return n
}

func (m mdWriter) warnings(r *Report) {
	if len(r.Warnings) == 0 {
		return
	}
	m.p("## Warnings\n\n")
	for i, w := range r.Warnings {
		m.p("%d. %s\n", i+1, mdText(w))
	}
	m.p("\n")
}

func (m mdWriter) footer(r *Report) {
	m.p("<sub>Quantiles: %s. Intervals: percentile bootstrap, %d resamples, seed %d. Report schema %d.</sub>\n",
		mdText(r.Quantile), r.Bootstrap.Resamples, r.Bootstrap.Seed, r.Schema)
}

func withInterval(v *float64, iv *Interval) string {
	if v == nil {
		return "n/a"
	}
	if iv == nil {
		return num(*v)
	}
	return fmt.Sprintf("%s [%s, %s]", num(*v), num(iv.Low), num(iv.High))
}

func noiseText(n *Noise) string {
	if n == nil {
		return "n/a"
	}
	return num(n.Range)
}

func numOr(v *float64, none string) string {
	if v == nil {
		return none
	}
	return num(*v)
}

func intOr(v *int) string {
	if v == nil {
		return "n/a"
	}
	return strconv.Itoa(*v)
}

func percentOr(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100**v)
}

// percent formats a fraction as a percentage: 0.9 → "90%", 0.925 → "92.5%".
func percent(v float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*v), ".0") + "%"
}

func mark(ok bool) string {
	if ok {
		return "✅"
	}
	return "❌"
}

func opSymbol(op string) string {
	if op == ">=" {
		return "≥"
	}
	return "≤"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
