package report

import "bendscript.com/round-trip-harness/stats"

// QuantileDefinition is the report's one quantile definition, recorded in
// Report.Quantile (stats.Quantile).
const QuantileDefinition = stats.QuantileDefinition

// Resamples is the number of bootstrap resamples per interval.
const Resamples = stats.Resamples

// interval is a bootstrap interval of package stats (stats.Bootstrap,
// stats.BootstrapQuantile) as the report's Interval; nil when there is
// none (fewer than two values).
func interval(low, high float64, ok bool) *Interval {
	if !ok {
		return nil
	}
	return &Interval{Low: low, High: high}
}
