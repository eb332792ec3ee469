package judge

import (
	"errors"
	"reflect"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestParseVote(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    *Vote // nil: an error wrapping ErrNotVote
		reason  string
	}{
		{
			name:    "bare faithful",
			content: `{"faithful": true, "quotes": ["41 species"], "reason": "stated"}`,
			want:    &Vote{Faithful: ptr(true), Quotes: []string{"41 species"}, Reason: "stated"},
			reason:  "structured output arrives as the bare object",
		},
		{
			name:    "bare unfaithful with white space and BOM",
			content: "\ufeff\n  {\"faithful\": false, \"quotes\": [], \"reason\": \"invented\"}\n",
			want:    &Vote{Faithful: ptr(false), Quotes: []string{}, Reason: "invented"},
			reason:  "surrounding white space and a byte-order mark are not part of the reply",
		},
		{
			name:    "fenced",
			content: "Here is my judgment:\n```json\n{\"faithful\": true, \"quotes\": [\"a\"], \"reason\": \"r\"}\n```\n",
			want:    &Vote{Faithful: ptr(true), Quotes: []string{"a"}, Reason: "r"},
			reason:  "providers without structured output often fence the object",
		},
		{
			name:    "indented fence amid braces",
			content: "Checked {the} sources:\n  ```json\n  {\"faithful\": true, \"quotes\": [], \"reason\": \"r\"}\n  ```\nDone {ok}.",
			want:    &Vote{Faithful: ptr(true), Quotes: []string{}, Reason: "r"},
			reason:  "a fence indented by up to three spaces is a fence (CommonMark), as metric.ExtractJSON reads answers; the braces in the prose make the fallback useless, so only the fence can yield the vote",
		},
		{
			name:    "tilde fence without language",
			content: "~~~\n{\"faithful\": false, \"quotes\": [], \"reason\": \"r\"}\n~~~",
			want:    &Vote{Faithful: ptr(false), Quotes: []string{}, Reason: "r"},
			reason:  "any CommonMark fence is read",
		},
		{
			name:    "fence beside another fence",
			content: "```json\n{\"answer\": \"x\"}\n```\n```json\n{\"faithful\": true, \"quotes\": [], \"reason\": \"r\"}\n```",
			want:    &Vote{Faithful: ptr(true), Quotes: []string{}, Reason: "r"},
			reason:  "a judge that echoes the answer in a fence still has one vote",
		},
		{
			name:    "prose around the object",
			content: `My verdict is {"faithful": false, "quotes": [], "reason": "no"} as requested.`,
			want:    &Vote{Faithful: ptr(false), Quotes: []string{}, Reason: "no"},
			reason:  "an object inside prose is still the judge's vote",
		},
		{
			name:    "quotes and reason absent",
			content: `{"faithful": true}`,
			want:    &Vote{Faithful: ptr(true), Quotes: []string{}},
			reason:  "only faithful is required; a missing quote list is empty, not an error",
		},
		{
			name:    "quotes null",
			content: `{"faithful": true, "quotes": null, "reason": null}`,
			want:    &Vote{Faithful: ptr(true), Quotes: []string{}},
			reason:  "null is read as absent",
		},
		{name: "refusal", content: "I'm sorry, but I can't help with that.", reason: "a refusal is a judge error, never a verdict"},
		{name: "empty", content: "  \n", reason: "an empty reply is a judge error"},
		{name: "invalid JSON", content: `{"faithful": true, "quotes": [}`, reason: "broken JSON is a judge error"},
		{name: "faithful missing", content: `{"quotes": [], "reason": "unsure"}`, reason: "an object without a decision is no vote"},
		{name: "faithful as string", content: `{"faithful": "true", "quotes": []}`, reason: "a string is not a boolean: no guessing at what the judge meant"},
		{name: "faithful null", content: `{"faithful": null}`, reason: "null is no decision"},
		{name: "quotes not strings", content: `{"faithful": true, "quotes": [1, 2]}`, reason: "quotes must be text to be grounded"},
		{name: "reason not string", content: `{"faithful": true, "reason": ["a"]}`, reason: "a malformed member makes the reply malformed"},
		{name: "array", content: `[{"faithful": true}]`, reason: "the vote is an object, not a list of them"},
		{
			name:    "two fenced votes",
			content: "```json\n{\"faithful\": true}\n```\n```json\n{\"faithful\": false}\n```",
			reason:  "two contradicting votes in one reply are no vote",
		},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseVote(tt.content)
			if tt.want == nil {
				if err == nil || !errors.Is(err, ErrNotVote) {
					t.Fatalf("ParseVote = %+v, %v; want an error wrapping ErrNotVote (%s)", got, err, tt.reason)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseVote: %v (%s)", err, tt.reason)
			}
			if !reflect.DeepEqual(got, *tt.want) {
				t.Errorf("ParseVote = %+v, want %+v (%s)", got, *tt.want, tt.reason)
			}
		})
	}
}

func FuzzParseVote(f *testing.F) {
	for _, s := range []string{
		`{"faithful": true, "quotes": ["x"], "reason": "y"}`,
		"```json\n{\"faithful\": false}\n```",
		"text {\"faithful\": true} text",
		"```\n{",
		"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVote(s)
		if err == nil && (v.Faithful == nil || v.Quotes == nil) {
			t.Fatalf("ParseVote(%q) = %+v without error, but no decision or nil quotes", s, v)
		}
	})
}
