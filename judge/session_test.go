package judge

import (
	"testing"

	"bendscript.com/round-trip-harness/model"
)

// TestVotesShareADocumentSession: a judge with a policy (an online judge
// after the preflight) sends session_id "<run>:<judge>:<document>" with
// each vote, as the answers do, so OpenRouter routes a judge's votes on
// one document to the provider that cached it (issue 52: votes carried
// none); a judge without one (offline) sends none.
func TestVotesShareADocumentSession(t *testing.T) {
	tk := taskA(t, "01-a")
	answer := answerTranscript(t, "m/answerer", "01-a", `{"answer": "41 species and 386 individuals.", "evidence": ["blk-5e6f.spn-01"]}`)
	c := Config{RunID: "night-1", Gating: []string{"m/answerer", "j/online", "j/offline"},
		Policies: map[string]model.Policy{"j/online": {JudgeMaxTokens: 4096}}}
	want := "night-1:j/online:" + tk.DocumentName
	if got := c.CallOn(tk, answer, "j/online").Request.SessionID; got != want {
		t.Errorf("online judge's session_id %q, want %q", got, want)
	}
	if got := c.CallOn(tk, answer, "j/online").Record.Request.SessionID; got != want {
		t.Errorf("the vote's transcript records session_id %q, want %q", got, want)
	}
	if got := c.CallOn(tk, answer, "j/offline").Request.SessionID; got != "" {
		t.Errorf("a judge without a policy sends session_id %q", got)
	}
}
