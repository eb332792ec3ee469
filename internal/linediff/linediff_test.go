package linediff

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestDiff(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		name     string
		a, b     string
		want     string // ops of the diff, one character per line
		nhunks   int
		reason   string
		contextN int
	}{
		{"same", "a\nb\nc\n", "a\nb\nc\n", "   ", 0, "no change, no hunk", 3},
		{"replace", "a\nb\nc\n", "a\nB\nc\n", " -+ ", 1, "a changed line is a deletion and an insertion", 3},
		{"insert", "a\nc\n", "a\nb\nc\n", " + ", 1, "an added line", 3},
		{"far apart", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\ny\n", "-+        -+", 2, "changes more than 2·context apart make two hunks", 1},
		{"close", "1\n2\n3\n4\n", "x\n2\n3\ny\n", "-+  -+", 1, "changes within 2·context share a hunk", 1},
	}) {
		lines, _ := Diff(Split(tc.a), Split(tc.b))
		ops := ""
		for _, l := range lines {
			ops += l.Op
		}
		if ops != tc.want {
			t.Errorf("%s: ops %q, want %q (%s)", tc.name, ops, tc.want, tc.reason)
		}
		if h := Hunks(lines, tc.contextN); len(h) != tc.nhunks {
			t.Errorf("%s: %d hunks, want %d (%s)", tc.name, len(h), tc.nhunks, tc.reason)
		}
	}
}

// TestUnifiedShowsAnInsertionOnce: one inserted line reads as one "+"
// line, not as every later line changed (the golden helper's old
// positional diff showed five changed lines for it).
func TestUnifiedShowsAnInsertionOnce(t *testing.T) {
	got := Unified("a\nb\nc\nd\ne\n", "a\nX\nb\nc\nd\ne\n", 1)
	want := "@@ -1,2 +1,3 @@\n  a\n+ X\n  b\n"
	if got != want {
		t.Errorf("Unified =\n%s\nwant\n%s", got, want)
	}
	if Unified("same\n", "same\n", 3) != "" {
		t.Error("equal texts have a diff")
	}
}
