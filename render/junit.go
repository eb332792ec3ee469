package render

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
)

// The JUnit XML file, <run-id>.junit.xml, is the report in the shape every
// CI system renders as test results (the de-facto schema of Ant's JUnit
// task, which Jenkins, GitLab, GitHub test-report actions, Azure and
// CircleCI read): <testsuites> holds one <testsuite> per model and suite;
// each holds <testcase> elements, and a case fails with a <failure>, errs
// with an <error> or is <skipped>. It is a function of the Report alone,
// so it can be rebuilt from the JSON report.
//
// Per model and suite, the cases are:
//
//   - per threshold (gating suites), "thresholds.<metric>": fails with the
//     verdict's failure line when the threshold does not hold; the
//     harness's own gates carry "†" and the property-like suffix
//     "(harness gate)" in their name, and failure type "harness" (§8.5's
//     have type "§8.5");
//   - "complete": fails when the model's run is incomplete (missing
//     transcripts, API errors, class A answers nobody judged);
//   - per task and repeat, "tasks.<class>": a class B or C answer fails
//     when it is not lossless or its edit was not applied, a class A
//     answer when the judges found it unfaithful; an API error or a
//     missing transcript is an <error>. In an informational suite (size,
//     relay, natural) such answers are <skipped> with the same message,
//     so CI stays green on information.
//
// Numbers a reporter should show beside a case are in its <system-out>.

// junitSuites is the root element.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML.
func WriteJUnit(w io.Writer, r *report.Report) error {
	root := junitSuites{Name: "BendScript round-trip " + r.RunID}
	for _, model := range r.Models {
		mr := r.Results[model]
		if mr == nil {
			continue
		}
		root.Suites = append(root.Suites, modelSuite(r, model, mr))
		root.Suites = append(root.Suites, sectionSuites(r, model)...)
	}
	if rs, ok := readingSuite(r); ok {
		root.Suites = append(root.Suites, rs)
	}
	for _, f := range r.Failures {
		if f.Model == "" { // a failure of the whole run
			root.Suites = append(root.Suites, junitSuite{Name: "run", Timestamp: r.RanAt, Cases: []junitCase{{
				Name: f.Metric, Classname: "run", Failure: &junitProblem{Message: f.Message, Type: f.Metric},
			}}})
		}
	}
	for i := range root.Suites {
		s := &root.Suites[i]
		s.count()
		root.Tests += s.Tests
		root.Failures += s.Failures
		root.Errors += s.Errors
		root.Skipped += s.Skipped
	}
	// XML escapes markup, not a control or bidirectional character a
	// server chose (a model name with U+202E reached the JUnit file raw,
	// issue 53): the file passes the filter every other output does.
	sw := safetext.NewWriter(w)
	bw := bufio.NewWriter(sw)
	bw.WriteString(xml.Header)
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("writing JUnit report: %w", err)
	}
	bw.WriteString("\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	return sw.Flush()
}

// modelSuite is one model's test suite in the report's own suite.
func modelSuite(r *report.Report, model string, mr *report.ModelResult) junitSuite {
	s := junitSuite{Name: model + " · " + r.Suite, Timestamp: r.RanAt, Properties: []junitProperty{
		{"run_id", r.RunID}, {"suite", r.Suite}, {"metric_version", r.MetricVersion},
		{"corpus_hash", r.CorpusHash}, {"verdict", r.Verdict}, {"transcripts", mr.Transcripts},
	}}
	if r.APIRoot != "" {
		s.Properties = append(s.Properties, junitProperty{"api_root", r.APIRoot})
	}
	failed := map[string]verdict.Failure{}
	for _, f := range r.Failures {
		if f.Model == model {
			failed[f.Metric] = f
		}
	}
	if !r.Informational() {
		for _, t := range r.Checks() {
			name := fmt.Sprintf("%s %s %s", t.Label, unit.OpSymbol(t.Op), unit.Num(t.Limit))
			typ := "§8.5"
			if t.Own {
				name, typ = name+" † (harness gate)", verdict.SourceHarness
			}
			c := junitCase{Name: name, Classname: classname(model, r.Suite, "thresholds"),
				SystemOut: fmt.Sprintf("%s = %s", t.Metric, unit.NumOr(mr.Gated(t), "n/a"))}
			if f, ok := failed[t.Metric]; ok {
				c.Failure = &junitProblem{Message: f.Message, Type: typ}
			}
			s.Cases = append(s.Cases, c)
		}
	}
	complete := junitCase{Name: "complete", Classname: classname(model, r.Suite, "thresholds")}
	if f, ok := failed[verdict.MetricIncomplete]; ok {
		complete.Failure = &junitProblem{Message: f.Message, Type: verdict.MetricIncomplete}
	}
	s.Cases = append(s.Cases, complete)
	for _, class := range report.Classes {
		s.Cases = append(s.Cases, taskCases(model, r.Suite, mr.Class(class), !r.Informational())...)
	}
	return s
}

func classname(model, suite, group string) string {
	return model + "." + suite + "." + group
}

// taskCases are the cases of a class's answers, one per task and repeat.
// An answer that fails fails its case when gating, and skips it with the
// same message when the suite is information.
func taskCases(model, suite string, c *report.ClassResult, gating bool) []junitCase {
	if c == nil {
		return nil
	}
	var out []junitCase
	for _, d := range c.PerDocument {
		for _, rr := range d.Repeats {
			name := fmt.Sprintf("%s r%d", d.TaskID, rr.Repeat)
			out = append(out, answerCase(name, classname(model, suite, "tasks.class_"+strings.ToLower(c.Class)), c.Class, rr, gating, "suite "+suite))
		}
	}
	return out
}

// answerCase is one answer's case: an answer that was not scored is an
// error; one that fails fails the case when gating, and otherwise skips
// it as information, naming what decides no verdict (decider).
func answerCase(name, classname, class string, rr report.RepeatResult, gating bool, decider string) junitCase {
	jc := junitCase{Name: name, Classname: classname}
	what, problem := answerOutcome(class, rr)
	jc.SystemOut = what
	switch {
	case rr.Status != "scored":
		jc.Error = &junitProblem{Message: what, Type: rr.Status}
	case problem && gating:
		jc.Failure = &junitProblem{Message: what, Type: "answer"}
	case problem:
		jc.Skipped = &junitProblem{Message: "information (" + decider + " decides no verdict): " + what}
	}
	if rr.Transcript != "" {
		jc.SystemOut += "\ntranscript: " + rr.Transcript
	}
	return jc
}

// answerOutcome says what one answer was and whether it fails its case.
func answerOutcome(class string, rr report.RepeatResult) (string, bool) {
	switch rr.Status {
	case "scored":
	case "missing":
		return "no transcript: the run did not reach this answer", true
	default:
		return "the call failed (" + rr.Status + "): no answer to score", true
	}
	if class == task.ClassA {
		switch {
		case rr.Faithful == nil:
			return "no judge decided this answer", true
		case !*rr.Faithful:
			return "judged unfaithful", true
		}
		return "judged faithful", false
	}
	drift := "drift " + unit.NumOr(rr.Drift, "n/a")
	lossless := rr.Lossless != nil && *rr.Lossless
	applied := rr.EditApplied != nil && *rr.EditApplied
	switch {
	case lossless:
		return "lossless (" + drift + ")", false
	case !applied:
		return "edit not applied, not lossless (" + drift + ")", true
	}
	return "edit applied but not lossless (" + drift + ", residual " + unit.NumOr(rr.Residual, "n/a") + ", unrequested changes " + unit.IntOr(rr.Unrequested) + ")", true
}

// readingSuite is §8.5's reading as test cases, for a gating suite's
// report: whether the run can gate v0.1 (skipped, with every reason, when
// it cannot: information, not a failure of the run), each model's standing
// (failed when it fails a threshold, narrowly or not), and the reading
// (failed on a protocol failure, skipped when inconclusive).
func readingSuite(r *report.Report) (junitSuite, bool) {
	rd := r.Reading
	if r.Informational() || rd.Outcome == "" {
		return junitSuite{}, false
	}
	s := junitSuite{Name: "§8.5 reading", Timestamp: r.RanAt}
	cls := classname("run", r.Suite, "reading")
	elig := junitCase{Name: "can gate v0.1 (§8.6)", Classname: cls}
	if !r.Eligibility.Gates {
		elig.Skipped = &junitProblem{Message: "this run cannot gate v0.1: " + strings.Join(r.Eligibility.Reasons, "; ")}
	}
	s.Cases = append(s.Cases, elig)
	for _, m := range rd.Models {
		c := junitCase{Name: m.Model + ": " + m.Standing, Classname: cls}
		var short []string
		for _, ch := range m.Checks {
			if !ch.Holds {
				short = append(short, ch.Text)
			}
		}
		if len(short) > 0 {
			c.Failure = &junitProblem{Message: strings.Join(short, "; "), Type: m.Standing}
		}
		s.Cases = append(s.Cases, c)
	}
	out := junitCase{Name: "reading: " + rd.Outcome, Classname: cls, SystemOut: rd.Says + ": " + rd.Why}
	switch rd.Outcome {
	case verdict.ReadingProtocolFailure:
		out.Failure = &junitProblem{Message: rd.Says + ": " + rd.Why, Type: rd.Outcome}
	case verdict.ReadingInconclusive:
		out.Skipped = &junitProblem{Message: rd.Says}
	}
	s.Cases = append(s.Cases, out)
	return s, true
}

// sectionSuites are a model's answers in each section, a suite per
// section, as information: one case per answer in every group and answer
// format (the classes' whole-document answers have their cases in the
// model's own suite).
func sectionSuites(r *report.Report, model string) []junitSuite {
	classes := suites.Of(r.Suite).Classes
	var out []junitSuite
	for _, sec := range r.Sections {
		s := junitSuite{Name: model + " · " + sec.Title, Timestamp: r.RanAt}
		for _, row := range sec.Rows {
			if row.Model != model || row.Total || (row.Part == classes && formatsWhole(row.Format)) {
				continue
			}
			group := strings.Join(append(slices.Clone(row.Labels), row.Format), " ")
			s.Cases = append(s.Cases, rowCases(model, row.Part, group, row)...)
		}
		if len(s.Cases) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// rowCases are the cases of a section row's answers, one per task and
// repeat, as information: an answer that fails skips its case.
func rowCases(model, part, group string, row report.Row) []junitCase {
	var out []junitCase
	for _, d := range row.PerDocument {
		for _, rr := range d.Repeats {
			name := fmt.Sprintf("%s r%d", d.TaskID, rr.Repeat)
			out = append(out, answerCase(name, classname(model, part, group), task.ClassB, rr, false, part))
		}
	}
	return out
}

// count sets a suite's totals from its cases.
func (s *junitSuite) count() {
	s.Tests = len(s.Cases)
	for _, c := range s.Cases {
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
}
