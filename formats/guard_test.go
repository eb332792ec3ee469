package formats

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestGuardTurnsAPanicIntoAFailure: a format's Apply that panics on one
// answer (the projection parser on a text nested 65 deep) crashed a run,
// its rescore and its resume; guard makes it that answer's Failure.
func TestGuardTurnsAPanicIntoAFailure(t *testing.T) {
	apply := guard(Projection, func([]byte, string) ([]byte, *Failure) {
		var lines []string
		return []byte(lines[0]), nil
	})
	out, fail := apply(nil, "x")
	if out != nil || fail == nil || fail.Kind != Failed || !strings.Contains(fail.Error(), "projection: the harness failed while reading this answer (runtime error: index out of range") {
		t.Errorf("out %q, failure %v; want the panic as a Failure", out, fail)
	}
}

// TestFindCountsPlaces: find says whether a SEARCH occurs at one place,
// overlapping occurrences counted as places, in linear time (issue 45:
// counting every overlapping occurrence was quadratic).
func TestFindCountsPlaces(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct {
		text, s string
		at, n   int
		reason  string
	}{
		{"xyz", "y", 1, 1, "once"},
		{"xyz", "q", -1, 0, "nowhere"},
		{"abcabc", "abc", 0, 2, "twice, apart"},
		{"aaa", "aa", 0, 2, "two places that overlap: not exactly once"},
		{"aaaaaaaa", "aa", 0, 4, "the count of non-overlapping occurrences when ambiguous"},
	}) {
		if at, n := find(c.text, c.s); at != c.at || n != c.n {
			t.Errorf("find(%q, %q) = %d, %d; want %d, %d (%s)", c.text, c.s, at, n, c.at, c.n, c.reason)
		}
	}
}
