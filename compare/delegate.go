package compare

import (
	"encoding/json"
	"fmt"
	"maps"
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
	Model  string
	Format string
	// Rung is the size-ladder rung ("" for corpus documents).
	Rung string
	K    int
	// RS is the mean RS@k old → new and its signed-rank test, unadjusted
	// (no PAdjusted): Change "better" (higher RS), "worse", "~" (p ≥
	// Alpha) or "=" (no document differs).
	RS    Delta
	Pairs int
}

// rsRowJSON is an RSRow as its JSON has it, flat.
type rsRowJSON struct {
	Model  string   `json:"model"`
	Format string   `json:"format"`
	Rung   string   `json:"rung,omitempty"`
	K      int      `json:"k"`
	Old    *float64 `json:"old,omitempty"`
	New    *float64 `json:"new,omitempty"`
	Pairs  int      `json:"pairs"`
	P      *float64 `json:"p,omitempty"`
	Change string   `json:"change"`
}

// MarshalJSON writes the row flat (rsRowJSON).
func (r RSRow) MarshalJSON() ([]byte, error) {
	return json.Marshal(rsRowJSON{Model: r.Model, Format: r.Format, Rung: r.Rung, K: r.K, Old: r.RS.Old, New: r.RS.New, Pairs: r.Pairs, P: r.RS.P, Change: r.RS.Change})
}

// rsKey is a delegate surface's key: model, format and rung.
type rsKey [3]string

// perDocumentRS is, per (model, format, rung), each document's RS@k (the
// mean of its repeats) from a delegation's chains.
func perDocumentRS(d *report.Delegation, k int) map[rsKey]map[string]float64 {
	sums := map[rsKey]map[string][]float64{}
	for _, c := range d.Chains {
		if len(c.Rises) < k/2 {
			continue
		}
		drift := 0.0
		for _, r := range c.Rises[:k/2] {
			drift += r
		}
		key := rsKey{c.Model, c.Format, c.Rung}
		if sums[key] == nil {
			sums[key] = map[string][]float64{}
		}
		sums[key][c.Chain] = append(sums[key][c.Chain], 1-drift)
	}
	out := map[rsKey]map[string]float64{}
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
			os, ns, diffs := rsDiffs(od, nd, rsKey{s.Model, s.Format, s.Rung}, at.K)
			if len(diffs) == 0 {
				continue
			}
			row := RSRow{Model: s.Model, Format: s.Format, Rung: s.Rung, K: at.K, Pairs: len(diffs),
				RS: Delta{Old: ptr(stats.Mean(os)), New: ptr(stats.Mean(ns)), Change: "="}}
			if p, m, sign := stats.SignedRank(diffs); m > 0 {
				row.RS.P, row.RS.better = &p, sign > 0
				row.RS.decide(row.RS.P) // reported unadjusted
			}
			c.RS = append(c.RS, row)
		}
	}
}

// rsDiffs are one surface's RS@k per document in two delegations, over
// the documents both have (old, new), and their differences new − old,
// 0 where they print the same.
func rsDiffs(od, nd *report.Delegation, key rsKey, k int) (olds, news, diffs []float64) {
	o, n := perDocumentRS(od, k)[key], perDocumentRS(nd, k)[key]
	for _, doc := range slices.Sorted(maps.Keys(n)) {
		ov, ok := o[doc]
		if !ok {
			continue
		}
		olds, news = append(olds, ov), append(news, n[doc])
		diff := n[doc] - ov
		if unit.Num(ov) == unit.Num(n[doc]) {
			diff = 0
		}
		diffs = append(diffs, diff)
	}
	return olds, news, diffs
}

// RS is one surface's RS@k compared between two delegations as a Row of
// a family that Adjust adjusts together (the trend's): the mean RS@k old
// and new as its centers (higher is better), and the signed-rank test
// over the documents both have, as compareRS computes it. It is false
// when no document has RS@k in both.
func RS(od, nd *report.Delegation, model, format, rung string, k int) (Row, bool) {
	os, ns, diffs := rsDiffs(od, nd, rsKey{model, format, rung}, k)
	if len(diffs) == 0 {
		return Row{}, false
	}
	row := Row{Model: model, Class: fmt.Sprintf("RS@%d", k), Pairs: len(diffs),
		Center: Delta{Old: ptr(stats.Mean(os)), New: ptr(stats.Mean(ns))}}
	if p, n, sign := stats.SignedRank(diffs); n > 0 {
		row.Center.P, row.N, row.Center.better = &p, n, sign > 0
	}
	return row, true
}

// rsTable is the RS@k rows, old → new.
func (c *Comparison) rsTable() render.Table {
	t := render.Table{Head: []string{"model", "format", "k", "RS@k old → new (the harness's similarity)", "Δ", "documents", "vs old (signed-rank, unadjusted)"}, MDAlign: "|---|---|---:|---:|---:|---:|---:|"}
	for _, r := range c.RS {
		p := ""
		if r.RS.P != nil {
			p = fmt.Sprintf(" (p=%s)", unit.Num(*r.RS.P))
		}
		format := r.Format
		if r.Rung != "" {
			format += " (rung " + r.Rung + ")"
		}
		t.Add(r.Model, format, strconv.Itoa(r.K), arrow(r.RS), delta(r.RS), strconv.Itoa(r.Pairs), r.RS.Change+p)
		free(&t)
	}
	return t
}
