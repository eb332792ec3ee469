package verdict

import (
	"fmt"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/stats"
)

// TestDecisiveTextSaysWhenTheP95Fails: issue 56: the reading said "20
// documents can decide a fail (from 4 over)" beside a P95 that failed
// with 2 over. The count the text gives as where the P95 fails is now the
// one where stats.P95 crosses the limit, and the count it gives for a
// fail beyond noise is where the interval's lower end passes 5%.
func TestDecisiveTextSaysWhenTheP95Fails(t *testing.T) {
	const limit = 0.2
	for _, n := range []int{8, 20, 40, 100} {
		o := overOf(0, n)
		text := decisiveText(o)
		var from, allowed int
		if _, err := fmt.Sscanf(text, "the P95 fails from %d over (%d allowed)", &from, &allowed); err != nil {
			t.Errorf("%d documents: %q does not say where the P95 fails: %v", n, text, err)
			continue
		}
		p95 := func(over int) float64 {
			xs := make([]float64, n)
			for i := range over {
				xs[i] = 1
			}
			return stats.P95(xs)
		}
		if p95(from) <= limit || p95(from-1) > limit {
			t.Errorf("%d documents: the text says the P95 fails from %d over; it is %v with %d over and %v with %d", n, from, p95(from), from, p95(from-1), from-1)
		}
		if o.FailDecisiveFrom > 0 {
			if want := fmt.Sprintf("a fail beyond noise (the interval above 5%%) from %d over", o.FailDecisiveFrom); !o.PassDecisive && !strings.Contains(text, want) {
				t.Errorf("%d documents: %q lacks %q", n, text, want)
			}
			if lo := stats.ShareBound(o.FailDecisiveFrom, n, stats.Level).Low; lo <= gateShare {
				t.Errorf("%d documents: %d over is no fail beyond noise (lower end %v)", n, o.FailDecisiveFrom, lo)
			}
		}
	}
}
