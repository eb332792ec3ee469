package scoring

import (
	"fmt"
	"path/filepath"
	"strings"

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

// Check scores raw as an answer to t given the document given (Metric)
// and returns its Problem: what a feedback round would tell the model,
// "" when the answer is well-formed.
func Check(t *task.Task, given []byte, raw string) string {
	res, fail := Metric(t, given, raw, metric.DefaultWeights())
	return Problem(&res, fail)
}

// firstTry is the FirstTry of a scored first answer.
func firstTry(s *Score) *FirstTry {
	if s.Status != StatusScored || s.Metric == nil {
		return nil
	}
	return &FirstTry{WellFormed: s.WellFormed(), EditApplied: s.Metric.EditApplied, Lossless: s.Metric.Lossless,
		Problem: Problem(s.Metric, s.ApplyFailure)}
}

// withRounds scores a class B/C answer asked with feedback rounds: first
// is the score of the first answer, rounds the transcripts of the rounds
// after it, in order, as far as they were archived. The score is the last
// round's answer's (One), carrying FirstTry (the first answer's), Rounds,
// and the usage, latency and attempts of every round added up: what the
// answer cost in all.
func withRounds(t *task.Task, modelID string, repeat int, first Score, rounds []*transcript.Transcript, w metric.Weights) Score {
	ft := firstTry(&first)
	if len(rounds) == 0 {
		first.FirstTry = ft
		return first
	}
	s := One(t, modelID, repeat, rounds[len(rounds)-1], nil, w)
	s.Transcript = roundPath(modelID, t.ID, repeat, len(rounds))
	s.FirstTry, s.Rounds = ft, len(rounds)
	for _, prev := range append([]Score{first}, roundScores(rounds[:len(rounds)-1])...) {
		s.Usage = addUsage(s.Usage, prev.Usage)
		s.LatencyMS += prev.LatencyMS
		s.Attempts += prev.Attempts
	}
	return s
}

// roundScores are the usage, latency and attempts of round transcripts
// (what withRounds adds up), without scoring their answers.
func roundScores(rounds []*transcript.Transcript) []Score {
	out := make([]Score, len(rounds))
	for i, tr := range rounds {
		out[i].Attempts = len(tr.Attempts)
		if tr.Response != nil {
			out[i].Usage, out[i].LatencyMS = tr.Response.Usage, tr.Response.LatencyMS
		} else if len(tr.Attempts) == 0 {
			zero := 0.0
			out[i].Usage.Cost = &zero
		}
	}
	return out
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

// readRounds reads the feedback rounds 1 to n of (m, id, r) from src, in
// order, up to the first that was not archived (a round is asked only
// after the one before).
func readRounds(src Source, m, id string, r, n int) ([]*transcript.Transcript, error) {
	var out []*transcript.Transcript
	for k := 1; k <= n; k++ {
		tr, _, err := src(m, task.FeedbackID(id, k), r)
		if err != nil || tr == nil {
			return out, err
		}
		out = append(out, tr)
	}
	return out, nil
}
