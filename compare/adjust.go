package compare

import (
	"fmt"
	"math"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
)

// Adjust adjusts every test of a family of rows together (Holm's method,
// stats.Holm): the signed-rank test of each row and the exact test of its
// lossless answers. A row's change is "better" or "worse" only when its
// adjusted p-value is under Alpha; a row without a test (no document
// differs) is "=". It returns the number of tests, and says per row what
// a non-significant test would have needed.
func Adjust(rows []Row) int {
	var ps []float64
	var dst []**float64
	for i := range rows {
		r := &rows[i]
		for _, d := range []*Delta{&r.Center, &r.Lossless} {
			if d.P != nil {
				ps, dst = append(ps, *d.P), append(dst, &d.PAdjusted)
			}
		}
	}
	for i, p := range stats.Holm(ps) {
		*dst[i] = ptr(p)
	}
	for i := range rows {
		setChange(&rows[i], len(ps))
	}
	return len(ps)
}

// setChange decides a row's changes from its adjusted tests.
func setChange(r *Row, tests int) {
	r.Center.Change = "="
	r.Center.decide(r.Center.PAdjusted)
	if r.Lossless.Change != "" {
		r.Lossless.decide(r.Lossless.PAdjusted)
	}
	r.Resolution = resolution(r, tests)
}

// resolution says, for a row whose documents differ but not
// significantly, what the exact tests would have needed: the fewest
// differing documents (or discordant answers) with which either can reach
// p < Alpha at all, before adjustment; beyond that, that the difference
// is within what this n and this many tests can tell from chance.
func resolution(r *Row, tests int) string {
	if r.Center.Change != "~" {
		return ""
	}
	need, sure := stats.SignedRankNeeds(Alpha), stats.SignedRankNeeds(Alpha/float64(max(tests, 1)))
	if r.N < need {
		return fmt.Sprintf("unresolved: %d of %d documents differ; the signed-rank test needs at least %d, and %d to pass Holm's adjustment over %d tests whatever the others show",
			r.N, r.Pairs, need, sure, tests)
	}
	text := fmt.Sprintf("unresolved: %d of %d documents differ, p = %.3g (%.3g adjusted over %d tests)", r.N, r.Pairs, *r.Center.P, *r.Center.PAdjusted, tests)
	if r.N < sure {
		text += fmt.Sprintf("; %d differing documents could pass Holm's adjustment whatever the others show", sure)
	}
	return text
}

// repeatNoise is, per document with m ≥ 2 compared repeats on both
// sides, how far its value moves between two runs by its own repeat noise
// alone (95%): 1.96 · √(s²_old/k_old + s²_new/k_new), s² each side's
// sample variance over the document's repeats and k their number. It
// returns the median of those bands and how many documents changed by
// more than their own; nil and 0 for fewer than two repeats.
func repeatNoise(olds, news []report.DocumentResult, m int) (*float64, int) {
	if m < 2 {
		return nil, 0
	}
	old := map[string][]float64{}
	for _, d := range olds {
		old[d.TaskID] = repeatValues(d, m)
	}
	var bands []float64
	beyond := 0
	for _, d := range news {
		o, n := old[d.TaskID], repeatValues(d, m)
		if len(o) < 2 || len(n) < 2 {
			continue
		}
		band := 1.96 * math.Sqrt(variance(o)/float64(len(o))+variance(n)/float64(len(n)))
		bands = append(bands, band)
		if math.Abs(*meanOf(n)-*meanOf(o)) > band+Tie {
			beyond++
		}
	}
	if len(bands) == 0 {
		return nil, 0
	}
	return ptr(stats.Median(bands)), beyond
}

// variance is the sample variance of xs (n − 1 in the denominator).
func variance(xs []float64) float64 {
	m, ss := stats.Mean(xs), 0.0
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return ss / float64(len(xs)-1)
}

// repeatsOf is the most repeats a document of a class has.
func repeatsOf(docs []report.DocumentResult) int {
	k := 0
	for _, d := range docs {
		k = max(k, len(d.Repeats))
	}
	return k
}

// repeatValues are a document's values (drift, or faithful as 1 or 0) in
// its first m repeats, those that have one.
func repeatValues(d report.DocumentResult, m int) []float64 {
	var xs []float64
	for _, r := range d.Repeats[:min(m, len(d.Repeats))] {
		switch {
		case r.Drift != nil:
			xs = append(xs, *r.Drift)
		case r.Faithful != nil && *r.Faithful:
			xs = append(xs, 1)
		case r.Faithful != nil:
			xs = append(xs, 0)
		}
	}
	return xs
}

// meanOf is the mean of xs, exactly their value when they agree (the
// same answers give the same value at any number of repeats); nil for
// none.
func meanOf(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	for _, x := range xs[1:] {
		if x != xs[0] {
			return ptr(stats.Mean(xs))
		}
	}
	return ptr(xs[0])
}

func ptr[T any](v T) *T { return &v }
