package trend

import (
	"fmt"
	"strconv"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
)

// This file follows the delegate suite's reconstruction score
// (report.Delegation) across the reports: per model, answer format and
// rung the mean RS@k at the horizon and at 20, each change from the
// previous report marked by compare's signed-rank test on the documents'
// RS@k, adjusted with every other test of the window.

// RSSeries is one delegate surface (model, answer format, and rung when
// the run has rungs) across the reports.
type RSSeries struct {
	Model, Format, Rung string
	// Suite is the delegate section's part.
	Suite string
	// Points are one per report holding the surface, in date order.
	Points []RSPoint
}

// RSPoint is one report's RS@k of a surface.
type RSPoint struct {
	// Report indexes Report.Reports; Horizon is its chains' length in
	// interactions.
	Report, Horizon int
	// AtHorizon and At20 are the mean RS@k over documents at the horizon
	// and at k = 20 (nil when the chains are shorter than 20).
	AtHorizon, At20 *float64
	// Change and Change20 are the signed-rank tests of RS@horizon and
	// RS@20 against the series' previous point (compare.RS; "better" is a
	// higher RS), adjusted with the window's every test; "" for the first
	// point, "n/a" when the previous report's chains do not reach k.
	Change, Change20               string
	P, PAdjusted, P20, P20Adjusted *float64
}

// rsRef is a test of an RS point: its series, its point, and whether it
// tests RS@20 rather than RS@horizon.
type rsRef struct {
	series, point int
	at20          bool
}

// delegationOf is a report's delegate section's delegation, and its part.
func delegationOf(r *report.Report) (*report.Delegation, string) {
	for _, sec := range r.Sections {
		if sec.Delegation != nil {
			return sec.Delegation, sec.Part
		}
	}
	return nil, ""
}

// rsMean is a surface's mean RS@k, nil when it has none at k.
func rsMean(s report.DelegateSurface, k int) *float64 {
	for _, at := range s.RS {
		if at.K == k {
			return &at.Mean
		}
	}
	return nil
}

// rsBuilder adds each night's RS points to a trend as it comes, keeping
// each surface's latest delegation until the next point of the surface is
// tested against it.
type rsBuilder struct {
	index map[[4]string]int
	last  []*report.Delegation
	// rows are the tests against each series' previous point, to be
	// adjusted with the window's; refs their points.
	rows []compare.Row
	refs []rsRef
}

// add adds night i's delegation d (nil for a night of another suite) of
// the section part to tr.RS.
func (b *rsBuilder) add(tr *Report, i int, d *report.Delegation, part string) {
	if d == nil {
		return
	}
	if b.index == nil {
		b.index = map[[4]string]int{}
	}
	for _, s := range d.Surfaces {
		key := [4]string{part, s.Model, s.Format, s.Rung}
		si, ok := b.index[key]
		if !ok {
			si = len(tr.RS)
			b.index[key] = si
			tr.RS = append(tr.RS, RSSeries{Model: s.Model, Format: s.Format, Rung: s.Rung, Suite: part})
			b.last = append(b.last, nil)
		}
		se := &tr.RS[si]
		p := RSPoint{Report: i, Horizon: d.Horizon, AtHorizon: rsMean(s, d.Horizon), At20: rsMean(s, verdict.ReadyAt)}
		se.Points = append(se.Points, p)
		prev := b.last[si]
		b.last[si] = d
		if prev == nil {
			continue
		}
		last := len(se.Points) - 1
		se.Points[last].Change = "n/a"
		if row, ok := compare.RS(prev, d, s.Model, s.Format, s.Rung, d.Horizon); ok {
			b.rows, b.refs = append(b.rows, row), append(b.refs, rsRef{si, last, false})
		}
		if d.Horizon != verdict.ReadyAt && p.At20 != nil {
			se.Points[last].Change20 = "n/a"
			if row, ok := compare.RS(prev, d, s.Model, s.Format, s.Rung, verdict.ReadyAt); ok {
				b.rows, b.refs = append(b.rows, row), append(b.refs, rsRef{si, last, true})
			}
		}
	}
}

// setRS sets the adjusted tests of the RS points.
func (tr *Report) setRS(rows []compare.Row, refs []rsRef) {
	for k, row := range rows {
		r := refs[k]
		p := &tr.RS[r.series].Points[r.point]
		if r.at20 {
			p.Change20, p.P20, p.P20Adjusted = row.Center.Change, row.Center.P, row.Center.PAdjusted
		} else {
			p.Change, p.P, p.PAdjusted = row.Center.Change, row.Center.P, row.Center.PAdjusted
		}
		tr.Reports[p.Report].Tests += b2i(row.Center.P != nil)
	}
}

// title is the series' heading: its model, suite, format and rung.
func (s RSSeries) title() string {
	t := s.Suite + " · RS@k · " + s.Format
	if s.Rung != "" {
		t += " · rung " + s.Rung
	}
	return t
}

// table lays out an RS series: one row per report. RS@20 is the horizon's
// when the chains are 20 interactions long.
func (s RSSeries) table(tr *Report) render.Table {
	t := render.Table{Head: []string{"report", "ran at", "horizon", "RS@horizon", "RS@20", "RS@horizon vs previous", "RS@20 vs previous"}}
	for _, p := range s.Points {
		r := tr.Reports[p.Report]
		change20 := rsChangeText(p.Change20, p.P20, p.P20Adjusted)
		if p.Horizon == verdict.ReadyAt {
			change20 = "(the horizon's)"
		}
		t.Add(r.RunID, r.RanAt, strconv.Itoa(p.Horizon), unit.NumOr(p.AtHorizon, "n/a"), unit.NumOr(p.At20, "n/a"),
			rsChangeText(p.Change, p.P, p.PAdjusted), change20)
	}
	return t
}

// rsChangeText is changeText, with "n/a" said in words.
func rsChangeText(change string, p, adjusted *float64) string {
	if change == "n/a" {
		return "n/a (the previous report's chains are shorter)"
	}
	return changeText(change, p, adjusted)
}

// rsNote is the Markdown's note on the RS series.
func rsNote() string {
	return fmt.Sprintf("RS@k = 1 − the §8.4 drift after k interactions against the original, the mean over documents (each the mean of its repeats): the harness's similarity, not DELEGATE-52's. A change is the signed-rank test on the documents' RS@k both reports have, higher is better, adjusted with the window's every test; ready is RS@20 ≥ %s.", unit.Num(verdict.ReadyMin))
}
