package aggregate

import (
	"cmp"
	"slices"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
)

// Answers are the records of in.Scores (report.Report.Answers), in the run's
// plan order whatever the order of the scores: by model (as the
// manifest's models), task (as its task ids) and repeat, then answer
// format; an answer of a model or task the manifest does not name comes
// after those it names, by name. The plan order is the order a run and a
// rescore score in (scoring.Stream), so the CSV and the viewer list the
// answers as they always have.
func Answers(in Input) []report.Answer {
	out := make([]report.Answer, len(in.Scores))
	for i := range in.Scores {
		out[i] = AnswerOf(&in.Scores[i])
	}
	models, tasks := indexOf(in.Manifest.Models), indexOf(in.Manifest.TaskIDs)
	slices.SortStableFunc(out, func(a, b report.Answer) int {
		return cmp.Or(compareIn(models, a.Model, b.Model), compareIn(tasks, a.TaskID, b.TaskID),
			cmp.Compare(a.Repeat, b.Repeat), cmp.Compare(a.Format, b.Format))
	})
	return out
}

// compareIn orders x and y by their place in at, a name at has none
// after every name it has, by name.
func compareIn(at map[string]int, x, y string) int {
	i, okX := at[x]
	j, okY := at[y]
	switch {
	case okX && okY:
		return cmp.Compare(i, j)
	case okX != okY:
		return map[bool]int{true: -1, false: 1}[okX]
	}
	return cmp.Compare(x, y)
}

// answerFormat is an answer's format as the report names it ("document"
// for the whole document, as every table and the delegation name it;
// issue 56: the record said nothing where the tables said document), ""
// for a class A answer, which answers in prose.
func answerFormat(s *scoring.Score) string {
	if s.Class == task.ClassA {
		return ""
	}
	return formatName(s)
}

// AnswerOf is the record of one score.
func AnswerOf(s *scoring.Score) report.Answer {
	a := report.Answer{Model: s.Model, TaskID: s.TaskID, Class: s.Class, Document: s.Document,
		Part: s.Suite, Format: answerFormat(s), Chain: s.Chain, Step: s.Step, Repeat: s.Repeat, Status: s.Status,
		PromptTokens: s.Usage.PromptTokens, CompletionTokens: s.Usage.CompletionTokens, TokensEstimated: s.Usage.Estimated,
		LatencyMS: s.LatencyMS, Attempts: s.Attempts, Transcript: s.Transcript}
	if s.Usage.Cost != nil {
		a.CostUSD = new(*s.Usage.Cost)
	}
	if m := s.Metric; m != nil {
		comps := m.Components.List()
		a.Drift, a.Components, a.Lossless, a.Residual = new(m.Drift), &comps, new(m.Lossless), new(m.Residual)
		a.EditCompliance, a.Valid = new(m.EditCompliance), new(m.Valid)
		if m.UnrequestedChanges != nil {
			a.Unrequested = new(*m.UnrequestedChanges)
		}
	}
	if s.Answer != nil {
		a.Valid = new(s.Answer.Valid)
	}
	if s.Judge != nil {
		a.Judged = report.JudgedUndecided
		if faithful, decided := Decision(s.Judge); decided {
			a.Judged = map[bool]string{true: report.JudgedFaithful, false: report.JudgedUnfaithful}[faithful]
		}
	}
	return a
}
