package verdict

import (
	"fmt"

	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/unit"
)

// Interval is an exact confidence statement about a population value: it
// is at least Low with confidence LowLevel and at most High with
// confidence HighLevel, so in [Low, High] with confidence Level. At
// Level ≥ 0.95 it is a 95% interval; below, no 95% interval exists at
// this n and the two ends are one-sided statements (stats.Bound).
type Interval struct {
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	Level     float64 `json:"level"`
	LowLevel  float64 `json:"low_level"`
	HighLevel float64 `json:"high_level"`
	// Method names how: "order statistics x(6), x(15)" (a quantile) or
	// "Clopper–Pearson 18/20" (a share).
	Method string `json:"method"`
}

// QuantileInterval is the exact interval of the population quantile p
// from xs; nil for no values.
func QuantileInterval(xs []float64, p float64) *Interval {
	if len(xs) == 0 {
		return nil
	}
	b := stats.QuantileBound(xs, p, stats.Level)
	return fromBound(b, fmt.Sprintf("order statistics x(%d), x(%d) of %d", b.LowRank, b.HighRank, len(xs)))
}

// ShareInterval is the Clopper–Pearson interval of a share of k in n;
// nil for n = 0.
func ShareInterval(k, n int) *Interval {
	if n == 0 {
		return nil
	}
	return fromBound(stats.ShareBound(k, n, stats.Level), fmt.Sprintf("Clopper–Pearson %d/%d", k, n))
}

// fromBound is a stats.Bound as an Interval, its confidences
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
