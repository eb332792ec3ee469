package viewer

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
	"bendscript.com/round-trip-harness/viewer/chart"
)

// The viewer is one self-contained file: its style and script are inline,
// and its Content-Security-Policy allows exactly those two (by hash) and
// nothing else: no network, no other script, no inline event handler. Model
// output reaches the page only through html/template's contextual escaping,
// and the policy is the second wall should escaping ever miss.
var (
	//go:embed viewer.tmpl
	viewerTemplate string
	//go:embed viewer.css
	viewerCSS string
	//go:embed viewer.js
	viewerJS string

	viewer = template.Must(template.New("viewer").Parse(viewerTemplate))
)

// contentPolicy is the viewer's Content-Security-Policy.
func contentPolicy() string {
	return fmt.Sprintf("default-src 'none'; style-src '%s'; script-src '%s'; img-src data:; base-uri 'none'; form-action 'none'",
		CSPHash(viewerCSS), CSPHash(viewerJS))
}

// CSPHash is the Content-Security-Policy hash of an inline style or
// script.
func CSPHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// Template is a clone of the page's templates ("chart", "table"), for a
// page of its own (the trend) to define itself on: it draws with the same
// geometry (package chart), style and template.
func Template() *template.Template { return template.Must(viewer.Clone()) }

// CSS is the page's style sheet.
func CSS() string { return viewerCSS }

// MaxShown bounds the bytes of one raw model output shown in the viewer,
// and of one diff's lines; the transcript holds all of it. Every other
// model-derived text the viewer shows is bounded too (maxItems,
// maxItemText), so the page grows with the number of transcripts, never
// with the size of an answer (issue 20: answers of 60,000 blocks gave a
// 1.34 GB page, one 5 MB span 200 MB).
const MaxShown = 64 << 10

// maxItems bounds the entries of one list shown per transcript
// (diagnostics, schema problems, gold-edit checks, evidence), and
// maxItemText the bytes of one entry or of one class A answer's text.
const (
	maxItems    = 200
	maxItemText = 2 << 10
)

// WriteHTML writes the self-contained HTML viewer of the report: the
// verdict, the model × Threshold matrix, a plot of the document values per
// (model, class) with the median, P95 and threshold lines, a sortable table
// of every transcript with its components, and per transcript the
// instruction, the expected and produced documents as a diff, the
// diagnostics and, for class A, the answer, evidence and judge votes. It
// reads instructions and expected documents from in.Set and outputs from
// in.Transcripts; what is missing there is said to be missing.
func WriteHTML(w io.Writer, r *report.Report, in Input) error {
	// The page passes the terminal filter, as the Markdown does: the
	// template escapes markup, not ESC or a line-start "::" in a text a
	// server or a model chose, which a terminal or a CI log printing the
	// file would obey (issue 45).
	sw := safetext.NewWriter(w)
	bw := bufio.NewWriter(sw)
	p := newPage(r, in)
	if err := viewer.Execute(bw, p); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	if *p.failed != nil {
		return fmt.Errorf("writing HTML report: %w", *p.failed)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return sw.Flush()
}

// page is the template's data.
type page struct {
	R          *report.Report
	Policy     string
	CSS        template.CSS
	JS         template.JS
	Matrix     []matrixRow
	Heads      []string      // the matrix's threshold columns
	Components []string      // the drift components' column headings
	Plots      []chart.Chart // per (model, class): the documents' values
	// Reading is §8.5's reading as the verdict box shows it; nil for an
	// informational suite.
	Reading *render.ReadingView
	// Jobs counts what the run asked (render.JobsText).
	Jobs string
	// Cost is what the night cost (render.CostText); "" for an offline run.
	Cost string
	// Sections are the suite parts' sections (report.Section), each
	// with its charts and table.
	Sections []sectionView
	// FormatPlots are the answer formats' charts (a run of several):
	// drift and output tokens against document size, per model.
	FormatPlots []chart.Chart
	Gated       bool // the verdict applies the thresholds (gating, all)
	// VerdictText is the verdict line; MatrixHeading the threshold
	// table's heading (custom when any threshold differs from §8.5).
	VerdictText, MatrixHeading string
	VerdictClass               string         // pass, fail, or neutral (informational)
	Numbers                    []render.Table // the Markdown's other tables: drift, faithfulness, calls, models
	Lossless                   *render.Table
	Footnote                   string   // explains the † of the harness's own thresholds
	Warnings                   []string // the report's warnings as text (render.WarningText)
	// Rows and Transcripts yield each transcript's table row and its
	// detail, one at a time: a page of many transcripts is written
	// without holding them. failed is the first output that could not
	// be read back (Input.Outputs).
	Rows, Transcripts iter.Seq[transcriptView]
	failed            *error
}

// losslessTable lists the lossless share of every group the report
// holds: the classes (where they are corpus documents), then each
// section's rows (a section with total rows, its totals) but for the
// classes again.
func losslessTable(r *report.Report) *render.Table {
	t := &render.Table{ID: "lossless-table", Head: []string{"suite", "model", "group", "n", "lossless", "residual", "unchanged", "unrequested", "invalid"}}
	suite := suites.Of(r.Suite)
	if suite.PerDocument() {
		for _, model := range r.Models {
			for _, c := range []*report.ClassResult{r.Results[model].ClassB, r.Results[model].ClassC} {
				if c != nil {
					t.Add(r.Suite, model, "class "+c.Class, strconv.Itoa(c.Scored), unit.PercentOr(c.Lossless),
						unit.NumOr(c.ResidualMedian, "n/a")+" / "+unit.NumOr(c.ResidualP95, "n/a"), unit.PercentOr(c.Unchanged),
						unit.NumOr(c.UnrequestedMedian, "n/a")+" / "+unit.IntOr(c.UnrequestedMax), strconv.Itoa(c.Invalid))
				}
			}
		}
	}
	for _, sec := range r.Sections {
		totals := slices.ContainsFunc(sec.Rows, func(row report.Row) bool { return row.Total })
		for _, row := range sec.Rows {
			if (totals && !row.Total) || (row.Part == suite.Classes && formats.Of(row.Format).Whole && suite.PerDocument()) {
				continue
			}
			group := strings.Join(nonTotal(append(slices.Clone(row.Labels), row.Format)), " ")
			// A section's row has no residual: it is a median over a
			// class's documents (the note under the table says so; the
			// cell was blank: issue 34).
			t.Add(row.Part, row.Model, group, strconv.Itoa(row.Scored), unit.PercentOr(row.Lossless), "—",
				unit.PercentOr(row.Unchanged), unit.NumOr(row.UnrequestedMedian, "n/a")+" / "+unit.IntOr(row.UnrequestedMax), strconv.Itoa(row.Invalid))
		}
	}
	if len(t.Rows) == 0 {
		return nil
	}
	t.Sortable = true
	return t
}

// sectionView is one section of the viewer: its charts, table and
// chains' breaks.
type sectionView struct {
	ID, Title, Note, ChartNote string
	Plots                      []chart.Chart
	Table                      render.Table
	Breaks                     []string
	// RSPlots, Extra and Critical are a delegate section's RS@k curves,
	// its RS@k, loss and critical tables, and its critical round trips
	// linked to their transcripts (delegate.go).
	RSPlots  []chart.Chart
	Extra    []render.Table
	Critical []criticalLink
}

// chartNotes say how to read each kind of chart (suites.Grouping.Chart).
var chartNotes = map[string]string{
	suites.ChartSize:  "Per model, one column of marks per rung, placed by the size of the rung's document (log scale): the median drift of the rung's answers (circles, joined by a line) and their P95 (squares, dashed line); every model's plot has the same axes. Bars: the rung's cost (right axis), drawn only when some answer reported a cost (offline models cost nothing; the table gives it per rung). Hover a mark for the rung's numbers.",
	suites.ChartSteps: "Per model: the drift of every chain at every step (forward edits as circles, inverse edits as triangles; click one for its transcript), the median drift per step (line) and its exact 95% interval (band); every model's plot has the same y-scale. Steps marked ↺ expect the source itself. Each step starts from the model's own previous answer, so slips compound.",
}

// sectionViews are the report's sections as the viewer shows them.
func sectionViews(r *report.Report) []sectionView {
	var out []sectionView
	for i, sec := range r.Sections {
		v := sectionView{ID: fmt.Sprintf("section-%d", i), Title: sec.Title, Note: render.PlainNote(sec.Note), ChartNote: chartNotes[sec.Chart],
			Table: render.SectionTable(r, sec, i), Breaks: render.BreakLines(sec),
			RSPlots: rsPlots(sec), Extra: render.DelegationTables(sec, i), Critical: criticalLinks(sec)}
		switch sec.Chart {
		case suites.ChartSize:
			v.Plots = newSizePlots(sec)
		case suites.ChartSteps:
			v.Plots = newStepPlots(suites.Of(r.Suite), sec, r.Answers)
		}
		out = append(out, v)
	}
	return out
}

type matrixRow struct {
	Model    string
	Standing string
	Cells    []render.MatrixCell
	Complete render.MatrixCell
}

// matrixLine is one threshold across the models: the matrix is shown
// with the models across and the thresholds down, so that it grows down
// with more gates instead of running off a 1280 px window (issue 34).
type matrixLine struct {
	Head  string
	Cells []render.MatrixCell
}

// MatrixLines is the matrix turned: one line per threshold, then the
// complete line.
func (p page) MatrixLines() []matrixLine {
	out := make([]matrixLine, len(p.Heads)+1)
	for j, h := range p.Heads {
		out[j].Head = h
		for _, row := range p.Matrix {
			cell := row.Cells[j]
			cell.Model = row.Model
			out[j].Cells = append(out[j].Cells, cell)
		}
	}
	last := &out[len(p.Heads)]
	last.Head = "complete"
	for _, row := range p.Matrix {
		cell := row.Complete
		cell.Model = row.Model
		last.Cells = append(last.Cells, cell)
	}
	return out
}

func newPage(r *report.Report, in Input) page {
	p := page{R: r, Policy: contentPolicy(), CSS: template.CSS(viewerCSS), JS: template.JS(viewerJS), Components: metric.ComponentLabels[:]}
	ts := r.Checks()
	for _, t := range ts {
		p.Heads = append(p.Heads, t.Heading())
	}
	for i, model := range r.Models {
		mr := r.Results[model]
		row := matrixRow{Model: model, Standing: render.Standing(r, i)}
		checks := render.ModelChecks(r, i)
		for j, t := range ts {
			v := mr.Gated(t)
			cell := render.MatrixCell{Value: unit.NumOr(v, "n/a")}
			if checks != nil {
				cell = render.CellParts(checks[j], t.Share())
			}
			cell.OK = t.Holds(v) || (checks != nil && checks[j].NotSelected)
			row.Cells = append(row.Cells, cell)
		}
		n := r.Incomplete(model).Count()
		row.Complete = render.MatrixCell{Value: fmt.Sprintf("%d/%d", r.Planned(model)-n, r.Planned(model)), OK: n == 0}
		p.Matrix = append(p.Matrix, row)
	}
	// The size and relay suites have plots of their own; their tasks'
	// per-document panels would mix rungs, positions or forward and
	// inverse steps over one axis.
	if suites.Of(r.Suite).PerDocument() {
		tops := sharedTops(r)
		for _, model := range r.Models {
			for _, class := range report.Classes {
				if c := r.Results[model].Class(class); c != nil {
					p.Plots = append(p.Plots, newPlot(r, model, c, tops[class]))
				}
			}
		}
	}
	p.Sections, p.FormatPlots, p.Jobs = sectionViews(r), formatPlots(r), render.JobsText(r)
	p.Cost = strings.ReplaceAll(render.CostText(r.Cost), "`", "")
	for _, w := range r.Warnings {
		p.Warnings = append(p.Warnings, render.WarningText(w))
	}
	p.Reading = render.NewReadingView(r)
	p.Gated = !r.Informational()
	p.VerdictText = render.VerdictPlain(r) + ": " + render.VerdictReason(r) + "."
	p.VerdictClass = map[string]string{report.Pass: "pass", report.Fail: "fail"}[r.Verdict]
	if p.VerdictClass == "" || !r.Eligibility.Gates {
		p.VerdictClass = "neutral" // informational: neither a pass nor a fail
	}
	p.MatrixHeading = verdict.ThresholdsHeading(ts)
	p.Numbers = render.NumberTables(r)
	p.Lossless, p.Footnote = losslessTable(r), strings.NewReplacer("*", "", "`", "").Replace(render.OwnFootnote)
	p.failed = new(error)
	p.Rows, p.Transcripts = rowViews(r), detailViews(r, in, p.failed)
	return p
}

// anchor is the HTML id of one transcript's detail.
func anchor(model, taskID string, repeat int) string {
	return fmt.Sprintf("t-%s-%s-r%d", transcript.Slug(model), taskID, repeat)
}

// transcriptView is one row of the transcript table and its detail. Its
// numbers and names are the report's record of the answer (A, and the
// strings from Drift to Tokens); the score gives only the evidence the
// detail shows beside them (the output, diagnostics, validation problems,
// gold edit, judge votes, API error, transcript hash and finish reason).
type transcriptView struct {
	// Cuts say what of this transcript's detail was cut to keep the page
	// bounded (the transcript holds all of it).
	Cuts     []string
	ID       string
	A        report.Answer
	Score    scoring.Score
	Drift    string
	Comps    []string // the five components, or empty
	Lossless string   // B, C: yes or no
	Residual string   // B, C: the residual component
	Unreq    string   // B, C: unrequested changes
	Edit     string
	Valid    string
	Faithful string
	Tokens   int64

	Instruction string
	Reference   string   // class A reference answer
	RefEvidence []string // class A reference evidence
	Output
	Invalid     string // B, C: why the output is not a valid document
	Answer      *metric.AnswerResult
	Decision    string
	Votes       []voteView
	Diagnostics []metric.Diagnostic
	Ops         []opView
	Validation  []string
}

// Output is what the viewer shows of one model output: the expected →
// produced diff (B, C) or the raw output, or why there is neither. It is
// all the viewer keeps of a transcript, so a report of many transcripts
// can be written without holding them (Input.Outputs).
type Output struct {
	Hunks     []linediff.Hunk // B, C: expected → produced
	Identical bool            // B, C: the produced document equals the expected one line for line
	Aligned   bool            // false when the diff was too large to align
	NoDiff    string          // why there is no diff
	Raw       string          // the raw output when it holds no document to diff
	Truncated bool
	// DiffCut says what of the diff was cut (MaxShown); "" when nothing.
	DiffCut string
	// Attempts are the call's attempts as lines (attemptLines), when it
	// was retried or interrupted; none when it was answered at once.
	Attempts []string
}

// OutputOf is what the viewer shows of the answer o (scoring.Output: its
// transcript, nil when missing, and the document it made) of score s to
// task t (nil when unknown).
func OutputOf(s scoring.Score, t *task.Task, o scoring.Output) Output {
	var v transcriptView
	v.fillOutput(s, t, o)
	return v.Output
}

type opView struct {
	Op     string
	OK     bool
	Reason string
}

// rowViews yields the transcript table's rows, in the order of
// r.Answers: a row shows the report's record of the answer alone.
func rowViews(r *report.Report) iter.Seq[transcriptView] {
	return func(yield func(transcriptView) bool) {
		for _, a := range r.Answers {
			var v transcriptView
			v.setNumbers(a)
			if !yield(v) {
				return
			}
		}
	}
}

// answerKey names one (model, task, repeat).
type answerKey struct {
	model, task string
	repeat      int
}

// detailViews yields each transcript's detail, in the order of
// r.Answers, with its numbers from the answer's record, its evidence from
// its score in in.Scores (scoreSlots) and its output: read back from
// in.Outputs (the first failure is put in *failed, and the page ends
// there), else computed from in.Answers. A report without answers (one
// written before them) has no details.
func detailViews(r *report.Report, in Input, failed *error) iter.Seq[transcriptView] {
	return func(yield func(transcriptView) bool) {
		slots := scoreSlots(r.Answers, in.Scores)
		for i, a := range r.Answers {
			slot := slots[i]
			if in.Outputs == nil || slot < 0 {
				var o scoring.Output
				if slot >= 0 && slot < len(in.Answers) {
					o = in.Answers[slot]
				}
				if !yield(newTranscriptView(a, scoreAt(in, slot), taskOf(in, a.TaskID), o)) {
					return
				}
				continue
			}
			o, err := in.Outputs.Output(slot)
			if err != nil {
				*failed = err
				return
			}
			// The whole score, where the score phase kept only its
			// Compact form (issue 55).
			s, whole, err := in.Outputs.Score(slot)
			if err != nil {
				*failed = err
				return
			}
			if !whole {
				s = in.Scores[slot]
			}
			v := newTranscriptView(a, s, taskOf(in, a.TaskID), scoring.Output{})
			v.Output = o
			if !yield(v) {
				return
			}
		}
	}
}

// scoreSlots is, for each answer, the index in scores of its score: the
// one of the same model, task, repeat and answer format, each score
// given to one answer, in order; -1 for an answer without one. The
// answers are in the plan's order (report.Answers), the scores in any.
// A format is compared by its name: a score's whole-document answer has
// none, its record "document" (or none, in an older report).
func scoreSlots(answers []report.Answer, scores []scoring.Score) []int {
	type key struct {
		answerKey
		format string
	}
	free := map[key][]int{}
	for i, s := range scores {
		k := key{answerKey{s.Model, s.TaskID, s.Repeat}, formats.Of(s.Format).Name}
		free[k] = append(free[k], i)
	}
	out := make([]int, len(answers))
	for i, a := range answers {
		k := key{answerKey{a.Model, a.TaskID, a.Repeat}, formats.Of(a.Format).Name}
		out[i] = -1
		if q := free[k]; len(q) > 0 {
			out[i], free[k] = q[0], q[1:]
		}
	}
	return out
}

// scoreAt is in.Scores[i], or no score (no evidence) when i < 0.
func scoreAt(in Input, i int) scoring.Score {
	if i < 0 {
		return scoring.Score{}
	}
	return in.Scores[i]
}

// taskOf is the task of id in in.Set; nil without a set or such a task.
func taskOf(in Input, id string) *task.Task {
	if in.Set == nil {
		return nil
	}
	return in.Set.Task(id)
}

// newTranscriptView is the row and detail of answer a: its numbers from
// a, the evidence beside them from its score s, its instruction from t
// (nil when unknown) and its output from o (empty when not at hand).
func newTranscriptView(a report.Answer, s scoring.Score, t *task.Task, o scoring.Output) transcriptView {
	v := transcriptView{Score: s}
	v.setNumbers(a)
	if t != nil {
		v.Instruction = t.Text()
		v.Reference, v.RefEvidence = t.ReferenceAnswer, t.Evidence
	}
	if m := s.Metric; m != nil {
		v.Invalid = m.Reason
		v.Diagnostics, v.Validation = m.Diagnostics, m.ValidationErrors
		for _, op := range m.Ops {
			v.Ops = append(v.Ops, opView{op.Op, op.OK, op.Reason})
		}
	}
	if a := s.Answer; a != nil {
		v.Answer = a
		v.Diagnostics = a.Diagnostics
	}
	if s.Judge != nil {
		v.Decision = decisionText(s.Judge)
		v.Votes = votesOf(s.Judge)
	}
	v.fillOutput(s, t, o)
	v.bound()
	return v
}

// setNumbers sets the view's name and numbers from the report's record
// of the answer: a value that does not apply is "" (a class A answer's
// drift), an unrequested count that was not measured "n/a".
func (v *transcriptView) setNumbers(a report.Answer) {
	v.A, v.ID, v.Tokens = a, anchor(a.Model, a.TaskID, a.Repeat), a.PromptTokens+a.CompletionTokens
	if a.Drift != nil {
		v.Drift, v.Unreq = unit.Num(*a.Drift), unit.IntOr(a.Unrequested)
	}
	if a.Components != nil {
		for _, x := range a.Components {
			v.Comps = append(v.Comps, unit.Num(x))
		}
	}
	v.Edit, v.Residual = numOrEmpty(a.EditCompliance), numOrEmpty(a.Residual)
	if a.Lossless != nil {
		v.Lossless = yesNo(*a.Lossless)
	}
	if a.Valid != nil {
		v.Valid = yesNo(*a.Valid)
	}
	switch a.Judged {
	case report.JudgedFaithful, report.JudgedUnfaithful:
		v.Faithful = yesNo(a.Judged == report.JudgedFaithful)
	case report.JudgedUndecided:
		// No valid vote: not measured, as the report counts it
		// (Judging.Undecided), never "no" (unfaithful).
		v.Faithful = "undecided"
	}
}

// numOrEmpty is unit.Num of *x, or "" when x is nil.
func numOrEmpty(x *float64) string {
	if x == nil {
		return ""
	}
	return unit.Num(*x)
}

// bound cuts the model-derived lists and texts of v to the viewer's
// limits, recording what was cut.
func (v *transcriptView) bound() {
	v.Diagnostics = bound(v, "Diagnostics", v.Diagnostics, func(d *metric.Diagnostic) *string { return &d.Detail })
	v.Validation = bound(v, "Schema problems", v.Validation, func(s *string) *string { return s })
	v.Ops = bound(v, "Gold edit", v.Ops, func(o *opView) *string { return &o.Reason })
	var cut bool
	if v.Invalid, cut = clip(v.Invalid, maxItemText); cut {
		v.Cuts = append(v.Cuts, fmt.Sprintf("Why the document is not valid: cut at %d bytes.", maxItemText))
	}
	if a := v.Answer; a != nil {
		c := *a
		c.Evidence = bound(v, "Evidence", c.Evidence, func(s *string) *string { return s })
		c.Unresolved = bound(v, "Unresolved evidence", c.Unresolved, func(s *string) *string { return s })
		if c.Answer, cut = clip(c.Answer, MaxShown); cut {
			v.Cuts = append(v.Cuts, fmt.Sprintf("Answer: cut at %d bytes.", MaxShown))
		}
		if c.Reason, cut = clip(c.Reason, maxItemText); cut {
			v.Cuts = append(v.Cuts, fmt.Sprintf("Why the answer is not valid: cut at %d bytes.", maxItemText))
		}
		v.Answer = &c
	}
	for i := range v.Votes {
		vt := &v.Votes[i]
		vt.Reason, _ = clip(vt.Reason, maxItemText)
		vt.Error, _ = clip(vt.Error, maxItemText)
		vt.Quotes = bound(v, "Judge quotes", vt.Quotes, func(s *string) *string { return s })
		vt.UngroundedQuotes = bound(v, "Ungrounded judge quotes", vt.UngroundedQuotes, func(s *string) *string { return s })
	}
}

// fillOutput sets the diff (B, C) or the raw output of answer o. A patch
// answer's document is the one scoring made (o.Document): the viewer never
// applies a patch itself.
func (v *transcriptView) fillOutput(s scoring.Score, t *task.Task, o scoring.Output) {
	tr := o.Transcript
	if tr != nil {
		v.Attempts = attemptLines(tr.Attempts)
	}
	switch {
	case s.Status == scoring.StatusMissing:
		v.NoDiff = "no transcript: the run did not reach this task"
		return
	case tr == nil:
		v.NoDiff = "the output is not available to the viewer (no transcripts were given)"
		return
	case !tr.OK():
		v.NoDiff = "the call failed: there is no output"
		return
	}
	content := tr.Response.Content
	if s.Class == task.ClassA || t == nil || t.Expected == nil {
		if s.Class != task.ClassA {
			v.NoDiff = "the expected document is not available to the viewer (no task set was given)"
		}
		v.setRaw(content)
		return
	}
	if m := s.Metric; m != nil && !m.Valid {
		// Diffing the expected document against something that is not one
		// would show every line deleted: say why instead, and show it.
		v.NoDiff = "the output holds no document to compare: " + m.Reason
		v.setRaw(content)
		return
	}
	if t.Format != "" {
		// A patch: shown as written, and the document it made diffed.
		v.setRaw(content)
		content = o.Document
		if d, err := bend.Parse([]byte(content)); err == nil {
			// In bend.Marshal's member order, as the expected document
			// is: a patch library writes added objects' members sorted.
			content = string(bend.Marshal(d))
		}
	}
	out := displayDocument(content)
	if out == nil {
		v.NoDiff = "the output holds no JSON document to compare"
		v.setRaw(content)
		return
	}
	// Both sides with numbers as the metric reads them (issue 46: 1e21 →
	// 1e+21, -0 → 0 and 0.000001 → 1e-06 showed as changes).
	expected := append(bend.DisplayIndent(t.Expected.Value()), '\n')
	lines, aligned := linediff.Diff(linediff.Split(string(expected)), linediff.Split(string(out)))
	v.Hunks, v.Aligned = linediff.Hunks(lines, 3), aligned
	v.Identical = len(v.Hunks) == 0
	v.Hunks, v.DiffCut = boundHunks(v.Hunks, MaxShown)
}

// boundHunks keeps the hunks' lines up to budget bytes of text, cutting
// the line that crosses it, and says what was cut.
func boundHunks(hunks []linediff.Hunk, budget int) ([]linediff.Hunk, string) {
	total, lines := 0, 0
	for _, h := range hunks {
		for _, l := range h.Lines {
			total += len(l.Text)
			lines++
		}
	}
	if total <= budget {
		return hunks, ""
	}
	var out []linediff.Hunk
	shown, shownLines := 0, 0
	for _, h := range hunks {
		if shown >= budget {
			break
		}
		c := linediff.Hunk{Header: h.Header}
		for _, l := range h.Lines {
			if shown >= budget {
				break
			}
			if left := budget - shown; len(l.Text) > left {
				l.Text = strings.ToValidUTF8(l.Text[:left], "") + " …"
			}
			shown += len(l.Text)
			shownLines++
			c.Lines = append(c.Lines, l)
		}
		out = append(out, c)
	}
	return out, fmt.Sprintf("Diff cut at %d of its %d bytes (%d of %d lines shown); the transcript holds all of it.", budget, total, shownLines, lines)
}

// clip cuts s to n bytes (on a rune boundary), marking the cut.
func clip(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	return strings.ToValidUTF8(s[:n], "") + " …", true
}

// bound keeps the first maxItems entries of list, each clipped to
// maxItemText, and records on v what was cut under name.
func bound[T any](v *transcriptView, name string, list []T, text func(*T) *string) []T {
	clipped := 0
	out := list
	if len(list) > maxItems {
		v.Cuts = append(v.Cuts, fmt.Sprintf("%s: %d of %d shown.", name, maxItems, len(list)))
		out = list[:maxItems]
	}
	out = slices.Clone(out)
	for i := range out {
		if p := text(&out[i]); p != nil {
			var cut bool
			if *p, cut = clip(*p, maxItemText); cut {
				clipped++
			}
		}
	}
	if clipped > 0 {
		v.Cuts = append(v.Cuts, fmt.Sprintf("%s: %d entries cut at %d bytes each.", name, clipped, maxItemText))
	}
	return out
}

func (v *transcriptView) setRaw(s string) {
	if len(s) > MaxShown {
		s, v.Truncated = strings.ToValidUTF8(s[:MaxShown], ""), true
	}
	v.Raw = s
}

// displayDocument re-indents the JSON object the metric reads from a
// model's output (metric.ExtractJSON, the one extractor), in its own member
// order; nil when there is none. It is for reading only.
func displayDocument(content string) []byte {
	x := metric.ExtractJSON(content, func(v *bend.Value) bool { return v.Get("blocks") != nil })
	if x.Value == nil || x.Value.Kind != bend.Object {
		return nil
	}
	return bend.DisplayIndent(x.Value)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
