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
		if r.P != nil {
			ps, dst = append(ps, *r.P), append(dst, &r.PAdjusted)
		}
		if r.LosslessP != nil {
			ps, dst = append(ps, *r.LosslessP), append(dst, &r.LosslessPAdjusted)
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
	r.Change = "="
	if r.PAdjusted != nil {
		r.Change = "~"
		if *r.PAdjusted < Alpha {
			r.Change = "worse"
			if (r.sign > 0) == r.higher {
				r.Change = "better"
			}
		}
	}
	if r.LosslessChange != "" && r.LosslessPAdjusted != nil {
		r.LosslessChange = "~"
		if *r.LosslessPAdjusted < Alpha {
			r.LosslessChange = "worse"
			if r.Gained > r.Lost {
				r.LosslessChange = "better"
			}
		}
	}
	r.Resolution = resolution(r, tests)
}

// resolution says, for a row whose documents differ but not
// significantly, what the exact tests would have needed: the fewest
// differing documents (or discordant answers) with which either can reach
// p < Alpha at all, before adjustment; beyond that, that the difference
// is within what this n and this many tests can tell from chance.
func resolution(r *Row, tests int) string {
	if r.Change != "~" {
		return ""
	}
	need := stats.SignedRankNeeds(Alpha)
	if r.N < need {
		return fmt.Sprintf("unresolved: %d of %d documents differ; the signed-rank test needs at least %d", r.N, r.Pairs, need)
	}
	return fmt.Sprintf("unresolved: %d of %d documents differ, p = %.3g (%.3g adjusted over %d tests)", r.N, r.Pairs, *r.P, *r.PAdjusted, tests)
}

// repeatNoise is how far a document's value moves between two runs by
// repeat noise alone (95%): 1.96 · s · √(1/k_old + 1/k_new), where s is the
// within-document standard deviation over repeats, pooled over both runs'
// documents, and k the repeats of each run; nil unless both runs have two
// repeats or more.
func repeatNoise(olds, news []report.DocumentResult) *float64 {
	ko, so, do := spread(olds)
	kn, sn, dn := spread(news)
	if ko < 2 || kn < 2 || do+dn == 0 {
		return nil
	}
	s := math.Sqrt((so + sn) / float64(do+dn))
	v := 1.96 * s * math.Sqrt(1/float64(ko)+1/float64(kn))
	return &v
}

// spread sums the squared deviations of the documents' repeats from their
// mean (drift, or faithful as 0 or 1) and their degrees of freedom, and
// gives the most repeats a document has.
func spread(docs []report.DocumentResult) (k int, ss float64, df int) {
	for _, d := range docs {
		var xs []float64
		for _, r := range d.Repeats {
			switch {
			case r.Drift != nil:
				xs = append(xs, *r.Drift)
			case r.Faithful != nil && *r.Faithful:
				xs = append(xs, 1)
			case r.Faithful != nil:
				xs = append(xs, 0)
			}
		}
		k = max(k, len(xs))
		if len(xs) < 2 {
			continue
		}
		m := stats.Mean(xs)
		for _, x := range xs {
			ss += (x - m) * (x - m)
		}
		df += len(xs) - 1
	}
	return k, ss, df
}

func ptr[T any](v T) *T { return &v }
