package suggest

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestNearest(t *testing.T) {
	names := []string{"validate", "version", "run", "runs", "rescore"}
	for _, tc := range tabletest.Cases(t, []struct {
		s, want, reason string
	}{
		{"valdiate", "validate", "two edits is a typo"},
		{"vers", "version", "a prefix counts as one edit"},
		{"runz", "run", "of equally close names the first wins"},
		{"frobnicate", "", "nothing close is no suggestion"},
		{"", "validate", "the empty string is a prefix of every name"},
	}) {
		if got := Nearest(tc.s, names); got != tc.want {
			t.Errorf("Nearest(%q) = %q, want %q: %s", tc.s, got, tc.want, tc.reason)
		}
	}
}
