package viewer

import "bendscript.com/round-trip-harness/judge"

// voteView is one judge vote as the HTML viewer shows it.
type voteView struct {
	Judge            string
	Verdict          string // "faithful", "unfaithful" or "error"
	Reason           string
	Error            string
	Quotes           []string
	UngroundedQuotes []string
	// ModelServed is the model the server said gave the vote when it is
	// not the judge asked for (judge.Vote.ModelServed); "" otherwise.
	ModelServed string
}

func votesOf(v *judge.Verdict) []voteView {
	if v == nil {
		return nil
	}
	out := make([]voteView, len(v.Votes))
	for i, x := range v.Votes {
		vv := voteView{Judge: x.Judge, Reason: x.Reason, Error: x.Error, Quotes: x.Quotes, UngroundedQuotes: x.UngroundedQuotes, ModelServed: x.ModelServed}
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
