package report

import (
	"fmt"

	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/unit"
)

// QuantileDefinition is the report's one quantile definition, recorded in
// Report.Quantile (stats.Quantile).
const QuantileDefinition = stats.QuantileDefinition

// The methods of the report's intervals (IntervalInfo).
const (
	QuantileMethod = "order statistics: the exact distribution-free interval of a population quantile from the binomial; one-sided ends, each with its own confidence, where no two-sided 95% interval exists (a P95 below 59 documents)"
	ShareMethod    = "Clopper–Pearson: the exact binomial interval of a share"
	UnitText       = "each document's first scored repeat; the other repeats give each gated statistic's spread"
)

// intervalInfo describes the report's intervals.
func intervalInfo() IntervalInfo {
	return IntervalInfo{Level: stats.Level, Quantiles: QuantileMethod, Shares: ShareMethod, Unit: UnitText}
}

// quantileInterval is the exact interval of the population quantile p
// from xs; nil for no values.
func quantileInterval(xs []float64, p float64) *Interval {
	if len(xs) == 0 {
		return nil
	}
	b := stats.QuantileBound(xs, p, stats.Level)
	return fromBound(b, fmt.Sprintf("order statistics x(%d), x(%d) of %d", b.LowRank, b.HighRank, len(xs)))
}

// shareInterval is the Clopper–Pearson interval of a share of k in n;
// nil for n = 0.
func shareInterval(k, n int) *Interval {
	if n == 0 {
		return nil
	}
	return fromBound(stats.ShareBound(k, n, stats.Level), fmt.Sprintf("Clopper–Pearson %d/%d", k, n))
}

// fromBound is a stats.Bound as the report's Interval, its confidences
// rounded to 1e-6 so that the JSON is short and the same everywhere.
func fromBound(b stats.Bound, method string) *Interval {
	r := func(x float64) float64 { return roundTo(x, 1e6) }
	return &Interval{Low: b.Low, High: b.High, Level: r(b.Level), LowLevel: r(b.LowLevel), HighLevel: r(b.HighLevel), Method: method}
}

// roundTo rounds x to 1/scale.
func roundTo(x, scale float64) float64 { return float64(int64(x*scale+0.5)) / scale }

// TwoSided reports whether the interval reaches the report's level.
func (iv *Interval) TwoSided() bool { return iv.Level >= stats.Level-1e-9 }

// IntervalShort writes an interval for a table cell: "[0.01, 0.05]" at
// 95%, else with its confidence, "[0.12, 0.25: 62.6%]".
func IntervalShort(iv *Interval, show func(float64) string) string {
	if iv == nil {
		return ""
	}
	if iv.TwoSided() {
		return fmt.Sprintf("[%s, %s]", show(iv.Low), show(iv.High))
	}
	return fmt.Sprintf("[%s, %s: %s]", show(iv.Low), show(iv.High), unit.Percent(iv.Level))
}

// IntervalText writes an interval with show: "[0.01, 0.05]" at 95%, or
// its one-sided ends with their confidences where no 95% interval exists
// ("[≥ 0.12 at 98.4%, ≤ 0.25 at 64.2%]").
func IntervalText(iv *Interval, show func(float64) string) string {
	if iv == nil {
		return ""
	}
	if iv.TwoSided() {
		return fmt.Sprintf("[%s, %s]", show(iv.Low), show(iv.High))
	}
	return fmt.Sprintf("[≥ %s at %s, ≤ %s at %s]", show(iv.Low), unit.Percent(iv.LowLevel), show(iv.High), unit.Percent(iv.HighLevel))
}
