package viewer

import (
	"testing"

	"bendscript.com/round-trip-harness/report"
)

// TestRSPlotLosslessOnItsOwnAxis: an RS@k panel draws the lossless share
// as bars on a right axis of its own, in percent, and RS@k as circles on
// the left one (issue 56: squares on the RS@k axis covered the oracle's
// dots, both at 1): one bar per k with chains, no square mark.
func TestRSPlotLosslessOnItsOwnAxis(t *testing.T) {
	t.Parallel()
	sec := report.Section{Delegation: &report.Delegation{Ks: []int{2, 4}, Horizon: 4, Surfaces: []report.DelegateSurface{{Model: "m", Format: "document",
		RS: []report.RSAt{{K: 2, Mean: 1, Low: 1, High: 1, Chains: 4, Lossless: 4}, {K: 4, Mean: 0.9, Low: 0.8, High: 1, Chains: 4, Lossless: 1}}}}}}
	plots := rsPlots(sec)
	if len(plots) != 1 {
		t.Fatalf("%d panels, want 1", len(plots))
	}
	p := plots[0]
	if p.Y2Title == "" || len(p.Y2Ticks) == 0 || p.Y2Ticks[len(p.Y2Ticks)-1].Label != "100%" {
		t.Errorf("no right axis in percent: title %q, ticks %v", p.Y2Title, p.Y2Ticks)
	}
	if len(p.Bars) != 2 {
		t.Errorf("%d lossless bars, want one per k", len(p.Bars))
	}
	circles := 0
	for _, m := range p.Marks {
		if m.Shape == "square" {
			t.Errorf("a square mark (%s) on the RS@k axis", m.Title)
		}
		if m.Shape == "circle" {
			circles++
		}
	}
	if circles != 2 {
		t.Errorf("%d RS@k circles, want 2", circles)
	}
	if p.Caption != "m (document): RS@k (the harness's similarity)" {
		t.Errorf("caption %q does not name the surface", p.Caption)
	}
}
