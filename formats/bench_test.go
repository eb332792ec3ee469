package formats_test

import (
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/testcorpus"
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
	given := testcorpus.Set(b).Task("02-b").Source.Bytes
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
