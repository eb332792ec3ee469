package report

import "bendscript.com/round-trip-harness/judge"

// This file is the report's only contact with the judge's types, so that a
// change there is a change here alone.

// decision returns the panel's decision on an answer; decided is false when
// there is no verdict or no valid vote (every judge failed). A response
// that is not an answer object is decided, unfaithful, without votes.
func decision(v *judge.Verdict) (faithful, decided bool) {
	if v != nil && v.Decision == judge.DecisionNotAnAnswer {
		return false, true // not the requested answer: unfaithful, no judge needed
	}
	if v == nil || v.FaithfulVotes+v.UnfaithfulVotes == 0 {
		return false, false
	}
	return v.Faithful, true
}

// voteCount counts a verdict's votes.
func voteCount(v *judge.Verdict) VoteCount {
	if v == nil {
		return VoteCount{}
	}
	return VoteCount{
		Faithful: v.FaithfulVotes, Unfaithful: v.UnfaithfulVotes,
		Error: v.ErrorVotes, Ungrounded: v.UngroundedVotes,
	}
}

// voteView is one judge vote as the HTML viewer shows it.
type voteView struct {
	Judge            string
	Verdict          string // "faithful", "unfaithful" or "error"
	Reason           string
	Error            string
	Quotes           []string
	UngroundedQuotes []string
}

func votesOf(v *judge.Verdict) []voteView {
	if v == nil {
		return nil
	}
	out := make([]voteView, len(v.Votes))
	for i, x := range v.Votes {
		vv := voteView{Judge: x.Judge, Reason: x.Reason, Error: x.Error, Quotes: x.Quotes, UngroundedQuotes: x.UngroundedQuotes}
		switch {
		case !x.Valid():
			vv.Verdict = "error"
		case *x.Faithful:
			vv.Verdict = "faithful"
		default:
			vv.Verdict = "unfaithful"
		}
		out[i] = vv
	}
	return out
}

// decisionText is how the panel reached its decision (judge.Decision*).
func decisionText(v *judge.Verdict) string {
	if v == nil {
		return "no verdict"
	}
	return v.Decision
}
