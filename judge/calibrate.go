package judge

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// CalibrationSeed is the seed of every calibration request.
const CalibrationSeed int64 = 0

// CalibrationReport is how well judges agree with the hand labels of the
// calibration set and with each other.
type CalibrationReport struct {
	// PromptVersion and PromptHash identify the judge template used.
	PromptVersion string `json:"prompt_version"`
	PromptHash    string `json:"prompt_hash"`
	// Cases is the number of labelled answers; Tasks the number of tasks
	// they answer.
	Cases int `json:"cases"`
	Tasks int `json:"tasks"`
	// LabelCounts is the number of cases per label, in the order of Labels.
	LabelCounts []LabelCount `json:"label_counts"`
	// Judges scores each judge, in the order asked.
	Judges []JudgeScore `json:"judges"`
	// Panel scores the majority decision of all judges (Decide); nil with
	// one judge.
	Panel *JudgeScore `json:"panel,omitempty"`
	// Agreement is the agreement between judges; nil with one judge.
	Agreement *Agreement `json:"agreement,omitempty"`
	// Results holds every case's votes, in case order.
	Results []CaseResult `json:"results"`
}

// LabelCount is the number of cases with one label.
type LabelCount struct {
	Label string `json:"label"`
	Cases int    `json:"cases"`
}

// JudgeScore is one judge's (or the panel's) record on the calibration set.
// Faithful is the positive class.
type JudgeScore struct {
	Judge string `json:"judge"`
	// Cases is the number of cases asked; Correct those whose verdict
	// matches the label; Errors those without a verdict (judge errors, or
	// for the panel no valid vote), which count as not correct.
	Cases   int `json:"cases"`
	Correct int `json:"correct"`
	Errors  int `json:"errors"`
	// Accuracy is Correct / Cases.
	Accuracy float64 `json:"accuracy"`
	// TruePositive: faithful judged faithful; FalseNegative: faithful
	// judged unfaithful; FalsePositive: unfaithful or partly fabricated
	// judged faithful; TrueNegative: those judged unfaithful.
	TruePositive  int `json:"true_positive"`
	FalseNegative int `json:"false_negative"`
	FalsePositive int `json:"false_positive"`
	TrueNegative  int `json:"true_negative"`
	// Ungrounded counts valid verdicts that quote text the document does
	// not hold; for the panel, decisions with at least one such vote.
	Ungrounded int `json:"ungrounded"`
	// ByLabel is the record per label, in the order of Labels.
	ByLabel []LabelScore `json:"by_label"`
	// KappaVsLabels is Cohen's κ between the verdicts and the labels over
	// the cases with a verdict; nil when undefined.
	KappaVsLabels *float64 `json:"kappa_vs_labels"`
}

// LabelScore is a judge's record on the cases of one label.
type LabelScore struct {
	Label   string `json:"label"`
	Cases   int    `json:"cases"`
	Correct int    `json:"correct"`
	Errors  int    `json:"errors"`
}

// Agreement is the chance-corrected agreement between judges, over the
// cases on which every judge gave a verdict.
type Agreement struct {
	// Method is "cohen" for two judges, "fleiss" for three or more.
	Method string `json:"method"`
	Judges int    `json:"judges"`
	// Cases is the number of cases every judge gave a verdict on.
	Cases int `json:"cases"`
	// Observed is the observed agreement: p_o (Cohen) or P̄ (Fleiss).
	Observed float64 `json:"observed"`
	// Kappa is κ; nil when undefined (see CohenKappa, FleissKappa).
	Kappa *float64 `json:"kappa"`
}

// CaseResult is every judge's vote on one case.
type CaseResult struct {
	Case  string `json:"case"`
	Label string `json:"label"`
	// Votes is one vote per judge, in the order of CalibrationReport.Judges.
	Votes []Vote `json:"votes"`
}

// CalibrationCalls returns the votes a calibration asks for: each judge
// about each case, with the judge template, temperature 0 and
// CalibrationSeed, case by case and within a case judge by judge (call
// i·len(judges)+k is judge k on case i). The caller sends them (the
// runner) and hands the transcripts to Calibration. It fails only for
// configuration: no judge, or a case for a task that is not a class A task
// of set.
func CalibrationCalls(set *task.Set, cases []Case, judges []string) ([]Call, error) {
	if len(judges) == 0 {
		return nil, fmt.Errorf("calibrate: no judges given")
	}
	p := DefaultPrompt()
	var calls []Call
	for _, c := range cases {
		t := set.Task(c.TaskID)
		if t == nil || t.Class != task.ClassA {
			return nil, fmt.Errorf("calibrate: case %s: %s is not a class A task", c.ID(), c.TaskID)
		}
		for _, j := range judges {
			req := BuildRequest(t, c.Answer, j, CalibrationSeed, p)
			rec := transcript.Transcript{Kind: transcript.KindJudge, Model: j, TaskID: t.ID, Class: task.ClassA,
				Hashes: transcript.Hashes{Task: p.Hash, Document: t.Source.Hash}, Request: transcript.RequestOf(req)}
			calls = append(calls, Call{Judge: j, Request: req, Record: rec})
		}
	}
	return calls, nil
}

// Calibration scores the judges' replies to CalibrationCalls(set, cases,
// judges), given in the same order, against the labels. A reply is read
// as a run's judge transcript is (VerdictFrom): one without a response,
// or that ParseVote rejects, is a judge error, counted and not returned.
func Calibration(set *task.Set, cases []Case, judges []string, replies []*transcript.Transcript) *CalibrationReport {
	votes := make([][]Vote, len(cases))
	for i, c := range cases {
		for k := range judges {
			votes[i] = append(votes[i], voteFrom(set.Task(c.TaskID), replies[i*len(judges)+k]))
		}
	}
	return score(DefaultPrompt(), cases, judges, votes)
}

// score computes the report from the votes (votes[case][judge]).
func score(p *Prompt, cases []Case, judges []string, votes [][]Vote) *CalibrationReport {
	r := &CalibrationReport{PromptVersion: p.Version, PromptHash: p.Hash, Cases: len(cases)}
	taskIDs := map[string]bool{}
	for _, l := range Labels {
		n := 0
		for _, c := range cases {
			if c.Label == l {
				n++
			}
		}
		r.LabelCounts = append(r.LabelCounts, LabelCount{l, n})
	}
	for i, c := range cases {
		taskIDs[c.TaskID] = true
		r.Results = append(r.Results, CaseResult{Case: c.ID(), Label: c.Label, Votes: votes[i]})
	}
	r.Tasks = len(taskIDs)
	for k, j := range judges {
		verdicts := make([]*bool, len(cases))
		grounded := make([]bool, len(cases))
		for i := range cases {
			if v := votes[i][k]; v.Valid() {
				verdicts[i], grounded[i] = v.Faithful, v.Grounded
			}
		}
		r.Judges = append(r.Judges, scoreJudge(j, cases, verdicts, grounded))
	}
	if len(judges) < 2 {
		return r
	}
	verdicts := make([]*bool, len(cases))
	grounded := make([]bool, len(cases))
	for i := range cases {
		if d := Decide(votes[i]); d.Decision != DecisionNoVote {
			f := d.Faithful
			verdicts[i], grounded[i] = &f, d.UngroundedVotes == 0
		}
	}
	panel := scoreJudge("panel (majority)", cases, verdicts, grounded)
	r.Panel = &panel
	r.Agreement = agreement(votes, len(judges))
	return r
}

// scoreJudge scores one column of verdicts (nil: no verdict).
func scoreJudge(name string, cases []Case, verdicts []*bool, grounded []bool) JudgeScore {
	s := JudgeScore{Judge: name, Cases: len(cases)}
	by := map[string]*LabelScore{}
	for _, l := range Labels {
		by[l] = &LabelScore{Label: l}
	}
	var truth, said []int
	for i, c := range cases {
		ls := by[c.Label]
		ls.Cases++
		v := verdicts[i]
		if v == nil {
			s.Errors++
			ls.Errors++
			continue
		}
		if !grounded[i] {
			s.Ungrounded++
		}
		if *v == c.Faithful() {
			s.Correct++
			ls.Correct++
		}
		switch {
		case c.Faithful() && *v:
			s.TruePositive++
		case c.Faithful():
			s.FalseNegative++
		case *v:
			s.FalsePositive++
		default:
			s.TrueNegative++
		}
		truth = append(truth, b2i(c.Faithful()))
		said = append(said, b2i(*v))
	}
	if s.Cases > 0 {
		s.Accuracy = float64(s.Correct) / float64(s.Cases)
	}
	for _, l := range Labels {
		s.ByLabel = append(s.ByLabel, *by[l])
	}
	if k, ok := CohenKappa(truth, said, 2); ok {
		s.KappaVsLabels = &k
	}
	return s
}

// agreement computes the agreement between n ≥ 2 judges over the cases
// every judge gave a verdict on.
func agreement(votes [][]Vote, n int) *Agreement {
	a := &Agreement{Method: "fleiss", Judges: n}
	if n == 2 {
		a.Method = "cohen"
	}
	var rows [][]int
	var first, second []int
	for _, vs := range votes {
		row := []int{0, 0}
		all := true
		for _, v := range vs {
			if !v.Valid() {
				all = false
				break
			}
			row[b2i(*v.Faithful)]++
		}
		if !all {
			continue
		}
		rows = append(rows, row)
		first = append(first, b2i(*vs[0].Faithful))
		if n == 2 {
			second = append(second, b2i(*vs[1].Faithful))
		}
	}
	a.Cases = len(rows)
	if a.Cases == 0 {
		return a
	}
	var k float64
	var ok bool
	if n == 2 {
		agree := 0
		for i := range first {
			if first[i] == second[i] {
				agree++
			}
		}
		a.Observed = float64(agree) / float64(len(first))
		k, ok = CohenKappa(first, second, 2)
	} else {
		sum := 0.0
		for _, row := range rows {
			sum += float64(row[0]*row[0]+row[1]*row[1]-n) / float64(n*(n-1))
		}
		a.Observed = sum / float64(len(rows))
		k, ok = FleissKappa(rows)
	}
	if ok {
		a.Kappa = &k
	}
	return a
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// WriteJSON prints the report as indented JSON, for scripts.
func (r *CalibrationReport) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// WriteText prints the report as the tables harness judge calibrate shows:
// the labels, accuracy per judge and per label, the confusion counts, the
// agreement between judges, and every case a judge got wrong.
func (r *CalibrationReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Judge calibration: %d labelled answers to %d class A tasks (prompt %s, sha256 %s)\n", r.Cases, r.Tasks, r.PromptVersion, short(r.PromptHash))
	labels := make([]string, len(r.LabelCounts))
	for i, l := range r.LabelCounts {
		labels[i] = fmt.Sprintf("%d %s", l.Cases, l.Label)
	}
	fmt.Fprintf(&b, "Labels: %s. Only faithful answers should be judged faithful.\n\n", strings.Join(labels, ", "))
	r.writeScores(&b)
	r.writeAgreement(&b)
	r.writeMisjudged(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeScores prints accuracy per judge and per label, then the confusion
// counts, the panel (when there is one) as a judge of its own.
func (r *CalibrationReport) writeScores(b *strings.Builder) {
	scores := append([]JudgeScore(nil), r.Judges...)
	if r.Panel != nil {
		scores = append(scores, *r.Panel)
	}
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "judge\taccuracy\t")
	for _, l := range Labels {
		fmt.Fprintf(tw, "%s\t", l)
	}
	fmt.Fprint(tw, "errors\tungrounded\tκ vs labels\n")
	for _, s := range scores {
		fmt.Fprintf(tw, "%s\t%.3f\t", s.Judge, s.Accuracy)
		for _, ls := range s.ByLabel {
			fmt.Fprintf(tw, "%d/%d\t", ls.Correct, ls.Cases)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\n", s.Errors, s.Ungrounded, kappaText(s.KappaVsLabels))
	}
	tw.Flush()

	b.WriteString("\nConfusion (faithful is positive):\n")
	tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "judge\tTP\tFN\tFP\tTN\n")
	for _, s := range scores {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", s.Judge, s.TruePositive, s.FalseNegative, s.FalsePositive, s.TrueNegative)
	}
	tw.Flush()
}

// writeAgreement prints the agreement between judges: Cohen's κ for two,
// Fleiss' κ for more, n/a for one.
func (r *CalibrationReport) writeAgreement(b *strings.Builder) {
	b.WriteString("\nAgreement between judges: ")
	switch a := r.Agreement; {
	case a == nil:
		b.WriteString("n/a (one judge)\n")
	case a.Cases == 0:
		fmt.Fprintf(b, "n/a (no case with a verdict from all %d judges)\n", a.Judges)
	default:
		method := "Cohen's κ"
		if a.Method == "fleiss" {
			method = "Fleiss' κ"
		}
		fmt.Fprintf(b, "%s = %s, observed agreement %.3f, over %d cases with a verdict from all %d judges\n", method, kappaText(a.Kappa), a.Observed, a.Cases, a.Judges)
	}
}

// writeMisjudged prints every vote that does not match its case's label.
func (r *CalibrationReport) writeMisjudged(b *strings.Builder) {
	b.WriteString("\nMisjudged cases:\n")
	n := 0
	for _, c := range r.Results {
		for _, v := range c.Votes {
			if line := misjudged(c, v); line != "" {
				fmt.Fprintf(b, "  %s\n", line)
				n++
			}
		}
	}
	if n == 0 {
		b.WriteString("  none\n")
	}
}

// misjudged describes a vote that does not match its case's label, or ""
// when it does.
func misjudged(c CaseResult, v Vote) string {
	switch {
	case !v.Valid():
		return fmt.Sprintf("%-32s %-18s %s: error: %s", c.Case, c.Label, v.Judge, v.Error)
	case *v.Faithful == (c.Label == LabelFaithful):
		return ""
	case *v.Faithful:
		return fmt.Sprintf("%-32s %-18s %s: judged faithful", c.Case, c.Label, v.Judge)
	}
	return fmt.Sprintf("%-32s %-18s %s: judged unfaithful: %s", c.Case, c.Label, v.Judge, v.Reason)
}

func kappaText(k *float64) string {
	if k == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", *k)
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}
