package judge

import (
	"reflect"
	"testing"

	"bendscript.com/round-trip-harness/task/tasktest"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/transcript"
)

func TestPanel(t *testing.T) {
	gating := []string{"anthropic/claude-opus-4.6", "openai/gpt-5.2", "google/gemini-2.5-pro"}
	tests := []struct {
		name     string
		answerer string
		fixed    []string
		want     []string
		reason   string
	}{
		{"gating answerer", "openai/gpt-5.2", nil, []string{"anthropic/claude-opus-4.6", "google/gemini-2.5-pro"}, "a gating model is judged by the other two"},
		{"non-gating answerer", "offline/oracle", nil, gating, "an informational model is judged by every gating model"},
		{"variant of a gating model", "openai/gpt-5.2:nitro", nil, []string{"anthropic/claude-opus-4.6", "google/gemini-2.5-pro"}, "a variant suffix routes to the same model, which may not judge itself"},
		{"fixed list", "openai/gpt-5.2", []string{"offline/judge"}, []string{"offline/judge"}, "a fixed list replaces the panel"},
		{"fixed list holding the answerer", "openai/gpt-5.2", []string{"openai/gpt-5.2", "x/judge", "x/judge"}, []string{"x/judge"}, "the answerer is dropped from a fixed list too, and repeats are dropped"},
		{"nobody left", "x/judge", []string{"x/judge"}, []string{}, "an answerer that is the only judge leaves an empty panel, which Run refuses"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			if got := Panel(tt.answerer, gating, tt.fixed); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Panel = %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

func vote(judge string, faithful *bool) Vote {
	v := Vote{Judge: judge, Faithful: faithful, Grounded: true}
	if faithful == nil {
		v.Error = "API error: boom"
		v.Grounded = false
	}
	return v
}

func TestDecide(t *testing.T) {
	yes, no := ptr(true), ptr(false)
	tests := []struct {
		name     string
		votes    []Vote
		faithful bool
		decision string
		f, u, e  int
		reason   string
	}{
		{"unanimous faithful", []Vote{vote("a", yes), vote("b", yes)}, true, DecisionMajority, 2, 0, 0, "two of two"},
		{"unanimous unfaithful", []Vote{vote("a", no), vote("b", no)}, false, DecisionMajority, 0, 2, 0, "two of two against"},
		{"split 1-1", []Vote{vote("a", yes), vote("b", no)}, false, DecisionTie, 1, 1, 0, "a tie is unfaithful: faithfulness must be affirmed"},
		{"2-1", []Vote{vote("a", yes), vote("b", no), vote("c", yes)}, true, DecisionMajority, 2, 1, 0, "a majority of three"},
		{"one valid vote and an error", []Vote{vote("a", yes), vote("b", nil)}, true, DecisionMajority, 1, 0, 1, "an error has no weight, so the valid vote decides"},
		{"only errors", []Vote{vote("a", nil), vote("b", nil)}, false, DecisionNoVote, 0, 0, 2, "no valid vote is unfaithful, not faithful by default"},
		{"no votes", nil, false, DecisionNoVote, 0, 0, 0, "no judge at all is unfaithful"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			v := Decide(tt.votes)
			if v.Faithful != tt.faithful || v.Decision != tt.decision || v.FaithfulVotes != tt.f || v.UnfaithfulVotes != tt.u || v.ErrorVotes != tt.e {
				t.Errorf("Decide = faithful %v (%s), %d/%d/%d; want %v (%s), %d/%d/%d (%s)",
					v.Faithful, v.Decision, v.FaithfulVotes, v.UnfaithfulVotes, v.ErrorVotes,
					tt.faithful, tt.decision, tt.f, tt.u, tt.e, tt.reason)
			}
			if len(v.Votes) != len(tt.votes) {
				t.Errorf("Decide kept %d votes, want all %d", len(v.Votes), len(tt.votes))
			}
		})
	}
}

func TestDecideSortsVotesAndCountsUngrounded(t *testing.T) {
	in := []Vote{
		{Judge: "z", Faithful: ptr(true), Grounded: false, UngroundedQuotes: []string{"made up"}},
		{Judge: "a", Faithful: ptr(true), Grounded: true},
	}
	v := Decide(in)
	if v.Votes[0].Judge != "a" || v.Votes[1].Judge != "z" {
		t.Errorf("votes in order %s, %s; want sorted by judge so reports are stable", v.Votes[0].Judge, v.Votes[1].Judge)
	}
	if v.UngroundedVotes != 1 || !v.Faithful {
		t.Errorf("UngroundedVotes = %d, Faithful = %v; want 1 and true: an ungrounded vote is flagged, not discarded", v.UngroundedVotes, v.Faithful)
	}
	if in[0].Judge != "z" {
		t.Error("Decide reordered its argument")
	}
}

// answerTranscript returns a sealed class A task transcript.
func answerTranscript(t *testing.T, modelID, taskID, content string) *transcript.Transcript {
	return tasktest.Answer(t, modelID, taskID, content)
}

// judgeTranscript returns a sealed judge transcript of answer by judge
// with the given reply ("" with callErr for a failed call).
func judgeTranscript(t *testing.T, judge string, answer *transcript.Transcript, reply string, callErr *transcript.CallError) *transcript.Transcript {
	t.Helper()
	tr := &transcript.Transcript{
		Schema: transcript.SchemaVersion, Kind: transcript.KindJudge, RunID: "test", Model: judge,
		TaskID: answer.TaskID, Class: "A", Repeat: answer.Repeat, Attempts: []transcript.Attempt{},
		Judged: &transcript.Ref{Model: answer.Model, TaskID: answer.TaskID, Repeat: answer.Repeat, Hash: answer.Hash},
		Error:  callErr,
	}
	if callErr == nil {
		tr.Response = &transcript.Response{Content: reply, FinishReason: "stop"}
	}
	if err := tr.Seal(); err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestVerdictFrom(t *testing.T) {
	tk := taskA(t, "01-a")
	answer := answerTranscript(t, "m/answerer", "01-a", `{"answer": "41 species and 386 individuals.", "evidence": ["blk-5e6f.spn-01", "blk-5e6f.spn-09"]}`)
	other := answerTranscript(t, "m/other", "01-a", `{"answer": "x", "evidence": []}`)
	yes := `{"faithful": true, "quotes": ["The count totalled 41 species and 386 individuals."], "reason": "stated"}`
	judges := []*transcript.Transcript{
		judgeTranscript(t, "j/one", answer, yes, nil),
		judgeTranscript(t, "j/two", answer, "```json\n{\"faithful\": false, \"quotes\": [\"41 species and 400 birds\"], \"reason\": \"spn-09\"}\n```", nil),
		judgeTranscript(t, "j/three", answer, "I cannot judge this.", nil),
		judgeTranscript(t, "j/four", answer, "", &transcript.CallError{Status: 500, Message: "upstream failed"}),
		// Not this answer's judges: the answerer itself, another answer,
		// and a stale transcript of an earlier answer.
		judgeTranscript(t, "m/answerer", answer, yes, nil),
		judgeTranscript(t, "j/five", other, yes, nil),
	}
	stale := judgeTranscript(t, "j/six", answer, yes, nil)
	stale.Judged.Hash = "0000"
	judges = append(judges, stale)

	v := VerdictFrom(tk, answer, judges)
	var got []string
	for _, x := range v.Votes {
		got = append(got, x.Judge)
	}
	if want := []string{"j/four", "j/one", "j/three", "j/two"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("judges counted = %q, want %q: only other models' transcripts of this very answer count", got, want)
	}
	if v.Faithful || v.Decision != DecisionTie || v.FaithfulVotes != 1 || v.UnfaithfulVotes != 1 || v.ErrorVotes != 2 {
		t.Errorf("verdict = %v (%s) %d/%d/%d; want a 1-1 tie with 2 judge errors, unfaithful", v.Faithful, v.Decision, v.FaithfulVotes, v.UnfaithfulVotes, v.ErrorVotes)
	}
	byJudge := map[string]Vote{}
	for _, x := range v.Votes {
		byJudge[x.Judge] = x
	}
	if x := byJudge["j/one"]; !x.Grounded || x.TranscriptHash != judges[0].Hash {
		t.Errorf("j/one: grounded %v, hash %q; want a grounded vote naming its transcript", x.Grounded, x.TranscriptHash)
	}
	if x := byJudge["j/two"]; x.Grounded || !reflect.DeepEqual(x.UngroundedQuotes, []string{"41 species and 400 birds"}) {
		t.Errorf("j/two: grounded %v, ungrounded %q; want the invented quote flagged", x.Grounded, x.UngroundedQuotes)
	}
	if x := byJudge["j/three"]; x.Valid() || x.Error == "" {
		t.Errorf("j/three: %+v; want a judge error for a refusal", x)
	}
	if x := byJudge["j/four"]; x.Valid() || x.Error != "API error: upstream failed" {
		t.Errorf("j/four: %+v; want the API error recorded", x)
	}
	if !v.AnswerValid || v.Grounding.EvidenceCited != 2 || v.Grounding.EvidenceValid != 1 || !reflect.DeepEqual(v.Grounding.InvalidEvidence, []string{"blk-5e6f.spn-09"}) {
		t.Errorf("grounding = %+v; want 1 of 2 cited ids valid", v.Grounding)
	}

	again := VerdictFrom(tk, answer, []*transcript.Transcript{judges[6], judges[3], judges[1], judges[0], judges[2], judges[5], judges[4]})
	if !reflect.DeepEqual(v, again) {
		t.Error("VerdictFrom depends on the order of the judge transcripts")
	}
}

func TestVerdictFromNoAnswer(t *testing.T) {
	tk := taskA(t, "01-a")
	failed := &transcript.Transcript{Kind: transcript.KindTask, Model: "m/a", TaskID: "01-a", Error: &transcript.CallError{Message: "timeout"}}
	v := VerdictFrom(tk, failed, nil)
	if v.Faithful || v.Decision != DecisionNoAnswer {
		t.Errorf("verdict on a failed call = %v (%s), want unfaithful (%s)", v.Faithful, v.Decision, DecisionNoAnswer)
	}
}

func TestVerdictFromDuplicateJudge(t *testing.T) {
	tk := taskA(t, "01-a")
	answer := answerTranscript(t, "m/answerer", "01-a", `{"answer": "41", "evidence": ["blk-5e6f"]}`)
	a := judgeTranscript(t, "j/one", answer, `{"faithful": true}`, nil)
	b := judgeTranscript(t, "j/one", answer, `{"faithful": false}`, nil)
	v := VerdictFrom(tk, answer, []*transcript.Transcript{a, b})
	if len(v.Votes) != 1 {
		t.Fatalf("%d votes from one judge, want 1: a judge votes once", len(v.Votes))
	}
	first := a
	if b.Hash < a.Hash {
		first = b
	}
	if v.Votes[0].TranscriptHash != first.Hash {
		t.Error("the vote kept is not the first transcript by hash")
	}
}

// TestVoteServedByAnotherModel: a judge vote the server says another model
// gave was counted as the asked judge's and nothing said so. The vote
// records the served model when it is not the judge asked for
// (model.ServedAsAsked on the judge's id alone; the score phase reads the
// listing's canonical slug), and still counts, whatever its reply.
func TestVoteServedByAnotherModel(t *testing.T) {
	tk := taskA(t, "01-a")
	answer := answerTranscript(t, "openai/gpt-5.5", "01-a", `{"answer": "41", "evidence": ["blk-5e6f"]}`)
	for _, c := range tabletest.Cases(t, []struct {
		served, reply string
		callErr       *transcript.CallError
		want          string
		reason        string
	}{
		{"openai/gpt-5.5", `{"faithful": true}`, nil, "openai/gpt-5.5", "a fallback to the answering model itself: the very model whose answer is judged"},
		{"x-ai/grok-4", `{"faithful": false}`, nil, "x-ai/grok-4", "a fallback to another vendor"},
		{"anthropic/claude-opus-4.7-mini", `{"faithful": true}`, nil, "anthropic/claude-opus-4.7-mini", "another listing of the family is another model"},
		{"x-ai/grok-4", "I cannot judge this.", nil, "x-ai/grok-4", "a reply that is no vote was still served by another model"},
		{"anthropic/claude-opus-4.7-20260416", `{"faithful": true}`, nil, "", "a dated id of the judge asked is the judge"},
		{"claude-opus-4.7", `{"faithful": true}`, nil, "", "the judge without its vendor prefix"},
		{"anthropic/claude-opus-4.7:nitro", `{"faithful": true}`, nil, "", "a routing variant of the judge"},
		{"anthropic/claude-4.7-opus-20260416", `{"faithful": true}`, nil, "anthropic/claude-4.7-opus-20260416", "the canonical slug is read by the score phase, not here: on the id alone it is another name"},
		{"", `{"faithful": true}`, nil, "", "the server did not say"},
		{"", "", &transcript.CallError{Status: 500, Message: "upstream failed"}, "", "no response, nothing served"},
	}) {
		j := judgeTranscript(t, "anthropic/claude-opus-4.7", answer, c.reply, c.callErr)
		if j.Response != nil {
			j.Response.ModelServed = c.served
		}
		v := VerdictFrom(tk, answer, []*transcript.Transcript{j})
		if len(v.Votes) != 1 {
			t.Fatalf("%s: %d votes, want 1", c.served, len(v.Votes))
		}
		if got := v.Votes[0]; got.ModelServed != c.want || got.Judge != "anthropic/claude-opus-4.7" {
			t.Errorf("%s (%s): vote of %s served %q, want %q", c.served, c.reason, got.Judge, got.ModelServed, c.want)
		}
		if c.reply == `{"faithful": true}` && (v.FaithfulVotes != 1 || !v.Faithful) {
			t.Errorf("%s (%s): %d faithful votes, faithful %v: the vote still counts", c.served, c.reason, v.FaithfulVotes, v.Faithful)
		}
	}
}
