package aggregate

import (
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/report"
)

// Decision returns the panel's decision on an answer; decided is false when
// there is no verdict or no valid vote (every judge failed). A response
// that is not an answer object is decided, unfaithful, without votes.
func Decision(v *judge.Verdict) (faithful, decided bool) {
	if v != nil && v.Decision == judge.DecisionNotAnAnswer {
		return false, true // not the requested answer: unfaithful, no judge needed
	}
	if v == nil || v.FaithfulVotes+v.UnfaithfulVotes == 0 {
		return false, false
	}
	return v.Faithful, true
}

// voteCount counts a verdict's votes.
func voteCount(v *judge.Verdict) report.VoteCount {
	if v == nil {
		return report.VoteCount{}
	}
	return report.VoteCount{
		Faithful: v.FaithfulVotes, Unfaithful: v.UnfaithfulVotes,
		Error: v.ErrorVotes, Ungrounded: v.UngroundedVotes,
	}
}
