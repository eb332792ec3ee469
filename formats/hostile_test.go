package formats_test

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/formats"
)

// TestPatchOfTooManyOperationsRefused: an answer of N inserts at the
// front took time in N² (JSON Patch 80,000 ops 9.8 s, ~51 min when the
// last failed; bend-ops 20,000 ops 34 s), and rescore and show paid it
// again. An answer of more than MaxOps operations is refused unapplied,
// naming the limit; one of MaxOps is applied.
func TestPatchOfTooManyOperationsRefused(t *testing.T) {
	given := source02(t)
	for _, format := range []string{formats.JSONPatch, formats.BendOps} {
		f := formats.Lookup(format)
		if _, fail := f.Apply(given, frontInserts(format, formats.MaxOps+1, false)); fail == nil || fail.Kind != formats.NotFormat || !strings.Contains(fail.Reason, "over the limit of 1000 per answer") {
			t.Errorf("%s, %d operations: %v; want NotFormat naming the limit", format, formats.MaxOps+1, fail)
		}
		if _, fail := f.Apply(given, frontInserts(format, formats.MaxOps, false)); fail != nil {
			t.Errorf("%s, %d operations: %v; want them applied", format, formats.MaxOps, fail)
		}
	}
}

// TestLeadingZeroIndexRefused: "/blocks/01" was accepted as a JSON Patch
// index (evanphx reads it as 1), though RFC 6901 allows no leading zero.
func TestLeadingZeroIndexRefused(t *testing.T) {
	given := source02(t)
	for _, raw := range []string{`[{"op":"remove","path":"/blocks/01"}]`, `[{"op":"move","from":"/blocks/00","path":"/blocks/0"}]`} {
		_, fail := formats.Lookup(formats.JSONPatch).Apply(given, raw)
		if fail == nil || fail.Kind != formats.NotFormat || !strings.Contains(fail.Reason, "not a JSON pointer") {
			t.Errorf("%s: %v; want NotFormat: not a JSON pointer", raw, fail)
		}
	}
	if _, fail := formats.Lookup(formats.JSONPatch).Apply(given, `[{"op":"remove","path":"/blocks/0"}]`); fail != nil {
		t.Errorf("/blocks/0: %v", fail)
	}
}
