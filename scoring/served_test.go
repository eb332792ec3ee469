package scoring

import (
	"reflect"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// servedJudge is a sealed judge transcript of answer by judge, voting
// faithful, that the server says served.
func servedJudge(t *testing.T, judge, served string, answer *transcript.Transcript) *transcript.Transcript {
	t.Helper()
	tr := &transcript.Transcript{
		Schema: transcript.SchemaVersion, Kind: transcript.KindJudge, RunID: "test", Model: judge,
		TaskID: answer.TaskID, Class: "A", Repeat: answer.Repeat, Attempts: []transcript.Attempt{{Number: 1, Status: 200}},
		Judged:   &transcript.Ref{Model: answer.Model, TaskID: answer.TaskID, Repeat: answer.Repeat, Hash: answer.Hash},
		Request:  transcript.Request{Model: judge},
		Response: &transcript.Response{Content: `{"faithful": true, "quotes": [], "reason": "stated"}`, FinishReason: "stop", ModelServed: served},
	}
	if err := tr.Seal(); err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestJudgeServedAsListed: a judge vote is read against its judge's
// listing as an answer is against its model's: served under the
// canonical slug run.json recorded for the judge (Plan.Canonical), it was
// served as asked; without one (no listing) the slug is checked on the id
// alone and is another model; a fallback is another model whatever the
// listing, and the vote still counts.
func TestJudgeServedAsListed(t *testing.T) {
	set := tasktest.Set(t)
	const asked, slug = "anthropic/claude-opus-4.7", "anthropic/claude-4.7-opus-20260416"
	answer := tasktest.Answer(t, "openai/gpt-5.5", "05-a", `{"answer": "x", "evidence": []}`)
	for _, c := range tabletest.Cases(t, []struct {
		name      string
		served    string
		canonical map[string]string
		want      string
		reason    string
	}{
		{"slug listed", slug, map[string]string{asked: slug}, "", "the listing's canonical slug names the judge asked"},
		{"slug without vendor", "claude-4.7-opus-20260416", map[string]string{asked: slug}, "", "a provider naming the canonical slug without its vendor prefix"},
		{"slug unlisted", slug, nil, slug, "without a listing the slug is not the id asked: checked on the id alone"},
		{"answerer listed", "openai/gpt-5.5-20260423", map[string]string{asked: slug, "openai/gpt-5.5": "openai/gpt-5.5"}, "openai/gpt-5.5-20260423",
			"the answering model served its own judge vote: the judge's listing does not name it"},
		{"dated id", asked + "-20260416", nil, "", "a dated id of the judge needs no listing"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			src := func(m, id string, r int) (*transcript.Transcript, []*transcript.Transcript, error) {
				return answer, []*transcript.Transcript{servedJudge(t, asked, c.served, answer)}, nil
			}
			plan := Plan{Models: []string{"openai/gpt-5.5"}, TaskIDs: []string{"05-a"}, Repeats: 1, Canonical: c.canonical}
			scores, err := Stream(set, plan, src, metric.DefaultWeights(), nil)
			if err != nil {
				t.Fatal(err)
			}
			v := scores[0].Judge
			if v == nil || len(v.Votes) != 1 {
				t.Fatalf("verdict %+v, want one vote", v)
			}
			if got := v.Votes[0].ModelServed; got != c.want {
				t.Errorf("vote served %q, want %q (%s)", got, c.want, c.reason)
			}
			if v.FaithfulVotes != 1 || !v.Faithful {
				t.Errorf("%d faithful votes: the vote counts whoever served it (%s)", v.FaithfulVotes, c.reason)
			}
		})
	}
}

// TestCompactKeepsServedVotes: the score phase keeps each score's Compact
// form for the report, which dropped every vote, so the report never saw
// a vote another model served. Compact keeps those votes, with their
// judge and served model alone, and drops the rest.
func TestCompactKeepsServedVotes(t *testing.T) {
	f := true
	v := judge.Decide([]judge.Vote{
		{Judge: "j/one", Faithful: &f, Grounded: true, Quotes: []string{"q"}, Reason: "stated", ModelServed: "x-ai/grok-4"},
		{Judge: "j/two", Faithful: &f, Grounded: true, Quotes: []string{"q"}, Reason: "stated"},
	})
	s := Score{Model: "m/a", Class: "A", Status: StatusScored, Judge: &v}
	c := s.Compact()
	if want := []judge.Vote{{Judge: "j/one", ModelServed: "x-ai/grok-4"}}; !reflect.DeepEqual(c.Judge.Votes, want) {
		t.Errorf("compact votes %+v, want %+v", c.Judge.Votes, want)
	}
	if c.Judge.FaithfulVotes != 2 || len(s.Judge.Votes) != 2 {
		t.Errorf("compact counts %d faithful, the score keeps %d votes: Compact changes no count and not s", c.Judge.FaithfulVotes, len(s.Judge.Votes))
	}
}
