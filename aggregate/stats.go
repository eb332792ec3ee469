package aggregate

import (
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/verdict"
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
func intervalInfo() report.IntervalInfo {
	return report.IntervalInfo{Level: stats.Level, Quantiles: QuantileMethod, Shares: ShareMethod, Unit: UnitText}
}

// quantileInterval is verdict.QuantileInterval.
func quantileInterval(xs []float64, p float64) *verdict.Interval {
	return verdict.QuantileInterval(xs, p)
}

// shareInterval is verdict.ShareInterval.
func shareInterval(k, n int) *verdict.Interval { return verdict.ShareInterval(k, n) }
