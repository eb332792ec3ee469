package jobs

import (
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// FeedbackMessage is the user message of a feedback round: the answer's
// mechanical failure (scoring.Problem) between these two texts, and
// nothing else: never the expected document or a score, so that a second
// try measures whether the model can repair its answer from what a tool
// would tell it, as an agent's edit tool does.
const (
	FeedbackHead = "Your answer could not be used:\n\n"
	FeedbackTail = "\n\nAnswer the same task again, in full and in the same answer format. Your new answer replaces the previous one: it is read on its own, against the document exactly as first given above (a patch is applied to that document, not to what your previous answer would have made)."
)

// Feedback is the runner's follow-up rule for feedback rounds
// (--feedback N): when a class B/C answer is archived and is not
// well-formed (Check), the same conversation is asked again with
// the answer and a user message stating its failure, up to N times. Each
// round is a job of its own, named task.FeedbackID, that waits for the one
// before as a relay step does; on resume a round is kept when it was
// asked after the same answer, to the same task and document (its message
// as the harness then worded it, which its transcript records): a round
// is paid once, whatever harness resumes the run.
type Feedback struct {
	set    *task.Set
	rounds int
	params map[string]Params
	check  Check
	// of maps an answer job's task id (the task's own, or a round's) to
	// the task and the round it is.
	of map[string]round
}

type round struct {
	t *task.Task
	k int
}

// Check returns the mechanical failure of an answer raw to t, given the
// document given, as a feedback round states it; "" when the answer is
// well-formed (scoring.Check, which the pipeline passes: the score phase
// owns what well-formed means).
type Check func(t *task.Task, given []byte, raw string) string

// NewFeedback plans up to rounds feedback rounds for the class B/C tasks
// of set, asked when check finds a problem; params are the models' (their
// context windows bound what a round may send).
func NewFeedback(set *task.Set, rounds int, params map[string]Params, check Check) *Feedback {
	f := &Feedback{set: set, rounds: rounds, params: params, check: check, of: map[string]round{}}
	for _, t := range set.Tasks {
		if t.Class == task.ClassA {
			continue
		}
		for k := 0; k <= rounds; k++ {
			f.of[task.FeedbackID(t.ID, k)] = round{t, k}
		}
	}
	return f
}

// RoundOf returns the task and the round (0 for the first answer) that an
// answer transcript's task id names; ok is false for any other id.
func (f *Feedback) RoundOf(taskID string) (t *task.Task, k int, ok bool) {
	r, ok := f.of[taskID]
	return r.t, r.k, ok
}

// Final reports whether an archived answer is the last of its task's
// rounds: well-formed, an API failure (a resume asks it again, and the
// rounds go on from there), or the last round allowed.
func (f *Feedback) Final(res runner.Result) bool {
	t, k, ok := f.RoundOf(res.Transcript.TaskID)
	if !ok || !res.Transcript.OK() {
		return true
	}
	return k >= f.rounds || f.check(t, given(t, res.Job), res.Transcript.Response.Content) == ""
}

// Then is the runner's follow-up rule: the next round of an answer that
// is not well-formed.
func (f *Feedback) Then(res runner.Result) []runner.Job {
	tr := res.Transcript
	t, k, ok := f.RoundOf(tr.TaskID)
	if !ok || tr.Kind != transcript.KindTask || !tr.OK() || k >= f.rounds {
		return nil
	}
	problem := f.check(t, given(t, res.Job), tr.Response.Content)
	if problem == "" {
		return nil
	}
	budget := res.Job.Request.MaxTokens
	if tr.Response.FinishReason == "length" {
		problem, budget = CutOffRound(problem, budget, f.params[res.Job.Model].MaxOutput)
	}
	j := FeedbackJob(res.Job, tr, t, k+1, problem)
	j.Request.MaxTokens = budget
	j.Record.Request = transcript.RequestOf(j.Request)
	if c := f.params[j.Model].Context; c > 0 {
		size := 0
		for _, m := range j.Request.Messages {
			size += len(m.Content)
			for _, p := range m.Parts {
				size += len(p.Text)
			}
		}
		if prompt := model.Tokens(size); prompt+j.Request.MaxTokens > c {
			j.Skip = fmt.Sprintf("not sent: the feedback round's prompt (about %d tokens) and the output budget (%d) exceed the model's context of %d tokens", prompt, j.Request.MaxTokens, c)
		}
	}
	return []runner.Job{j}
}

// CutOffRound is what a feedback round after an answer cut off at its
// output budget (finish_reason "length") says, and the budget it asks
// with: the answer ran out of budget, which its mechanical failure (a
// JSON error, most often) does not say (issue 45). The budget is doubled,
// up to maxOutput, the model's listed maximum; when that is unknown (0)
// it is doubled and the message says the maximum is not known; when the
// budget is already at it, it stays, and the message says so. A budget
// of 0 (none sent) is left to the provider's default.
func CutOffRound(problem string, budget, maxOutput int) (string, int) {
	head := "Your answer was cut off: it reached the output budget"
	if budget > 0 {
		head += fmt.Sprintf(" of %d tokens", budget)
	}
	head += " before it ended."
	raised := budget * 2
	switch {
	case budget == 0:
		return head + "\n\n" + problem, 0
	case maxOutput > 0 && budget >= maxOutput:
		return head + fmt.Sprintf(" The budget is already the model's maximum (%d tokens): answer more briefly.", maxOutput) + "\n\n" + problem, budget
	case maxOutput > 0:
		raised = min(raised, maxOutput)
		head += fmt.Sprintf(" This round's budget is %d tokens (the model's maximum is %d).", raised, maxOutput)
	default:
		head += fmt.Sprintf(" This round's budget is %d tokens, twice the last (the model's maximum output is not known).", raised)
	}
	return head + "\n\n" + problem, raised
}

// given is the document the answer's job was given: the relay step's
// (the request's Document), else the task's source.
func given(t *task.Task, j runner.Job) []byte {
	if j.Request.Document != nil {
		return j.Request.Document
	}
	return t.Source.Bytes
}

// FeedbackJob is round k of the answer to t: the request of the round
// before (prev, whose archived transcript is tr) with the model's answer
// and the user message stating problem appended, under the id
// task.FeedbackID(t.ID, k) and the hashes of the first answer.
func FeedbackJob(prev runner.Job, tr *transcript.Transcript, t *task.Task, k int, problem string) runner.Job {
	req := prev.Request
	answer := tr.Response.Content
	req.Messages = append(slices.Clip(req.Messages), model.Message{Role: "assistant", Content: answer}, model.Message{Role: "user", Content: FeedbackHead + problem + FeedbackTail})
	rec := prev.Record
	rec.TaskID = task.FeedbackID(t.ID, k)
	rec.Request = transcript.RequestOf(req)
	n := len(req.Messages)
	return runner.Job{Model: prev.Model, Request: req, Record: rec, Extra: true, Decode: prev.Decode,
		Keep: func(archived *transcript.Transcript) bool {
			m := archived.Request.Messages
			return len(m) == n && m[n-2].Content == answer && archived.Hashes == rec.Hashes
		}}
}
