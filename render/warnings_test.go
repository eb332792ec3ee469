package render

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
)

// TestWarningText: each warning is worded from its data alone, and a kind
// this harness does not know prints as its kind and what it is about.
func TestWarningText(t *testing.T) {
	t.Parallel()
	for _, c := range tabletest.Cases(t, []struct {
		w      report.Warning
		want   string
		reason string
	}{
		{report.Warning{Kind: report.WarnServed, Model: "m", N: 3, Items: []string{"a", "b"}, Counts: []int{1, 2}},
			"m: 3 answers were served by another model (a ×1, b ×2): they are no evidence about m, and the run cannot gate v0.1 (§8.6)", "the served ids with their counts, in order"},
		{report.Warning{Kind: report.WarnJudgeServed, Model: "j", N: 3, Items: []string{"a", "b"}, Counts: []int{1, 2}},
			"judge j: 3 class A votes were served by another model (a ×1, b ×2): they still count as its votes, and the run cannot gate v0.1 (§8.4, §8.6)", "a judge's votes served by others, with their counts"},
		{report.Warning{Kind: report.WarnJudgeServed, Model: "j", N: 1, Items: []string{"a"}, Counts: []int{1}, Notes: []string{report.IDAlone}},
			"judge j: 1 class A vote was served by another model (a ×1): it still counts as its vote, and the run cannot gate v0.1 (§8.4, §8.6); checked on the asked id alone: no listing gave the judge's canonical slug (--no-preflight reads none), the name OpenRouter serves it under",
			"one vote, checked on the id alone"},
		{report.Warning{Kind: report.WarnNotReproducible, Model: "m", Items: []string{"seed", "temperature"}, Notes: []string{"", "is ignored"}},
			"m: does not support seed (not sent); temperature is ignored: its numbers are not reproducible call for call; --repeats N measures the noise", "a control without a note is one not sent"},
		{report.Warning{Kind: report.WarnFlaky, Model: "m", Class: "B", N: 1, Of: 1, Items: []string{"01-b"}},
			"m class B: 1 of 1 task flaky, lossless in some repeats but not all: 01-b", "singular of one task"},
		{report.Warning{Kind: report.WarnWritten, Items: []string{"as an old report wrote it"}}, "as an old report wrote it", "schema 2 and 3 wrote sentences"},
		{report.Warning{Kind: "new_kind", Model: "m", Class: "C", Items: []string{"x"}}, "m C new_kind x", "a newer report's kind"},
	}) {
		if got := WarningText(c.w); got != c.want {
			t.Errorf("%s: %q, want %q (%s)", c.w.Kind, got, c.want, c.reason)
		}
	}
}
