package projection_test

import (
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/projection"
)

// BenchmarkParse parses projections of 1, 4 and 16 MiB: many paragraphs,
// and one block of many attributes (checking each attribute's key against
// every earlier one was quadratic, issue 45). Both are linear.
func BenchmarkParse(b *testing.B) {
	for _, mib := range []int{1, 4, 16} {
		size := mib<<20 - 1024
		var paras, attrs strings.Builder
		paras.WriteString("---\nbendscript: \"0.1\"\n---\n")
		for i := 0; paras.Len() < size; i++ {
			fmt.Fprintf(&paras, "\n[Paragraph %d of the benchmark, with some words in it.]{#spn-%d} {#blk-%d}\n", i, i, i)
		}
		attrs.WriteString("---\nbendscript: \"0.1\"\n---\n\n[x]{#spn-1} {#blk-1")
		for i := 0; attrs.Len() < size; i++ {
			fmt.Fprintf(&attrs, " k%d=%d", i, i)
		}
		attrs.WriteString("}\n")
		for _, c := range tabletest.Cases(b, []struct{ name, text, reason string }{
			{"paragraphs", paras.String(), "many blocks"},
			{"attributes", attrs.String(), "one block of many attributes: was quadratic"},
		}) {
			b.Run(fmt.Sprintf("%s/%dMiB", c.name, mib), func(b *testing.B) {
				b.SetBytes(int64(len(c.text)))
				for b.Loop() {
					if _, err := projection.Parse(c.text); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
