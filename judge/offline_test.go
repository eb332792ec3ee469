package judge

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
)

// offlineReply asks the offline judge about answer to task id.
func offlineReply(t *testing.T, id, answer string) Vote {
	t.Helper()
	set := corpusSet(t)
	resp, err := NewOffline(set).Complete(context.Background(), BuildRequest(set.Task(id), answer, OfflineJudge, 0, nil))
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseVote(resp.Content)
	if err != nil {
		t.Fatalf("the offline judge's reply is not a vote: %v\n%s", err, resp.Content)
	}
	return v
}

func TestOfflineJudgesReferenceAnswersFaithful(t *testing.T) {
	for _, tk := range corpusSet(t).Tasks {
		if tk.Class != task.ClassA {
			continue
		}
		b, _ := json.Marshal(map[string]any{"answer": tk.ReferenceAnswer, "evidence": tk.Evidence})
		v := offlineReply(t, tk.ID, string(b))
		if !*v.Faithful || len(v.Quotes) == 0 {
			t.Errorf("%s: reference answer judged %v with %d quotes; want faithful, quoting its evidence", tk.ID, *v.Faithful, len(v.Quotes))
		}
		if g := Ground(tk.Source.Doc, v.Quotes, nil); len(g.UngroundedQuotes) > 0 {
			t.Errorf("%s: the offline judge's own quotes are ungrounded: %q", tk.ID, g.UngroundedQuotes)
		}
	}
}

func TestOfflineJudge(t *testing.T) {
	tests := []struct {
		name, answer string
		faithful     bool
		reason       string
	}{
		{"fenced, block evidence", "```json\n{\"answer\": \"41 species\", \"evidence\": [\"blk-5e6f\"]}\n```", true, "a fenced answer citing a real block passes"},
		{"invented span", `{"answer": "41 species", "evidence": ["blk-5e6f.spn-01", "blk-5e6f.spn-09"]}`, false, "one non-existent id fails the answer"},
		{"no evidence", `{"answer": "41 species", "evidence": []}`, false, "an answer that cites nothing is not grounded"},
		{"not JSON", "41 species and 386 individuals.", false, "an answer that does not parse is not faithful"},
		{"invented claim, real evidence", `{"answer": "12 species", "evidence": ["blk-5e6f.spn-01"]}`, true, "the known blind spot: claims are not read"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			if v := offlineReply(t, "01-a", tt.answer); *v.Faithful != tt.faithful || v.Reason == "" {
				t.Errorf("faithful = %v (reason %q), want %v (%s)", *v.Faithful, v.Reason, tt.faithful, tt.reason)
			}
		})
	}
}

func TestOfflineJudgeRefusesBadRequests(t *testing.T) {
	set := corpusSet(t)
	o := NewOffline(set)
	tests := []struct {
		name   string
		req    model.Request
		reason string
	}{
		{"unknown task", model.Request{TaskID: "99-a", Messages: []model.Message{{Role: "user", Content: "x"}}}, "a task outside the set cannot be judged"},
		{"class B task", model.Request{TaskID: "01-b", Messages: []model.Message{{Role: "user", Content: "x"}}}, "only class A answers are judged"},
		{"no messages", model.Request{TaskID: "01-a"}, "there is no answer to read"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			_, err := o.Complete(context.Background(), tt.req)
			var ae *model.APIError
			if !errors.As(err, &ae) || !errors.Is(err, model.ErrFatal) {
				t.Errorf("error %v; want a fatal *model.APIError (%s)", err, tt.reason)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := o.Complete(ctx, BuildRequest(set.Task("01-a"), "{}", OfflineJudge, 0, nil)); !errors.Is(err, context.Canceled) {
		t.Errorf("Complete after cancel = %v, want context.Canceled", err)
	}
}
