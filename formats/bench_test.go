package formats_test

import (
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// frontInserts is an answer of n operations that each insert a block at
// the front of the document: the pattern that made patch application
// quadratic (issue 32). With fail, the last operation fails instead, so
// that the failing one must be found.
func frontInserts(format string, n int, fail bool) string {
	ops := make([]string, 0, n)
	if fail {
		n--
	}
	for i := range n {
		if format == formats.JSONPatch {
			ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/blocks/0","value":{"id":"blk-x%d","kind":"paragraph","spans":[]}}`, i))
		} else {
			ops = append(ops, fmt.Sprintf(`{"op":"insert_block","after":"","block":{"id":"blk-x%d","kind":"paragraph","spans":[]}}`, i))
		}
	}
	if fail && format == formats.JSONPatch {
		ops = append(ops, `{"op":"remove","path":"/nope"}`)
	} else if fail {
		ops = append(ops, `{"op":"remove_block","block":"blk-nope"}`)
	}
	return "[" + strings.Join(ops, ",") + "]"
}

// BenchmarkFrontInserts applies n front inserts in each patch format,
// with and without a failing last operation: up to MaxOps they are
// applied, beyond it refused.
func BenchmarkFrontInserts(b *testing.B) {
	given := tasktest.Set(b).Task("02-b").Source.Bytes
	for _, format := range []string{formats.JSONPatch, formats.BendOps} {
		f := formats.Lookup(format)
		for _, n := range []int{250, formats.MaxOps, 20000} {
			for _, fail := range []bool{false, true} {
				raw := frontInserts(format, n, fail)
				b.Run(fmt.Sprintf("%s/n=%d/fail=%v", format, n, fail), func(b *testing.B) {
					for b.Loop() {
						f.Apply(given, raw)
					}
				})
			}
		}
	}
}

// BenchmarkSearchReplaceApply applies one SEARCH/REPLACE block to a text
// of 1, 4 and 16 MiB: a unique line near the end of a JSON document, and
// a SEARCH of an eighth of the text in a text of one repeated byte (it
// overlaps itself at every position: counting each overlapping place was
// O(len(text)·len(SEARCH)), issue 45). Both are linear.
func BenchmarkSearchReplaceApply(b *testing.B) {
	for _, mib := range []int{1, 4, 16} {
		n := mib<<20 - 64
		filler := strings.Repeat("a", n)
		given := []byte(`{"blocks":[],"edges":[],"meta":{"x":"` + filler + `"},"z":1}`)
		unique := formats.Block(`"z":1}`, `"z":2}`)
		repeated := formats.Block(filler[:n/8], filler[:n/8]+"b")
		for _, c := range tabletest.Cases(b, []struct{ name, raw, reason string }{
			{"unique", unique, "the common case: one place near the end"},
			{"repeated", repeated, "a SEARCH that overlaps itself everywhere: was quadratic"},
		}) {
			b.Run(fmt.Sprintf("%s/%dMiB", c.name, mib), func(b *testing.B) {
				b.SetBytes(int64(len(given)))
				f := formats.Lookup(formats.SearchReplace)
				for b.Loop() {
					f.Apply(given, c.raw)
				}
			})
		}
	}
}
