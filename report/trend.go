package report

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/task"
)

// TrendReport is the headline numbers of any number of reports in date
// order, per model, suite and class, each change from the previous report
// marked by the paired tests of Compare: the signed-rank test on the
// per-document values and McNemar's exact test on the lossless answers.
type TrendReport struct {
	// Reports are the reports in date order (ran_at, then the order
	// given).
	Reports []Side
	// Series are the (model, suite, class) rows, in the order they first
	// appear.
	Series []TrendSeries
	// Notes qualify the trend: reports that differ in metric version,
	// weights, corpus or prompts from the one before.
	Notes []string
}

// TrendSeries is one (model, suite, class) across the reports.
type TrendSeries struct {
	Model, Suite, Class string
	// Points are one per report holding the series, in date order.
	Points []TrendPoint
}

// TrendPoint is one report's numbers of a series.
type TrendPoint struct {
	// Report indexes TrendReport.Reports.
	Report int
	// Median and P95 drift, lossless share and edits applied (B, C), or
	// Faithfulness (A); Cost the known cost in USD.
	Median, P95, Lossless, Edits, Faithfulness *float64
	Cost                                       float64
	// Change is the paired signed-rank test against the series' previous
	// point ("better", "worse", "~"; empty for the first point), P its
	// p-value; LosslessChange and LosslessP the exact test on the
	// lossless answers (B, C).
	Change         string
	P              float64
	LosslessChange string
	LosslessP      float64
}

// Trend orders the reports by date and follows every (model, suite,
// class) through them.
func Trend(reports []*Report, names []string) *TrendReport {
	order := make([]int, len(reports))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reports[a].RanAt, reports[b].RanAt) })
	tr := &TrendReport{}
	type key struct{ model, suite, class string }
	var keys []key
	at := map[key]map[int]*ClassResult{}
	add := func(k key, i int, c *ClassResult) {
		if c == nil {
			return
		}
		if at[k] == nil {
			at[k] = map[int]*ClassResult{}
			keys = append(keys, k)
		}
		at[k][i] = c
	}
	for i, ri := range order {
		r := reports[ri]
		tr.Reports = append(tr.Reports, sideOf(r, names[ri]))
		if i > 0 {
			for _, n := range provenanceNotes(reports[order[i-1]], r) {
				tr.Notes = append(tr.Notes, fmt.Sprintf("%s against %s: %s", names[ri], names[order[i-1]], n))
			}
		}
		for _, m := range r.Models {
			for _, class := range Classes {
				add(key{m, r.Suite, class}, i, r.Results[m].Class(class))
			}
			if nr, part := r.Natural[m], beside(r.Suite, sectionNatural); nr != nil && part != "" {
				add(key{m, part, task.ClassB}, i, nr.ClassB)
				add(key{m, part, task.ClassC}, i, nr.ClassC)
			}
		}
	}
	for _, k := range keys {
		tr.Series = append(tr.Series, series(k.model, k.suite, k.class, len(tr.Reports), at[k]))
	}
	return tr
}

// series is one (model, suite, class) across the reports (at holds its
// class result per report index, in date order), each point compared
// with the one before it.
func series(model, suite, class string, n int, at map[int]*ClassResult) TrendSeries {
	s := TrendSeries{Model: model, Suite: suite, Class: class}
	var prev *ClassResult
	for i := range n {
		c := at[i]
		if c == nil {
			continue
		}
		p := TrendPoint{Report: i, Cost: c.Cost.USD, Median: c.MedianDrift, P95: c.P95Drift, Lossless: c.LosslessRate,
			Edits: c.EditComplianceRate, Faithfulness: c.Faithfulness}
		if prev != nil {
			row, _ := compareClass(model, class, prev, c)
			p.Change, p.P = row.Change, row.P
			if class != task.ClassA {
				p.LosslessChange, p.LosslessP = row.LosslessChange, row.LosslessP
			}
		}
		s.Points = append(s.Points, p)
		prev = c
	}
	return s
}

// changeText is a change with its p-value, or "" for the first point.
func changeText(change string, p float64) string {
	if change == "" {
		return ""
	}
	return fmt.Sprintf("%s (p=%s)", change, strconv.FormatFloat(p, 'f', 3, 64))
}

// trendTable lays out one series as a table: one row per report.
func (s TrendSeries) table(tr *TrendReport) table {
	if s.Class == task.ClassA {
		t := table{header: []string{"report", "ran at", "faithfulness", "cost (USD)", "vs previous"}}
		for _, p := range s.Points {
			r := tr.Reports[p.Report]
			t.rows = append(t.rows, []string{r.RunID, r.RanAt, numOr(p.Faithfulness, "n/a"), fmt.Sprintf("%.4f", p.Cost), changeText(p.Change, p.P)})
		}
		return t
	}
	t := table{header: []string{"report", "ran at", "median drift", "P95 drift", "lossless", "edits applied", "cost (USD)", "drift vs previous", "lossless vs previous"}}
	for _, p := range s.Points {
		r := tr.Reports[p.Report]
		t.rows = append(t.rows, []string{r.RunID, r.RanAt, numOr(p.Median, "n/a"), numOr(p.P95, "n/a"), percentOr(p.Lossless),
			percentOr(p.Edits), fmt.Sprintf("%.4f", p.Cost), changeText(p.Change, p.P), changeText(p.LosslessChange, p.LosslessP)})
	}
	return t
}

// WriteMarkdown writes the trend as Markdown: the reports, then per
// model, suite and class a table of its numbers report by report.
func (tr *TrendReport) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## Trend over %d %s\n\n", len(tr.Reports), plural(len(tr.Reports), "report", "reports"))
	fmt.Fprintf(bw, "Each change from the previous report is marked better, worse or ~ (no significant change at p < %s) by the paired tests of `harness compare`: the signed-rank test on the documents' drift or faithfulness, the exact test on the lossless answers.\n\n", num(Alpha))
	fmt.Fprintf(bw, "| # | report | run | ran at | metric |\n|---:|---|---|---|---|\n")
	for i, r := range tr.Reports {
		fmt.Fprintf(bw, "| %d | %s | %s | %s | %s |\n", i+1, code(r.Name), code(r.RunID), mdText(r.RanAt), mdText(r.MetricVersion))
	}
	for _, s := range tr.Series {
		fmt.Fprintf(bw, "\n### %s · %s · class %s\n\n", code(s.Model), mdText(s.Suite), s.Class)
		t := s.table(tr)
		fmt.Fprintf(bw, "| %s |\n|---|---|%s\n", strings.Join(t.header, " | "), strings.Repeat("---:|", len(t.header)-2))
		for _, row := range t.rows {
			row = slices.Clone(row)
			row[0] = code(row[0])
			for i := 1; i < len(row); i++ {
				row[i] = mdText(row[i])
			}
			fmt.Fprintf(bw, "| %s |\n", strings.Join(row, " | "))
		}
	}
	if len(tr.Notes) > 0 {
		fmt.Fprintln(bw)
		for i, n := range tr.Notes {
			fmt.Fprintf(bw, "%d. %s\n", i+1, mdText(n))
		}
	}
	return bw.Flush()
}

//go:embed trend.tmpl
var trendTemplate string

// trendPage is the trend's self-contained HTML page: the viewer's style,
// charts and tables, no script.
var trendPage = template.Must(template.Must(viewer.Clone()).New("trend").Parse(trendTemplate))

type trendData struct {
	Policy       string
	CSS          template.CSS
	T            *TrendReport
	ReportsTable reportTable
	Charts       []chart
	Tables       []reportTable
}

// trendShapes and the model classes m0… give each model its own shape
// and colour.
var trendShapes = []string{"circle", "triangle", "square"}

// WriteHTML writes the trend as a self-contained page: per suite, class
// and quantity a chart with one line per model, then the tables.
func (tr *TrendReport) WriteHTML(w io.Writer) error {
	d := trendData{Policy: fmt.Sprintf("default-src 'none'; style-src '%s'; img-src data:; base-uri 'none'; form-action 'none'", cspHash(viewerCSS)),
		CSS: template.CSS(viewerCSS), T: tr}
	d.ReportsTable = reportTable{ID: "report-list", Head: []string{"#", "report", "run", "ran at", "metric"}}
	for i, r := range tr.Reports {
		d.ReportsTable.add(strconv.Itoa(i+1), r.Name, r.RunID, r.RanAt, r.MetricVersion)
	}
	models := map[string]int{}
	for _, s := range tr.Series {
		if _, ok := models[s.Model]; !ok {
			models[s.Model] = len(models)
		}
	}
	type group struct{ suite, class string }
	var groups []group
	for _, s := range tr.Series {
		if g := (group{s.Suite, s.Class}); !slices.Contains(groups, g) {
			groups = append(groups, g)
		}
	}
	for _, g := range groups {
		quantities := []struct {
			name, title string
			value       func(TrendPoint) *float64
		}{{"median", "median drift (0 = as expected)", func(p TrendPoint) *float64 { return p.Median }},
			{"lossless", "lossless share of answers", func(p TrendPoint) *float64 { return p.Lossless }}}
		if g.class == task.ClassA {
			quantities = quantities[:0]
			quantities = append(quantities, struct {
				name, title string
				value       func(TrendPoint) *float64
			}{"faithfulness", "faithful share of answers", func(p TrendPoint) *float64 { return p.Faithfulness }})
		}
		for _, q := range quantities {
			var series []TrendSeries
			for _, s := range tr.Series {
				if s.Suite == g.suite && s.Class == g.class {
					series = append(series, s)
				}
			}
			d.Charts = append(d.Charts, trendChart(tr, g.suite, g.class, q.name, q.title, q.value, series, models))
		}
	}
	for _, s := range tr.Series {
		t := s.table(tr)
		ht := reportTable{ID: fmt.Sprintf("t-%d", len(d.Tables)), Title: fmt.Sprintf("%s · %s · class %s", s.Model, s.Suite, s.Class), Head: t.header}
		for _, row := range t.rows {
			ht.add(row...)
		}
		d.Tables = append(d.Tables, ht)
	}
	bw := bufio.NewWriter(w)
	if err := trendPage.ExecuteTemplate(bw, "trend", d); err != nil {
		return fmt.Errorf("writing trend page: %w", err)
	}
	return bw.Flush()
}

// trendChart is one quantity of one (suite, class) across the reports,
// one line per model; changes marked worse or better are named in the
// marks' titles.
func trendChart(tr *TrendReport, suite, class, name, yTitle string, value func(TrendPoint) *float64, series []TrendSeries, models map[string]int) chart {
	c := newChart(fmt.Sprintf("trend-%s-%s-%s", suite, class, name), fmt.Sprintf("%s, class %s: %s", suite, class, name), "report (in date order)", yTitle)
	top := 1.0
	if name == "median" {
		top = 0
		for _, s := range series {
			for _, p := range s.Points {
				if v := value(p); v != nil {
					top = math.Max(top, *v)
				}
			}
		}
		top = niceTop(top)
	}
	c.yScale(top)
	n := len(tr.Reports)
	x := func(i int) float64 { return c.x0f + (c.x1f-c.x0f)*(float64(i)+0.5)/float64(n) }
	for i := range tr.Reports {
		c.xTick(x(i), strconv.Itoa(i+1), "", i == n-1)
	}
	for _, s := range series {
		cls := fmt.Sprintf("m%d", models[s.Model]%6)
		shape := trendShapes[models[s.Model]%len(trendShapes)]
		var pts []string
		for _, p := range s.Points {
			v := value(p)
			if v == nil {
				continue
			}
			pts = append(pts, f1(x(p.Report))+","+f1(c.y(*v)))
			change := p.Change
			if name == "lossless" {
				change = p.LosslessChange
			}
			title := fmt.Sprintf("%s, report %d (%s): %s", s.Model, p.Report+1, tr.Reports[p.Report].RunID, num(*v))
			if change != "" {
				title += ", vs previous: " + change
			}
			c.mark(shape, cls, x(p.Report), c.y(*v), "", title)
		}
		c.Polylines = append(c.Polylines, polyline{cls, strings.Join(pts, " ")})
		c.Legend = append(c.Legend, legendItem{Kind: shape, Class: cls, Label: s.Model})
	}
	return c
}
