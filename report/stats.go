package report

import "bendscript.com/round-trip-harness/stats"

// QuantileDefinition is the report's one quantile definition, recorded in
// Report.Quantile (stats.Quantile).
const QuantileDefinition = stats.QuantileDefinition

// Resamples is the number of bootstrap resamples per interval.
const Resamples = stats.Resamples

// bootstrap is stats.Bootstrap as the report's Interval; nil for fewer
// than two values.
func bootstrap(xs []float64, statistic func([]float64) float64, seed int64, key string) *Interval {
	lo, hi, ok := stats.Bootstrap(xs, statistic, seed, key)
	if !ok {
		return nil
	}
	return &Interval{Low: lo, High: hi}
}
