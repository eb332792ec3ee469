package formats_test

import (
	"testing"

	"bendscript.com/round-trip-harness/formats"
)

// TestEmptyReplaceKeepsTheLineBreak: the search-replace prompt says that
// an empty REPLACE deletes the SEARCH lines but not the line break after
// the last of them (issue 56: the prompt left it to the reader). This is
// what the format does: the line break stays, an empty line in the text.
func TestEmptyReplaceKeepsTheLineBreak(t *testing.T) {
	given := "{\n  \"a\": 1,\n  \"b\": 2\n}\n"
	got, fail := formats.Lookup(formats.SearchReplace).Apply([]byte(given), formats.Block("  \"a\": 1,", ""))
	if fail != nil {
		t.Fatalf("applying an empty REPLACE: %v", fail)
	}
	if want := "{\n\n  \"b\": 2\n}\n"; string(got) != want {
		t.Errorf("an empty REPLACE left %q, want %q: the SEARCH line gone, its line break kept, as the prompt says", got, want)
	}
}
