package judge

import (
	"cmp"
	"slices"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Verdict is the faithfulness of one class A answer: the panel's decision,
// every vote behind it, and the grounding checks beside it.
type Verdict struct {
	// Faithful is the panel's decision (see Decide).
	Faithful bool `json:"faithful"`
	// Decision says how Faithful was reached: "majority", "tie",
	// "no valid vote" or "no answer".
	Decision string `json:"decision"`
	// Votes is every judge's vote, sorted by judge.
	Votes []Vote `json:"votes"`
	// FaithfulVotes, UnfaithfulVotes and ErrorVotes count Votes; they sum
	// to len(Votes).
	FaithfulVotes   int `json:"faithful_votes"`
	UnfaithfulVotes int `json:"unfaithful_votes"`
	ErrorVotes      int `json:"error_votes"`
	// UngroundedVotes counts the valid votes that quote text the document
	// does not hold.
	UngroundedVotes int `json:"ungrounded_votes"`
	// AnswerValid is true when the answer is the requested JSON object
	// (metric.ScoreAnswer); AnswerReason says why not.
	AnswerValid  bool   `json:"answer_valid"`
	AnswerReason string `json:"answer_reason,omitempty"`
	// Grounding is the check of the evidence ids the answer cites.
	Grounding Grounding `json:"grounding"`
}

// The values of Verdict.Decision.
const (
	DecisionMajority = "majority"      // more valid votes one way than the other
	DecisionTie      = "tie"           // as many faithful as unfaithful valid votes: unfaithful
	DecisionNoVote   = "no valid vote" // every judge failed, or there was none: unfaithful
	DecisionNoAnswer = "no answer"     // the answer transcript holds no response
	// DecisionNotAnAnswer: the response is not the requested answer object
	// (metric.ScoreAnswer finds none: an echoed document, prose, a
	// refusal). It is unfaithful whatever a judge would say, and no judge
	// is asked.
	DecisionNotAnAnswer = "not an answer"
)

// Decide is the panel rule. With f faithful and u unfaithful valid votes,
//
//	Faithful = f > u
//
// so a tie (f = u ≥ 1) and the absence of any valid vote (f = u = 0) are
// both unfaithful: faithfulness must be affirmed, never assumed. Judge
// errors are counted but carry no weight. Votes are kept, sorted by judge.
func Decide(votes []Vote) Verdict {
	v := Verdict{Votes: slices.Clone(votes)}
	slices.SortStableFunc(v.Votes, func(a, b Vote) int { return cmp.Compare(a.Judge, b.Judge) })
	if v.Votes == nil {
		v.Votes = []Vote{}
	}
	for _, vote := range v.Votes {
		switch {
		case !vote.Valid():
			v.ErrorVotes++
		case *vote.Faithful:
			v.FaithfulVotes++
		default:
			v.UnfaithfulVotes++
		}
		if vote.Valid() && !vote.Grounded {
			v.UngroundedVotes++
		}
	}
	v.Faithful = v.FaithfulVotes > v.UnfaithfulVotes
	switch {
	case v.FaithfulVotes+v.UnfaithfulVotes == 0:
		v.Decision = DecisionNoVote
	case v.FaithfulVotes == v.UnfaithfulVotes:
		v.Decision = DecisionTie
	default:
		v.Decision = DecisionMajority
	}
	return v
}

// VerdictFrom recomputes the verdict on answer from transcripts alone: it
// is what the score phase and rescore call, and it makes no model call.
//
// Of judges, it uses the judge transcripts that judge this answer (Judged
// names its model, task, repeat and hash) and were not written by the
// answering model itself; when one judge has several, the first by hash is
// used. A judge transcript without a response, or whose reply ParseVote
// rejects, is a judge error. Each valid vote's quotes are grounded against
// t's document, and the answer's evidence ids are checked beside the
// decision.
func VerdictFrom(t *task.Task, answer *transcript.Transcript, judges []*transcript.Transcript) Verdict {
	if answer == nil || !answer.OK() {
		v := Decide(nil)
		v.Decision = DecisionNoAnswer
		v.Grounding = Ground(t.Source.Doc, nil, nil)
		return v
	}
	doc := t.Source.Doc
	a := metric.ScoreAnswer(doc, answer.Response.Content)
	if !a.Valid {
		v := Decide(nil)
		v.Decision = DecisionNotAnAnswer
		v.AnswerValid, v.AnswerReason = false, a.Reason
		v.Grounding = Ground(doc, nil, nil)
		return v
	}
	mine := slices.Clone(judges)
	slices.SortFunc(mine, func(a, b *transcript.Transcript) int {
		return cmp.Or(cmp.Compare(a.Model, b.Model), cmp.Compare(a.Hash, b.Hash))
	})
	seen := map[string]bool{}
	var votes []Vote
	for _, j := range mine {
		if !isJudgeOf(j, answer) || seen[j.Model] {
			continue
		}
		seen[j.Model] = true
		votes = append(votes, voteFrom(t, j))
	}
	v := Decide(votes)
	v.AnswerValid, v.AnswerReason = a.Valid, a.Reason
	v.Grounding = Ground(doc, nil, a.Evidence)
	return v
}

// isJudgeOf reports whether j is a judge transcript of answer by another
// model.
func isJudgeOf(j, answer *transcript.Transcript) bool {
	r := j.Judged
	return j.Kind == transcript.KindJudge && r != nil &&
		r.Model == answer.Model && r.TaskID == answer.TaskID && r.Repeat == answer.Repeat && r.Hash == answer.Hash &&
		!model.SameWeights(j.Model, answer.Model)
}

// voteFrom reads one judge transcript as a vote. A vote the server says
// another model than the judge asked for gave (checked on the asked id
// alone) records that model (Vote.ModelServed) and still counts.
func voteFrom(t *task.Task, j *transcript.Transcript) Vote {
	v := Vote{Judge: j.Model, Quotes: []string{}, UngroundedQuotes: []string{}, TranscriptHash: j.Hash}
	if r := j.Response; r != nil && r.ModelServed != "" && !model.ServedAsAsked(j.Model, "", r.ModelServed) {
		v.ModelServed = r.ModelServed
	}
	if !j.OK() {
		v.APIError = true
		v.Error = "no response"
		if j.Error != nil {
			v.Error = "API error: " + j.Error.Message
		}
		return v
	}
	parsed, err := ParseVote(j.Response.Content)
	if err != nil {
		v.Error = err.Error()
		return v
	}
	v.Faithful, v.Quotes, v.Reason = parsed.Faithful, parsed.Quotes, parsed.Reason
	v.UngroundedQuotes = Ground(t.Source.Doc, v.Quotes, nil).UngroundedQuotes
	v.Grounded = len(v.UngroundedQuotes) == 0
	return v
}
