package trend

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
)

// This file writes the trend as Markdown that fits a screen for a year of
// nights (issue 55: a row and a footnote per night made 525 KB for 365
// nights): the nights grouped by ISO week, each distinct set of failures
// listed once with the nights that had it, every change the window's
// tests flag listed on its own, and one row per series of its first, last
// and extreme values. The per-night tables are the HTML page's
// (WriteHTML).

// flag is a change the window's tests flag (better or worse after Holm).
type flag struct {
	night int
	text  string
	worse bool
}

// flags lists the window's flagged changes in night order, series by
// series within a night.
func (tr *Report) flags() []flag {
	var out []flag
	add := func(night int, change, what string, p, adjusted *float64) {
		if change != "better" && change != "worse" {
			return
		}
		out = append(out, flag{night: night, worse: change == "worse", text: what + ": " + changeText(change, p, adjusted)})
	}
	for _, s := range tr.Series {
		for k, p := range s.Points {
			if k == 0 {
				continue
			}
			before := s.Points[k-1]
			name := fmt.Sprintf("%s · %s · class %s", render.Code(s.Model), render.MDText(s.Suite), s.Class)
			if s.Class == task.ClassA {
				add(p.Report, p.Change, name+" faithfulness "+unit.NumOr(before.Faithfulness, "n/a")+" → "+unit.NumOr(p.Faithfulness, "n/a"), p.P, p.PAdjusted)
				continue
			}
			add(p.Report, p.Change, name+" median drift "+unit.NumOr(before.Median, "n/a")+" → "+unit.NumOr(p.Median, "n/a"), p.P, p.PAdjusted)
			add(p.Report, p.LosslessChange, name+" lossless "+unit.PercentOr(before.Lossless)+" → "+unit.PercentOr(p.Lossless), p.LosslessP, p.LosslessPAdjusted)
		}
	}
	for _, s := range tr.RS {
		for k, p := range s.Points {
			if k == 0 {
				continue
			}
			before := s.Points[k-1]
			name := render.Code(s.Model) + " · " + render.MDText(s.title())
			add(p.Report, p.Change, name+" RS@horizon "+unit.NumOr(before.AtHorizon, "n/a")+" → "+unit.NumOr(p.AtHorizon, "n/a"), p.P, p.PAdjusted)
			add(p.Report, p.Change20, name+" RS@20 "+unit.NumOr(before.At20, "n/a")+" → "+unit.NumOr(p.At20, "n/a"), p.P20, p.P20Adjusted)
		}
	}
	slices.SortStableFunc(out, func(a, b flag) int { return a.night - b.night })
	return out
}

// failureSets are the window's distinct sets of failures (a failure is
// its model and metric, as for added and removed), in the order they
// first appear; set[i] is night i's set's index, -1 for a night without
// failures.
type failureSets struct {
	nights [][]int // per set, the nights that had it
	set    []int
}

func (tr *Report) failureSets() failureSets {
	fs := failureSets{set: make([]int, len(tr.Reports))}
	index := map[string]int{}
	for i, n := range tr.Reports {
		fs.set[i] = -1
		if len(n.keys) == 0 {
			continue
		}
		keys := slices.Clone(n.keys)
		slices.Sort(keys)
		k := strings.Join(slices.Compact(keys), "\x01")
		si, ok := index[k]
		if !ok {
			si = len(fs.nights)
			index[k] = si
			fs.nights = append(fs.nights, nil)
		}
		fs.set[i] = si
		fs.nights[si] = append(fs.nights[si], i)
	}
	return fs
}

// setName is a failure set's name: F1, F2…
func setName(i int) string { return "F" + strconv.Itoa(i+1) }

// nightRange is night indexes as report numbers, runs joined: "1–40, 52".
func nightRange(nights []int) string {
	var parts []string
	for i := 0; i < len(nights); {
		j := i
		for j+1 < len(nights) && nights[j+1] == nights[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(nights[i]+1))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", nights[i]+1, nights[j]+1))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// week is the ISO week of a report's ran_at ("2026-W18"), or its date as
// written when it is no RFC 3339 time.
func week(ranAt string) string {
	t, err := time.Parse(time.RFC3339, ranAt)
	if err != nil {
		return date(ranAt)
	}
	y, w := t.UTC().ISOWeek()
	return fmt.Sprintf("%d-W%02d", y, w)
}

// counted is each distinct value with its count, in first-seen order:
// "5 pass, 2 thresholds not met".
func counted(values []string) string {
	var order []string
	n := map[string]int{}
	for _, v := range values {
		if n[v] == 0 {
			order = append(order, v)
		}
		n[v]++
	}
	parts := make([]string, len(order))
	for i, v := range order {
		parts[i] = fmt.Sprintf("%d × %s", n[v], v)
	}
	return strings.Join(parts, "; ")
}

// weeksTable groups the nights by ISO week: their verdicts, readings,
// failure sets and the changes flagged in them.
func (tr *Report) weeksTable(fs failureSets, flags []flag) render.Table {
	t := render.Table{Head: []string{"week", "dates", "reports", "verdicts", "readings", "failures", "flagged changes"}, MDAlign: "|---|---|---|---|---|---|---|"}
	for i := 0; i < len(tr.Reports); {
		w := week(tr.Reports[i].RanAt)
		j := i
		for j+1 < len(tr.Reports) && week(tr.Reports[j+1].RanAt) == w {
			j++
		}
		var nights []int
		var verdicts, readings, sets []string
		for k := i; k <= j; k++ {
			nights = append(nights, k)
			verdicts, readings = append(verdicts, tr.Reports[k].Verdict), append(readings, tr.Reports[k].Reading)
			if fs.set[k] >= 0 {
				sets = append(sets, setName(fs.set[k]))
			} else {
				sets = append(sets, "none")
			}
		}
		var marks []string
		worse, better := 0, 0
		for n, f := range flags {
			if f.night >= i && f.night <= j {
				marks = append(marks, strconv.Itoa(n+1))
				if f.worse {
					worse++
				} else {
					better++
				}
			}
		}
		changes := "none"
		if len(marks) > 0 {
			var parts []string
			if worse > 0 {
				parts = append(parts, fmt.Sprintf("▼ %d worse", worse))
			}
			if better > 0 {
				parts = append(parts, fmt.Sprintf("%d better", better))
			}
			changes = strings.Join(parts, ", ") + " (" + strings.Join(marks, ", ") + ")"
		}
		span := date(tr.Reports[i].RanAt)
		if d := date(tr.Reports[j].RanAt); d != span {
			span += " – " + d
		}
		t.Add(w, span, nightRange(nights), counted(verdicts), counted(readings), counted(sets), changes)
		for _, c := range []int{1, 3, 4} {
			t.Rows[len(t.Rows)-1].Cells[c].Free = true // a report's time, verdict and reading
		}
		i = j + 1
	}
	return t
}

// extent is the lowest and highest of a series' values, "n/a" without
// any.
func extent(values []*float64, text func(*float64) string) string {
	var lo, hi *float64
	for _, v := range values {
		if v == nil {
			continue
		}
		if lo == nil || *v < *lo {
			lo = v
		}
		if hi == nil || *v > *hi {
			hi = v
		}
	}
	if lo == nil {
		return "n/a"
	}
	return text(lo) + " – " + text(hi)
}

// seriesTable is one row per series: its points, its first and last
// values, their range over the window and its flagged changes.
func (tr *Report) seriesTable() render.Table {
	t := render.Table{Head: []string{"model", "series", "quantity", "reports", "first", "last", "range", "better", "worse"}, MDAlign: "|---|---|---|---:|---:|---:|---:|---:|---:|"}
	row := func(model, name, quantity string, n int, values []*float64, text func(*float64) string, changes []string) {
		better, worse := 0, 0
		for _, c := range changes {
			better, worse = better+b2i(c == "better"), worse+b2i(c == "worse")
		}
		t.Add(model, name, quantity, strconv.Itoa(n), text(values[0]), text(values[len(values)-1]), extent(values, text), strconv.Itoa(better), strconv.Itoa(worse))
		t.Rows[len(t.Rows)-1].Cells[1].Free = true // a suite and format a report names
	}
	num := func(v *float64) string { return unit.NumOr(v, "n/a") }
	for _, s := range tr.Series {
		name := s.Suite + " · class " + s.Class
		pick := func(value func(Point) *float64, change func(Point) string) ([]*float64, []string) {
			var vs []*float64
			var cs []string
			for _, p := range s.Points {
				vs, cs = append(vs, value(p)), append(cs, change(p))
			}
			return vs, cs
		}
		if s.Class == task.ClassA {
			vs, cs := pick(func(p Point) *float64 { return p.Faithfulness }, func(p Point) string { return p.Change })
			row(s.Model, name, "faithfulness", len(s.Points), vs, num, cs)
			continue
		}
		vs, cs := pick(func(p Point) *float64 { return p.Median }, func(p Point) string { return p.Change })
		row(s.Model, name, "median drift", len(s.Points), vs, num, cs)
		vs, cs = pick(func(p Point) *float64 { return p.Lossless }, func(p Point) string { return p.LosslessChange })
		row(s.Model, name, "lossless", len(s.Points), vs, unit.PercentOr, cs)
	}
	for _, s := range tr.RS {
		name := s.title()
		var h, h20 []*float64
		var c, c20 []string
		for _, p := range s.Points {
			h, h20, c, c20 = append(h, p.AtHorizon), append(h20, p.At20), append(c, p.Change), append(c20, p.Change20)
		}
		row(s.Model, name, "RS@horizon", len(s.Points), h, num, c)
		row(s.Model, name, "RS@20", len(s.Points), h20, num, c20)
	}
	return t
}

// noteKind is what a note says differs, without its values: notes of one
// kind are listed once, with the reports they hold for.
func noteKind(note string) string {
	if i := strings.Index(note, " differ"); i > 0 {
		return note[:i+len(" differ")]
	}
	if i := strings.Index(note, " was served by "); i > 0 {
		return note[:i] + " was served by other providers"
	}
	return note
}

// WriteMarkdown writes the trend as Markdown that fits a screen for a
// year of nights (under 40 KB for 365): the nights by week with their
// verdicts, readings, failure sets and flagged changes; each distinct set
// of failures once; every flagged change on its own; a row per series of
// its first, last and extreme values; and the notes, one per kind. The
// page (WriteHTML) has a row per night.
func (tr *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	n := len(tr.Reports)
	fmt.Fprintf(bw, "## Trend over %d %s\n\n", n, unit.Plural(n, "report", "reports"))
	if n > 0 {
		fmt.Fprintf(bw, "From %s to %s. ", render.MDText(tr.Reports[0].RanAt), render.MDText(tr.Reports[n-1].RanAt))
	}
	fmt.Fprintf(bw, "Each change from the previous report is tested by the paired tests of `harness compare` (the signed-rank test on the documents' drift or faithfulness, the exact test on the lossless answers), every test of the whole window (%d) adjusted together (Holm), so that a window of noise-only nights rarely shows any flag: better and worse need an adjusted p < %s. Reports are numbered in date order; the HTML page (`--html`) has a row per report and per report and series.\n\n", tr.Tests, unit.Num(compare.Alpha))
	fs := tr.failureSets()
	flags := tr.flags()
	fmt.Fprintf(bw, "### Reports by week\n\n")
	render.WriteMarkdownTable(bw, tr.weeksTable(fs, flags))
	if len(fs.nights) > 0 {
		fmt.Fprintf(bw, "\n### Failures\n\nEach distinct set of failures (a failure is a model's check; its value may differ from night to night), with the reports that had it and its messages as the last of them gave them.\n\n")
		for si, nights := range fs.nights {
			last := tr.Reports[nights[len(nights)-1]]
			items := make([]string, len(last.Failures))
			for j, f := range last.Failures {
				items[j] = render.MDText(f)
			}
			fmt.Fprintf(bw, "- **%s**, %d %s (reports %s): %s.\n", setName(si), len(last.Failures), unit.Plural(len(last.Failures), "failure", "failures"), nightRange(nights), strings.Join(items, "; "))
		}
	}
	fmt.Fprintf(bw, "\n### Flagged changes\n\n")
	if len(flags) == 0 {
		fmt.Fprintf(bw, "None: no change from one report to the next is better or worse at an adjusted p < %s.\n", unit.Num(compare.Alpha))
	}
	for i, f := range flags {
		r := tr.Reports[f.night]
		fmt.Fprintf(bw, "%d. Report %d (%s, %s): %s\n", i+1, f.night+1, render.Code(r.RunID), render.MDText(r.RanAt), f.text)
	}
	if len(tr.Series)+len(tr.RS) > 0 {
		fmt.Fprintf(bw, "\n### Series\n\n")
		if len(tr.RS) > 0 {
			fmt.Fprintf(bw, "%s\n\n", render.MDText(rsNote()))
		}
		render.WriteMarkdownTable(bw, tr.seriesTable())
	}
	if len(tr.Notes) > 0 {
		fmt.Fprintf(bw, "\n### Notes\n\nWhat differs in what a run asked from the report before it, one line per kind, the last of its kind in full.\n\n")
		var kinds []string
		nights := map[string][]int{}
		lastOf := map[string]string{}
		for _, note := range tr.notes {
			k := noteKind(note.text)
			if _, ok := nights[k]; !ok {
				kinds = append(kinds, k)
			}
			if ns := nights[k]; len(ns) == 0 || ns[len(ns)-1] != note.night {
				nights[k] = append(ns, note.night)
			}
			lastOf[k] = note.full
		}
		for i, k := range kinds {
			fmt.Fprintf(bw, "%d. Reports %s: %s\n", i+1, nightRange(nights[k]), render.MDText(lastOf[k]))
		}
	}
	return bw.Flush()
}
