package render

import (
	"fmt"
	"strconv"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
)

// This file shows a delegate section's reconstruction scores
// (report.Delegation): the RS@k table and curve per model and editing
// surface, where the loss comes from, and the critical round trips linked
// to their transcripts.

// SurfaceName is a delegate surface's model with its format, the editing
// surface, even in a run of one (issue 56: document went unlabelled where
// the other surfaces were named).
func SurfaceName(sec report.Section, s report.DelegateSurface) string {
	return s.Model + " (" + s.Format + ")"
}

// Labelled reports whether a section's rows name their answer format: in
// a run of several formats, and always in a delegation, where the format
// is the editing surface whose name every table and plot gives.
func Labelled(sec report.Section) bool { return sec.Formats || sec.Delegation != nil }

// hasRungs is whether a delegation's chains ran on the size ladder's
// rungs: its tables then key each row by rung too.
func hasRungs(d *report.Delegation) bool {
	for _, s := range d.Surfaces {
		if s.Rung != "" {
			return true
		}
	}
	return false
}

// keyCells are a surface row's leading cells: its name, and its rung
// when the run has rungs.
func keyCells(sec report.Section, s report.DelegateSurface, rungs bool) []TableCell {
	out := []TableCell{{Text: SurfaceName(sec, s)}}
	if rungs {
		out = append(out, TableCell{Text: s.Rung})
	}
	return out
}

// keyHead is keyCells' head.
func keyHead(rungs bool) []string {
	if rungs {
		return []string{"model", "rung"}
	}
	return []string{"model"}
}

// DelegationTables are the RS@k table, the loss table and the critical
// round trips of a delegate section; none for another section.
func DelegationTables(sec report.Section, i int) []Table {
	d := sec.Delegation
	if d == nil {
		return nil
	}
	rungs := hasRungs(d)
	rs := Table{ID: fmt.Sprintf("section-%d-rs", i), Title: "Reconstruction (RS@k)", MDTitle: "Reconstruction (RS@k)",
		Note: PlainNote(rsNote(d)), MDNote: rsNote(d), Head: append(keyHead(rungs), "documents")}
	for _, k := range d.Ks {
		rs.Head = append(rs.Head, fmt.Sprintf("RS@%d [95%%]", k), fmt.Sprintf("lossless@%d", k))
	}
	rs.Head = append(rs.Head, "ready (RS@20 ≥ 0.98)")
	loss := Table{ID: fmt.Sprintf("section-%d-loss", i), Title: "Where the loss comes from", MDTitle: "Where the loss comes from",
		Note:   fmt.Sprintf("The mean drift against the original at the horizon (%d interactions) split into the §8.4 components, each wᵢ·cᵢ/Σw, which sum to it; and the share of that loss carried by critical round trips (one round trip raising the chain's drift against the original by more than %s, the harness's own threshold). Deleted, corrupted and added count, over every chain's document at the horizon against the original, the blocks (b), spans (s), marks (m) and edges (e) missing, present but changed, and not asked for (the harness's own count beside drift, metric.DeltaOf).", d.Horizon, unit.Num(d.CriticalLoss)),
		Head:   append(keyHead(rungs), "drift@"+strconv.Itoa(d.Horizon), "block structure", "edges", "span coverage", "marks", "vocabulary", "critical share", "deleted", "corrupted", "added"),
		MDNote: ""}
	loss.MDNote = loss.Note
	for _, s := range d.Surfaces {
		row := append(keyCells(sec, s, rungs), TableCell{Text: strconv.Itoa(s.Documents)})
		for _, k := range d.Ks {
			at := RSAtK(s, k)
			if at == nil {
				row = append(row, TableCell{Text: "–"}, TableCell{Text: "–"})
				continue
			}
			row = append(row, TableCell{Text: fmt.Sprintf("%s [%s, %s]", unit.Num(at.Mean), unit.Num(at.Low), unit.Num(at.High))},
				TableCell{Text: fmt.Sprintf("%d/%d", at.Lossless, at.Chains)})
		}
		switch {
		case s.Ready == nil:
			row = append(row, TableCell{Text: "– (shorter than 20)"})
		case *s.Ready:
			row = append(row, TableCell{Text: "ready", Class: "ok"})
		default:
			row = append(row, TableCell{Text: "not ready", Class: "bad"})
		}
		rs.Rows = append(rs.Rows, TableRow{Cells: row})
		if l := s.Loss; l != nil {
			loss.Rows = append(loss.Rows, TableRow{Cells: append(keyCells(sec, s, rungs), []TableCell{{Text: unit.Num(l.Drift)},
				{Text: unit.Num(l.BlockStructure)}, {Text: unit.Num(l.EdgePreservation)}, {Text: unit.Num(l.SpanCoverage)},
				{Text: unit.Num(l.MarkFidelity)}, {Text: unit.Num(l.VocabularyIntegrity)}, {Text: unit.PercentOr(s.CriticalShare)},
				{Text: countsText(s.Delta, func(d *metric.Delta) metric.Counts { return d.Deleted })},
				{Text: countsText(s.Delta, func(d *metric.Delta) metric.Counts { return d.Corrupted })},
				{Text: countsText(s.Delta, func(d *metric.Delta) metric.Counts { return d.Added })}}...)})
		}
	}
	out := []Table{rs, loss}
	if len(d.Critical) > 0 {
		c := Table{ID: fmt.Sprintf("section-%d-critical", i), Title: "Critical round trips", MDTitle: "Critical round trips",
			Head: []string{"model", "chain", "repeat", "round trip", "loss", "share of chain's", "deleted at its end", "forward", "backward"}}
		c.Note = "Round trips that raised their chain's drift against the original by more than " + unit.Num(d.CriticalLoss) + ", largest first, with the transcripts of their two steps (relative to the run directory). A round trip's rises over a chain sum to its drift at the horizon, so a share over 100% means later round trips won some of it back."
		c.MDNote = c.Note
		for _, cs := range d.Critical {
			who := cs.Model + " (" + cs.Format + ")"
			c.Rows = append(c.Rows, TableRow{Cells: []TableCell{{Text: who}, {Text: cs.Chain}, {Text: strconv.Itoa(cs.Repeat)},
				{Text: fmt.Sprintf("%d (steps %d–%d)", cs.Step/2, cs.Step-1, cs.Step)}, {Text: unit.Num(cs.Loss)}, {Text: unit.Percent(cs.Share)},
				{Text: countsText(cs.Delta, func(d *metric.Delta) metric.Counts { return d.Deleted })},
				{Text: cs.Transcripts[0], Prose: true}, {Text: cs.Transcripts[1], Prose: true}}})
		}
		out = append(out, c)
	}
	return out
}

// countsText writes one kind of a delta's counts ("b3 s7 m0 e1"), "–"
// when no chain's delta is known.
func countsText(d *metric.Delta, kind func(*metric.Delta) metric.Counts) string {
	if d == nil {
		return "–"
	}
	c := kind(d)
	return fmt.Sprintf("b%d s%d m%d e%d", c.Blocks, c.Spans, c.Marks, c.Edges)
}

// rsNote says what the RS@k table's numbers are.
func rsNote(d *report.Delegation) string {
	rungs := ""
	if hasRungs(d) {
		rungs = " On the size ladder (--rungs) each rung is a row of its own, smallest first: its one chain's RS@k, the mean of its repeats (one document, so its interval is the value itself)."
	}
	return d.Note + " Per model (and answer format): the mean over documents of each document's RS@k (its repeats averaged) with a Student-t 95% interval; lossless@k counts the chains whose document after k interactions is the original up to the harness's equivalences. *Ready* is DELEGATE-52's rule applied to this similarity: mean RS@20 ≥ 0.98. A chain whose answer held no document ends there and counts as drift 1 (RS 0) from then on." + rungs
}

// RSAtK is a surface's RS@k at k; nil when it has none there.
func RSAtK(s report.DelegateSurface, k int) *report.RSAt {
	for i := range s.RS {
		if s.RS[i].K == k {
			return &s.RS[i]
		}
	}
	return nil
}
