package main

import (
	"encoding/json"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// judgeNight runs the gating suite's class A answers of two documents
// with recordedModels (configured, so the run is theirs, each answer
// judged by the other two) against srv, and returns the report's
// eligibility reasons, its warnings of kind, and its Markdown.
func judgeNight(t *testing.T, srv *modeltest.Server, kind string, extra ...string) ([]string, []json.RawMessage, string) {
	t.Helper()
	_, rep, md := recordedNight(t, srv, "j", "a", extra...)
	var ws []json.RawMessage
	for _, w := range rep.Warnings {
		var k struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(w, &k) == nil && k.Kind == kind {
			ws = append(ws, w)
		}
	}
	return rep.Eligibility.Reasons, ws, md
}

// isJudgeRequest reports whether req asks a judge for its vote.
func isJudgeRequest(req modeltest.ChatRequest) bool {
	return strings.HasPrefix(req.Messages[0].Content, "You check whether an answer")
}

// TestJudgeVoteServedByAnotherModel: who served a class A judge vote was
// never checked, so a vote OpenRouter served with a fallback (Claude's
// vote served by GPT-5.5, on GPT-5.5's own answers among others) counted
// as Claude's and nothing said so. It still counts, but the night cannot
// gate (§8.6 reason) and the report warns, in JSON and Markdown; a vote
// served under the judge's canonical slug, as recorded, or a dated id of
// it, is the judge's; without a listing the reason says the check had
// the id alone.
func TestJudgeVoteServedByAnotherModel(t *testing.T) {
	t.Parallel()
	const judgeReason = "judge votes were served by another model than the judge asked for"
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		served func(req modeltest.ChatRequest) string
		flags  []string
		want   []string // words the judge reason must hold; none when no judge reason is wanted
		md     string   // a phrase the Markdown warning must hold, with want
		reason string
	}{
		{"fallback to the answerer", func(req modeltest.ChatRequest) string {
			if isJudgeRequest(req) && strings.HasPrefix(req.Model, "anthropic/") {
				return "openai/gpt-5.5"
			}
			return ""
		}, nil, []string{"4 " + judgeReason + " (openai/gpt-5.5 for judge anthropic/claude-opus-4.7 on ", ", 2 of them by the model whose answer they judged)"},
			"judge anthropic/claude-opus-4.7: 4 class A votes were served by another model (openai/gpt-5.5 ×4): they still count as its votes",
			"Claude's votes served by GPT-5.5: two of them judge GPT-5.5's own answers (§8.4)"},
		{"as recorded", func(modeltest.ChatRequest) string { return "" }, nil, nil, "",
			"every vote served under its judge's canonical slug, as the live API names it: the judge asked"},
		{"dated id", func(req modeltest.ChatRequest) string {
			if isJudgeRequest(req) {
				return req.Model + "-20260416"
			}
			return ""
		}, nil, nil, "", "a dated id of the judge asked is the judge"},
		{"no listing", func(modeltest.ChatRequest) string { return "" }, []string{"--no-preflight"},
			[]string{"4 " + judgeReason + " (anthropic/claude-4.7-opus-20260416 for judge anthropic/claude-opus-4.7 on ", "(checked on the asked id alone: the run read no listing that gives the judge's canonical slug)"},
			"checked on the asked id alone: no listing gave the judge's canonical slug",
			"without a listing Claude's slug is not the id asked, and the reason says the check had the id alone"},
	}) {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := recordedServer(t, c.served)
			reasons, warnings, md := judgeNight(t, srv, "judge_served_by_another_model", c.flags...)
			got := ""
			for _, r := range reasons {
				if strings.Contains(r, judgeReason) {
					got = r
				}
			}
			if len(c.want) == 0 {
				if got != "" || len(warnings) > 0 {
					t.Errorf("eligibility says %q, warnings %s (%s)", got, warnings, c.reason)
				}
				return
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("judge reason %q lacks %q (%s); reasons %q", got, w, c.reason, reasons)
				}
			}
			var w struct {
				Model string `json:"model"`
				N     int    `json:"n"`
			}
			if len(warnings) != 1 || json.Unmarshal(warnings[0], &w) != nil || w.Model != "anthropic/claude-opus-4.7" || w.N != 4 {
				t.Errorf("JSON warnings %s: want one about Claude's votes (%s)", warnings, c.reason)
			}
			if !strings.Contains(md, c.md) {
				t.Errorf("the Markdown report lacks %q (%s):\n%s", c.md, c.reason, md)
			}
		})
	}
}
