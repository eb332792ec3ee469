package compare

import (
	"fmt"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
)

// TestCompareRS: RS@k per model, format and k, recomputed per document
// from the chains' rises, paired by document, with the signed-rank test:
// a loss in every document is worse, a gain better, no change "=".
func TestCompareRS(t *testing.T) {
	t.Parallel()
	rep := func(rise float64) *report.Report {
		d := &report.Delegation{Ks: []int{2, 4}, Surfaces: []report.DelegateSurface{{Model: "m", Format: "document", RS: []report.RSAt{{K: 2}, {K: 4}}}}}
		for i := range 12 {
			d.Chains = append(d.Chains, report.DelegateChain{Model: "m", Format: "document", Chain: fmt.Sprintf("%02d", i+1),
				Rises: []float64{rise * float64(i+1) / 12, 0}})
		}
		return &report.Report{Models: []string{"m"}, Results: map[string]*report.ModelResult{}, Sections: []report.Section{{Delegation: d}}}
	}
	tests := []struct {
		old, new float64
		want     string
		reason   string
	}{
		{0, 0.1, "worse", "every document lost up to 0.1 more in the first round trip"},
		{0.1, 0, "better", "every document lost less"},
		{0.1, 0.1, "=", "the same chains"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		c := Compare(rep(tt.old), rep(tt.new), "old", "new")
		if len(c.RS) != 2 {
			t.Fatalf("%d RS rows, want k = 2 and 4 (%s)", len(c.RS), tt.reason)
		}
		for _, r := range c.RS {
			if r.RS.Change != tt.want || r.Pairs != 12 {
				t.Errorf("RS@%d: %s over %d documents, want %s over 12 (%s)", r.K, r.RS.Change, r.Pairs, tt.want, tt.reason)
			}
		}
		if want := 1 - tt.new*6.5/12; c.RS[0].RS.New == nil || *c.RS[0].RS.New-want > 1e-12 || want-*c.RS[0].RS.New > 1e-12 {
			t.Errorf("RS@2 new %v, want %v (%s)", c.RS[0].RS.New, want, tt.reason)
		}
	}
}
