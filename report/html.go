package report

import (
	"bufio"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
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
		cspHash(viewerCSS), cspHash(viewerJS))
}

func cspHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// MaxShown bounds the characters of one raw model output shown in the
// viewer; the transcript holds all of it.
const MaxShown = 64 << 10

// WriteHTML writes the self-contained HTML viewer of the report: the
// verdict, the model × threshold matrix, a plot of the document values per
// (model, class) with the median, P95 and threshold lines, a sortable table
// of every transcript with its components, and per transcript the
// instruction, the expected and produced documents as a diff, the
// diagnostics and, for class A, the answer, evidence and judge votes. It
// reads instructions and expected documents from in.Set and outputs from
// in.Transcripts; what is missing there is said to be missing.
func WriteHTML(w io.Writer, r *Report, in Input) error {
	bw := bufio.NewWriter(w)
	if err := viewer.Execute(bw, newPage(r, in)); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return bw.Flush()
}

// page is the template's data.
type page struct {
	R           *Report
	Policy      string
	CSS         template.CSS
	JS          template.JS
	Matrix      []matrixRow
	Heads       []string // the matrix's threshold columns
	Components  []string // the drift components' column headings
	Plots       []chart  // per (model, class): the documents' values
	SizePlots   []chart  // the size suite: drift and cost against size, per model
	SizeCost    bool     // the size plots draw cost bars: some cost was reported
	SizeTable   *htmlTable
	RelayPlots  []chart // the relay suite: drift against step, per model
	RelayTable  *htmlTable
	RelayBreaks []string
	Gated       bool // the verdict applies the thresholds (gating, all)
	Natural     *htmlTable
	Numbers     []htmlTable // the Markdown's other tables: drift, faithfulness, calls, models
	Lossless    []losslessRow
	Footnote    string // explains the † of the harness's own thresholds
	Transcripts []transcriptView
}

// losslessRow is one group of B/C answers in the viewer's lossless table:
// a (model, class) of the gating or natural suite, a size rung or a relay
// step.
type losslessRow struct {
	Suite, Model, Group                        string
	N                                          int
	Lossless, Residual, Unchanged, Unrequested string
	Invalid                                    int
}

// losslessRows lists the lossless share of every group the report holds.
func losslessRows(r *Report) []losslessRow {
	var out []losslessRow
	class := func(suite, model string, c *ClassResult) {
		if c == nil || c.Class == task.ClassA {
			return
		}
		out = append(out, losslessRow{suite, model, "class " + c.Class, c.Scored, percentOr(c.LosslessRate),
			numOr(c.ResidualMedian, "n/a") + " / " + numOr(c.ResidualP95, "n/a"), percentOr(c.UnchangedRate),
			numOr(c.UnrequestedMedian, "n/a") + " / " + intOr(c.UnrequestedMax), c.Invalid})
	}
	if len(r.Size) == 0 {
		for _, model := range r.Models {
			class(r.Suite, model, r.Results[model].ClassB)
			class(r.Suite, model, r.Results[model].ClassC)
		}
	}
	for _, model := range r.Models {
		if nr := r.Natural[model]; nr != nil {
			class("natural", model, nr.ClassB)
			class("natural", model, nr.ClassC)
		}
	}
	for _, row := range r.Size {
		if row.Position == PositionAll {
			out = append(out, losslessRow{"size", row.Model, "rung " + row.Rung, row.Scored, percentOr(row.Lossless), "", "", "", row.Invalid})
		}
	}
	for _, st := range r.Relay {
		out = append(out, losslessRow{"relay", st.Model, fmt.Sprintf("step %d (%s)", st.Step, st.Edit), st.Scored, percentOr(st.Lossless), "", "", "", 0})
	}
	return out
}

type matrixRow struct {
	Model    string
	Cells    []matrixCell
	Complete matrixCell
}

type matrixCell struct {
	Text string
	OK   bool
}

func newPage(r *Report, in Input) page {
	p := page{R: r, Policy: contentPolicy(), CSS: template.CSS(viewerCSS), JS: template.JS(viewerJS), Components: metric.ComponentLabels[:]}
	ts := r.thresholds()
	for _, t := range ts {
		p.Heads = append(p.Heads, fmt.Sprintf("%s %s %s%s", t.label, opSymbol(t.op), num(t.limit), dagger(t.own)))
	}
	for _, model := range r.Models {
		mr := r.Results[model]
		row := matrixRow{Model: model}
		for _, t := range ts {
			v := t.value(mr)
			row.Cells = append(row.Cells, matrixCell{numOr(v, "n/a"), t.holds(v)})
		}
		n, _ := incomplete(mr)
		row.Complete = matrixCell{fmt.Sprintf("%d/%d", planned(mr)-n, planned(mr)), n == 0}
		p.Matrix = append(p.Matrix, row)
	}
	// The size and relay suites have plots of their own; their tasks'
	// per-document panels would mix rungs, positions or forward and
	// inverse steps over one axis.
	if r.Suite != SuiteSize && r.Suite != SuiteRelay {
		tops := sharedTops(r)
		for _, model := range r.Models {
			for _, class := range Classes {
				if c := r.Results[model].Class(class); c != nil {
					p.Plots = append(p.Plots, newPlot(r, model, c, tops[class]))
				}
			}
		}
	}
	p.SizePlots, p.SizeTable = newSizePlots(r), sizeTable(r)
	for _, row := range r.Size {
		p.SizeCost = p.SizeCost || row.Cost > 0
	}
	p.RelayPlots, p.RelayTable, p.RelayBreaks = newRelayPlots(r, in), relayTable(r), relayBreaks(r)
	p.Gated = gated(r.Suite)
	p.Natural = naturalTable(r)
	p.Numbers = numberTables(r)
	p.Lossless, p.Footnote = losslessRows(r), strings.NewReplacer("*", "", "`", "").Replace(ownFootnote)
	p.Transcripts = transcriptViews(in)
	return p
}

// anchor is the HTML id of one transcript's detail.
func anchor(model, taskID string, repeat int) string {
	return fmt.Sprintf("t-%s-%s-r%d", transcript.Slug(model), taskID, repeat)
}

// transcriptView is one row of the transcript table and its detail.
type transcriptView struct {
	ID       string
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
}

// OutputOf is what the viewer shows of the answer transcript tr (nil when
// missing) of score s to task t (nil when unknown).
func OutputOf(s scoring.Score, t *task.Task, tr *transcript.Transcript) Output {
	var v transcriptView
	v.fillOutput(s, t, tr)
	return v.Output
}

type opView struct {
	Op     string
	OK     bool
	Reason string
}

func transcriptViews(in Input) []transcriptView {
	if in.Outputs != nil {
		views := make([]transcriptView, 0, len(in.Scores))
		for i, s := range in.Scores {
			var t *task.Task
			if in.Set != nil {
				t = in.Set.Task(s.TaskID)
			}
			v := newTranscriptView(s, t, nil)
			v.Output = in.Outputs[i]
			views = append(views, v)
		}
		return views
	}
	outputs := map[key]*transcript.Transcript{}
	for _, t := range in.Transcripts {
		if t.Kind == transcript.KindTask {
			outputs[key{t.Model, t.TaskID, t.Repeat}] = t
		}
	}
	views := make([]transcriptView, 0, len(in.Scores))
	for _, s := range in.Scores {
		var t *task.Task
		if in.Set != nil {
			t = in.Set.Task(s.TaskID)
		}
		views = append(views, newTranscriptView(s, t, outputs[key{s.Model, s.TaskID, s.Repeat}]))
	}
	return views
}

func newTranscriptView(s scoring.Score, t *task.Task, tr *transcript.Transcript) transcriptView {
	v := transcriptView{ID: anchor(s.Model, s.TaskID, s.Repeat), Score: s, Tokens: s.Usage.PromptTokens + s.Usage.CompletionTokens}
	if t != nil {
		v.Instruction = t.Text()
		v.Reference, v.RefEvidence = t.ReferenceAnswer, t.Evidence
	}
	if m := s.Metric; m != nil {
		v.Drift = num(m.Drift)
		for _, x := range m.Components.List() {
			v.Comps = append(v.Comps, num(x))
		}
		v.Edit = num(m.EditCompliance)
		v.Valid = yesNo(m.Valid)
		v.Lossless, v.Residual, v.Unreq = yesNo(m.Lossless), num(m.Residual), intOr(m.UnrequestedChanges)
		v.Invalid = m.Reason
		v.Diagnostics, v.Validation = m.Diagnostics, m.ValidationErrors
		for _, op := range m.Ops {
			v.Ops = append(v.Ops, opView{op.Op, op.OK, op.Reason})
		}
	}
	if a := s.Answer; a != nil {
		v.Answer = a
		v.Valid = yesNo(a.Valid)
		v.Diagnostics = a.Diagnostics
	}
	if s.Judge != nil {
		faithful, _ := decision(s.Judge)
		v.Faithful = yesNo(faithful)
		v.Decision = decisionText(s.Judge)
		v.Votes = votesOf(s.Judge)
	}
	v.fillOutput(s, t, tr)
	return v
}

// fillOutput sets the diff (B, C) or the raw output.
func (v *transcriptView) fillOutput(s scoring.Score, t *task.Task, tr *transcript.Transcript) {
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
	out := displayDocument(content)
	if out == nil {
		v.NoDiff = "the output holds no JSON document to compare"
		v.setRaw(content)
		return
	}
	lines, aligned := linediff.Diff(linediff.Split(string(bend.Marshal(t.Expected))), linediff.Split(string(out)))
	v.Hunks, v.Aligned = linediff.Hunks(lines, 3), aligned
	v.Identical = len(v.Hunks) == 0
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
	return bend.MarshalValueIndent(x.Value)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
