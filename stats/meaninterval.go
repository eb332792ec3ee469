package stats

import "math"

// MeanInterval is the mean of xs with its two-sided Student-t 95%
// interval (mean ± t₀.₉₇₅,ₙ₋₁·s/√n), clipped to [0, 1]; a single value is
// its own interval.
func MeanInterval(xs []float64) (mean, low, high float64) {
	mean = Mean(xs)
	n := len(xs)
	if n < 2 {
		return mean, mean, mean
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := tQuantile975(n-1) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	return mean, max(0, mean-half), min(1, mean+half)
}

// tTable is Student's t at 0.975 for 1 to 30 degrees of freedom.
var tTable = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// tQuantile975 is Student's t at 0.975 for df degrees of freedom: the
// table to 30, then the Cornish–Fisher expansion about the normal's
// 1.95996 (within 0.001 of the exact value beyond 30).
func tQuantile975(df int) float64 {
	if df <= len(tTable) {
		return tTable[df-1]
	}
	const z = 1.959964
	v := float64(df)
	return z + (z*z*z+z)/(4*v) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*v*v)
}
