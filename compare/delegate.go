package compare

import (
	"fmt"
	"slices"
	"strconv"

	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/unit"
)

// RSRow compares one model's RS@k in one answer format (the delegate
// suite's reconstruction score, report.Delegation) between two reports:
// the mean over documents old → new, and the signed-rank test over the
// documents both have (each document's RS@k the mean of its repeats,
// recomputed from the chains' round-trip rises). The test is reported
// unadjusted, apart from the Holm family of the drift rows.
type RSRow struct {
	Model  string   `json:"model"`
	Format string   `json:"format"`
	K      int      `json:"k"`
	Old    *float64 `json:"old,omitempty"`
	New    *float64 `json:"new,omitempty"`
	Pairs  int      `json:"pairs"`
	P      *float64 `json:"p,omitempty"`
	// Change is "better" (higher RS), "worse", "~" (p ≥ Alpha) or "=" (no
	// document differs).
	Change string `json:"change"`
}

// perDocumentRS is, per (model, format), each document's RS@k (the mean
// of its repeats) from a delegation's chains.
func perDocumentRS(d *report.Delegation, k int) map[[2]string]map[string]float64 {
	sums := map[[2]string]map[string][]float64{}
	for _, c := range d.Chains {
		if len(c.Rises) < k/2 {
			continue
		}
		drift := 0.0
		for _, r := range c.Rises[:k/2] {
			drift += r
		}
		key := [2]string{c.Model, c.Format}
		if sums[key] == nil {
			sums[key] = map[string][]float64{}
		}
		sums[key][c.Chain] = append(sums[key][c.Chain], 1-drift)
	}
	out := map[[2]string]map[string]float64{}
	for key, docs := range sums {
		out[key] = map[string]float64{}
		for doc, xs := range docs {
			out[key][doc] = stats.Mean(xs)
		}
	}
	return out
}

func delegationOf(r *report.Report) *report.Delegation {
	for _, sec := range r.Sections {
		if sec.Delegation != nil {
			return sec.Delegation
		}
	}
	return nil
}

// compareRS compares the RS@k of the surfaces and ks both reports have.
func (c *Comparison) compareRS(old, new *report.Report) {
	od, nd := delegationOf(old), delegationOf(new)
	if od == nil || nd == nil {
		return
	}
	for _, s := range nd.Surfaces {
		for _, at := range s.RS {
			if !slices.Contains(od.Ks, at.K) {
				continue
			}
			key := [2]string{s.Model, s.Format}
			o, n := perDocumentRS(od, at.K)[key], perDocumentRS(nd, at.K)[key]
			if len(o) == 0 || len(n) == 0 {
				continue
			}
			row := RSRow{Model: s.Model, Format: s.Format, K: at.K, Change: "="}
			var diffs []float64
			var os, ns []float64
			for _, doc := range slices.Sorted(mapKeys(n)) {
				ov, ok := o[doc]
				if !ok {
					continue
				}
				os, ns = append(os, ov), append(ns, n[doc])
				diff := n[doc] - ov
				if unit.Num(ov) == unit.Num(n[doc]) {
					diff = 0
				}
				diffs = append(diffs, diff)
			}
			if len(diffs) == 0 {
				continue
			}
			row.Old, row.New, row.Pairs = ptr(stats.Mean(os)), ptr(stats.Mean(ns)), len(diffs)
			if p, m, sign := stats.SignedRank(diffs); m > 0 {
				row.P = &p
				switch {
				case p >= Alpha:
					row.Change = "~"
				case sign > 0:
					row.Change = "better"
				default:
					row.Change = "worse"
				}
			}
			c.RS = append(c.RS, row)
		}
	}
}

func mapKeys(m map[string]float64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// rsTable is the RS@k rows, old → new.
func (c *Comparison) rsTable() render.Table {
	t := render.Table{Head: []string{"model", "format", "k", "RS@k old → new (the harness's similarity)", "Δ", "documents", "vs old (signed-rank, unadjusted)"}, MDAlign: "|---|---|---:|---:|---:|---:|---:|"}
	for _, r := range c.RS {
		p := ""
		if r.P != nil {
			p = fmt.Sprintf(" (p=%s)", unit.Num(*r.P))
		}
		t.Add(r.Model, r.Format, strconv.Itoa(r.K), arrow(r.Old, r.New), delta(r.Old, r.New), strconv.Itoa(r.Pairs), r.Change+p)
		free(&t)
	}
	return t
}
