package task

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestPromptWordingSaysWhatItMeans: issue 56: a strong model answering
// the delegate suite read the prompts as follows, and was left to guess:
// an empty REPLACE did not say whether the line break after the last
// SEARCH line went too; the system prompt said "Leave id as it is: the
// harness recomputes it" while every step showed the original document's
// id on an edited document; "(local edit)" and "(semantic edit)" said
// nothing of what they meant for the answer; "Delete the divider … and
// everything in it" named content a divider has not. (What the empty
// REPLACE does is checked against the format in package formats,
// TestEmptyReplaceKeepsTheLineBreak.)
func TestPromptWordingSaysWhatItMeans(t *testing.T) {
	read := func(name string) string {
		b, err := fs.ReadFile(instructions.FS, "prompts/"+name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range tabletest.Cases(t, []struct {
		file, want, not, reason string
	}{
		{"format-search-replace.txt", "An empty REPLACE deletes the SEARCH lines but not the line break after the last of them", "an empty REPLACE deletes the whole SEARCH text",
			"an empty REPLACE says what becomes of the line break after the last SEARCH line"},
		{"system.txt", "a document shown to you after earlier edits still carries the id of the version it started from", "the harness recomputes it",
			"the id rule agrees with a step that shows an edited document under its original id"},
		{"format-search-replace.txt", "even when the document has changed since that id was computed", "",
			"the format's own id rule agrees with the system prompt's"},
		{"class-b.txt", "(local edit: a change to", "(local edit)", "a local edit says what it means for the answer"},
		{"class-c.txt", "(semantic edit: a change to", "(semantic edit)", "a semantic edit says what it means for the answer"},
	}) {
		text := read(c.file)
		if !strings.Contains(text, c.want) || c.not != "" && strings.Contains(text, c.not) {
			t.Errorf("%s: want %q and not %q (%s):\n%s", c.file, c.want, c.not, c.reason, text)
		}
	}
	// No instruction of the pools speaks of what is in a block that has
	// no content (a divider).
	names, err := fs.Glob(instructions.FS, "pool/*.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no pools: %v", err)
	}
	instruction := regexp.MustCompile(`"instruction":\s*("(?:[^"\\]|\\.)*")`)
	for _, n := range names {
		b, _ := fs.ReadFile(instructions.FS, n)
		for _, m := range instruction.FindAllSubmatch(b, -1) {
			var s string
			if json.Unmarshal(m[1], &s) != nil {
				continue
			}
			if strings.Contains(s, "divider") && strings.Contains(s, "everything in it") {
				t.Errorf("%s: %q speaks of everything in a divider, which has no content", n, s)
			}
		}
	}
}
