package scoring

import (
	"fmt"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// FirstTry is what the first answer of a (model, task, repeat) scored, in
// a run that asks feedback rounds (--feedback N > 0): the numbers of a
// one-shot run, beside the score of the last round's answer.
type FirstTry struct {
	// WellFormed is WellFormed of the first answer: it parsed in its
	// format, applied, and made a schema-valid document.
	WellFormed bool `json:"well_formed"`
	// EditApplied and Lossless are the first answer's metric.Result
	// fields (false when it was not well-formed and gave no document).
	EditApplied bool `json:"edit_applied"`
	Lossless    bool `json:"lossless"`
	// Problem is what the first answer was told when it was not
	// well-formed (Problem); "" when it was.
	Problem string `json:"problem,omitempty"`
}

// WellFormed reports whether an answer's result is well-formed: no
// failure to parse or apply in its format, a document found (metric
// Valid) and bend.Validate content with it (SchemaValid). An answer that
// is not is asked again in a run with feedback rounds.
func WellFormed(res *metric.Result, fail *formats.Failure) bool {
	return fail == nil && res != nil && res.Valid && res.SchemaValid
}

// WellFormed reports whether a scored class B/C answer is well-formed
// (the package function); false for any other score.
func (s *Score) WellFormed() bool {
	return s.Status == StatusScored && s.Metric != nil && WellFormed(s.Metric, s.ApplyFailure)
}

// Problem is the mechanical failure of an answer that is not well-formed,
// as the feedback round states it: the failing operation or block and the
// applier's reason, or why no document was found, or the validator's
// errors with their JSON pointers. It never holds the expected document
// or any score; "" when the answer is well-formed.
func Problem(res *metric.Result, fail *formats.Failure) string {
	switch {
	case WellFormed(res, fail):
		return ""
	case fail != nil:
		return fail.Error()
	case res == nil:
		return "the answer could not be read"
	case !res.Valid:
		return res.Reason
	}
	more := ""
	if n := res.ValidationErrorCount - len(res.ValidationErrors); n > 0 {
		more = fmt.Sprintf("\n(and %d more)", n)
	}
	problems := "problems"
	if res.ValidationErrorCount == 1 {
		problems = "problem"
	}
	return fmt.Sprintf("the document is not a valid .bend document (%d %s):\n%s%s", res.ValidationErrorCount, problems, strings.Join(res.ValidationErrors, "\n"), more)
}

// Check returns the Problem of raw as an answer to t given the document
// given, as Metric would score it: what a feedback round would tell the
// model, "" when the answer is well-formed. It reads only the answer's
// form (its format applied, then metric.Validity), which is all Problem
// reads, and not the drift: the check runs in the runner's loop, and
// scoring a 16 MiB answer whole stalled it for seconds (issue 45). A
// natural task, whose ids are aligned before validation, is scored
// whole. TestCheckAgreesWithMetric holds the two equal.
func Check(t *task.Task, given []byte, raw string) (problem string) {
	if len(t.Names) > 0 || len(edit.Placeholders(t.GoldEdit)) > 0 {
		res, fail := Metric(t, given, raw, metric.DefaultWeights())
		return Problem(&res, fail)
	}
	defer func() {
		if p := recover(); p != nil {
			res := metric.Result{Reason: formats.Crashed(p)}
			problem = Problem(&res, nil)
		}
	}()
	if t.Format != "" {
		out, fail := apply(t.Format, given, raw)
		if fail != nil {
			return Problem(nil, fail)
		}
		raw = string(out)
	}
	res := metric.Validity(raw)
	return Problem(&res, nil)
}

// firstTry is the FirstTry of a scored first answer.
func firstTry(s *Score) *FirstTry {
	if s.Status != StatusScored || s.Metric == nil {
		return nil
	}
	return &FirstTry{WellFormed: s.WellFormed(), EditApplied: s.Metric.EditApplied, Lossless: s.Metric.Lossless,
		Problem: Problem(s.Metric, s.ApplyFailure)}
}

// scoreRounds scores a class B/C answer of a run that asks feedback
// rounds: first is the first answer's score and Output. Round k is
// read only while the answer before it is not well-formed (the rule the
// run asked rounds by, so that a rescore reads what a run would ask), up
// to n rounds and the first that was not archived. The score is the last
// round read's answer's (oneOutput), with FirstTry (the first answer's), Rounds,
// and the usage, latency and attempts of every round read added up: what
// the answer cost. It returns the score and the Output scored.
func scoreRounds(src Source, t *task.Task, modelID string, repeat, n int, first Score, answer Output, w metric.Weights) (Score, Output, error) {
	s := first
	s.FirstTry = firstTry(&first)
	for k := 1; k <= n && s.Status == StatusScored && !s.WellFormed(); k++ {
		tr, _, err := src(modelID, task.FeedbackID(t.ID, k), repeat)
		if err != nil || tr == nil {
			return s, answer, err
		}
		next, o := oneOutput(t, modelID, repeat, tr, nil, w)
		next.Transcript, next.FirstTry, next.Rounds = roundPath(modelID, t.ID, repeat, k), s.FirstTry, k
		next.Usage, next.LatencyMS, next.Attempts = addUsage(next.Usage, s.Usage), next.LatencyMS+s.LatencyMS, next.Attempts+s.Attempts
		s, answer = next, o
	}
	return s, answer, nil
}

// addUsage adds b to a; the cost is unknown (nil) when either is.
func addUsage(a, b transcript.Usage) transcript.Usage {
	a.PromptTokens += b.PromptTokens
	a.CompletionTokens += b.CompletionTokens
	a.CachedTokens += b.CachedTokens
	a.ReasoningTokens += b.ReasoningTokens
	a.Estimated = a.Estimated || b.Estimated
	a.Unread = append(a.Unread, b.Unread...)
	if a.Cost == nil || b.Cost == nil {
		a.Cost = nil
	} else {
		a.Cost = new(*a.Cost + *b.Cost)
	}
	return a
}

// roundPath is the path of round k's transcript relative to the run
// directory, as Score.Transcript holds it.
func roundPath(modelID, taskID string, repeat, k int) string {
	return filepath.ToSlash(filepath.Join(transcript.Slug(modelID), filepath.Base(transcript.TaskPath("", modelID, task.FeedbackID(taskID, k), repeat))))
}
