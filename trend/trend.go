package trend

import (
	"bufio"
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/viewer"
	"bendscript.com/round-trip-harness/viewer/chart"
)

// Report is the headline numbers of any number of reports in date
// order, per model, suite and class, each change from the previous report
// marked by the paired tests of Compare (the signed-rank test on the
// per-document values, McNemar's exact test on the lossless answers),
// every test of the whole window adjusted together (Holm): adjusted night
// by night, 20 noise-only nights flagged a change in 55% of trends.
type Report struct {
	// Reports are the reports in date order (ran_at, then the order
	// given), each with its verdict, reading and failures.
	Reports []Night
	// Series are the (model, suite, class) rows, in the order they first
	// appear.
	Series []Series
	// RS are the delegate suite's surfaces (model, answer format, rung)
	// with their RS@k, in the order they first appear; none for another
	// suite.
	RS []RSSeries
	// Notes qualify the trend: what differs between a report and the one
	// before it (compare.Differences).
	Notes []string
	// Tests is the number of tests over the whole window, adjusted
	// together (Holm).
	Tests int
	// notes are Notes with the night each is of and its text alone.
	notes []note
}

// note is one of Report.Notes: full, of night against the one before,
// saying text.
type note struct {
	night      int
	text, full string
}

// Night is one report of a trend.
type Night struct {
	compare.Side
	// Verdict and Reading are the report's verdict and §8.5 reading as a
	// person reads them; Failures its failures' messages.
	Verdict  string   `json:"verdict"`
	Reading  string   `json:"reading"`
	Failures []string `json:"failures"`
	// Added and Removed are the failures this report has and the one
	// before it had not, and the other way round (a failure is its model
	// and metric: the same check failing with another value is neither);
	// both empty for the first report.
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// keys are the failures' identities, in Failures' order.
	keys []string
	// Tests is the number of tests of the step from the night before;
	// they are adjusted with every test of the window (Report.Tests).
	Tests int `json:"tests"`
}

// Series is one (model, suite, class) across the reports.
type Series struct {
	Model, Suite, Class string
	// Points are one per report holding the series, in date order.
	Points []Point
}

// Point is one report's numbers of a series.
type Point struct {
	// Report indexes Report.Reports.
	Report int
	// Median and P95 drift, lossless share and edits applied (B, C), or
	// Faithfulness (A); Cost the known cost in USD.
	Median, P95, Lossless, Edits, Faithfulness *float64
	Cost                                       float64
	// Change is the paired signed-rank test against the series' previous
	// point ("better", "worse", "~", "=" without a difference; empty for
	// the first point), P its raw and PAdjusted its adjusted p-value (nil
	// without a test); LosslessChange, LosslessP and LosslessPAdjusted the
	// exact test on the lossless answers (B, C).
	Change                       string
	P, PAdjusted                 *float64
	LosslessChange               string
	LosslessP, LosslessPAdjusted *float64
}

// Of orders the reports by date and follows every (model, suite,
// class) through them.
func Of(reports []*report.Report, names []string) *Report {
	order := make([]int, len(reports))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reports[a].RanAt, reports[b].RanAt) })
	var b builder
	for _, ri := range order {
		b.add(reports[ri], names[ri])
	}
	return b.finish()
}

// OfFiles is Of of the reports named, read one at a time in date order
// (report.RanAtOf, then report.ReadHead: without their answers), so that
// a year of nights is never held at once (issue 55: 365 reports read
// whole took 193 MB, and a delegate report is megabytes of answers). What
// a trend keeps of a night is its row, its points, and, until a later
// night of the same series is tested against it, the night's class
// results and delegation.
func OfFiles(names []string) (*Report, error) {
	at := make([]string, len(names))
	for i, name := range names {
		f, err := regularfile.Open(name, report.MaxFileSize)
		if err != nil {
			return nil, err
		}
		at[i] = report.RanAtOf(f)
		f.Close()
	}
	order := make([]int, len(names))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(at[a], at[b]) })
	// The reports are decoded a few ahead, on every core, and added in
	// date order: at most ahead are held decoded at once.
	ahead := 2 * runtime.GOMAXPROCS(0)
	type read struct {
		r   *report.Report
		err error
	}
	slots := make([]chan read, len(order))
	for k := range slots {
		slots[k] = make(chan read, 1)
	}
	room, done := make(chan struct{}, ahead), make(chan struct{})
	defer close(done)
	go func() {
		for k, i := range order {
			select {
			case room <- struct{}{}:
			case <-done:
				return
			}
			go func() {
				r, err := readNight(names[i])
				slots[k] <- read{r, err}
			}()
		}
	}()
	var b builder
	for k, i := range order {
		got := <-slots[k]
		<-room
		if got.err != nil {
			return nil, got.err
		}
		if got.r.RanAt != at[i] {
			return nil, fmt.Errorf("%s: changed while the trend read it (ran_at %q, then %q)", names[i], at[i], got.r.RanAt)
		}
		b.add(got.r, names[i])
	}
	return b.finish(), nil
}

// readNight reads a report as a trend needs it: without its answers, and
// without the rows of any section but those whose rows it follows (Of).
func readNight(name string) (*report.Report, error) {
	f, err := regularfile.Open(name, report.MaxFileSize)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return report.ReadHeadRows(f, name, func(s *report.Section) bool { return s.Limits && !s.Formats })
}

// seriesKey names a series.
type seriesKey struct{ model, suite, class string }

// builder makes a trend night by night, in date order, holding of the
// nights before only what the tests of the nights to come compare with.
type builder struct {
	tr    Report
	index map[seriesKey]int
	// last is each series' latest class result, the one its next point
	// is tested against.
	last []*report.ClassResult
	prev *report.Report
	// prevName is prev's name.
	prevName string
	rows     []compare.Row
	points   []pointRef
	rs       rsBuilder
}

// add adds r, the latest night so far, to the trend.
func (b *builder) add(r *report.Report, name string) {
	tr := &b.tr
	i := len(tr.Reports)
	tr.Reports = append(tr.Reports, nightOf(r, name))
	if i > 0 {
		tr.Reports[i].changes(tr.Reports[i-1])
		for _, n := range compare.Differences(b.prev, r) {
			full := fmt.Sprintf("%s against %s: %s", name, b.prevName, n)
			tr.Notes, tr.notes = append(tr.Notes, full), append(tr.notes, note{night: i, text: n, full: full})
		}
	}
	if b.index == nil {
		b.index = map[seriesKey]int{}
	}
	// A series' result in this night: the last one the report gives
	// (a section row after the model's class), as it always was.
	now := map[int]*report.ClassResult{}
	point := func(k seriesKey, c *report.ClassResult) {
		if c == nil {
			return
		}
		si, ok := b.index[k]
		if !ok {
			si = len(tr.Series)
			b.index[k] = si
			tr.Series = append(tr.Series, Series{Model: k.model, Suite: k.suite, Class: k.class})
			b.last = append(b.last, nil)
		}
		now[si] = c
	}
	for _, m := range r.Models {
		for _, class := range report.Classes {
			point(seriesKey{m, r.Suite, class}, r.Results[m].Class(class))
		}
	}
	for _, sec := range r.Sections {
		for _, row := range sec.Rows {
			if sec.Limits && !sec.Formats && row.Class != "" {
				point(seriesKey{row.Model, row.Part, row.Class}, compare.AsClass(row.Class, row))
			}
		}
	}
	for si := range tr.Series {
		c := now[si]
		if c == nil {
			continue
		}
		s := &tr.Series[si]
		s.Points = append(s.Points, Point{Report: i, Cost: c.Cost.USD, Median: c.MedianDrift, P95: c.P95Drift, Lossless: c.Lossless,
			Edits: c.EditsApplied, Faithfulness: c.Faithfulness})
		if prev := b.last[si]; prev != nil {
			row, _ := compare.Class(s.Model, s.Class, prev, c)
			b.rows, b.points = append(b.rows, row), append(b.points, pointRef{si, len(s.Points) - 1})
		}
		b.last[si] = c
	}
	d, part := delegationOf(r)
	b.rs.add(tr, i, d, part)
	b.prev, b.prevName = r, name
}

// finish adjusts every test of the window together (Holm) and returns the
// trend.
func (b *builder) finish() *Report {
	tr := &b.tr
	rows, rsRows := b.rows, b.rs.rows
	all := append(slices.Clip(rows), rsRows...)
	tr.Tests = compare.Adjust(all)
	rows, rsRows = all[:len(rows)], all[len(rows):]
	tr.setRS(rsRows, b.rs.refs)
	for k, row := range rows {
		p := &tr.Series[b.points[k].series].Points[b.points[k].point]
		p.Change, p.P, p.PAdjusted = row.Center.Change, row.Center.P, row.Center.PAdjusted
		if row.Lossless.Change != "" {
			p.LosslessChange, p.LosslessP, p.LosslessPAdjusted = row.Lossless.Change, row.Lossless.P, row.Lossless.PAdjusted
		}
		tr.Reports[p.Report].Tests += b2i(row.Center.P != nil) + b2i(row.Lossless.P != nil)
	}
	return tr
}

// pointRef is a point of a series, by index.
type pointRef struct{ series, point int }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// nightOf is a report as a night of the trend.
func nightOf(r *report.Report, name string) Night {
	n := Night{Side: compare.SideOf(r, name), Verdict: render.VerdictPlain(r), Reading: "none (informational)", Failures: []string{}}
	if !r.Informational() {
		n.Reading = r.Reading.Outcome
	}
	for _, f := range r.Failures {
		n.Failures = append(n.Failures, f.Message)
		n.keys = append(n.keys, f.Model+"\x00"+f.Metric)
	}
	n.Added, n.Removed = []string{}, []string{}
	return n
}

// changes sets n's failures added and removed against the night before.
func (n *Night) changes(before Night) {
	for i, k := range n.keys {
		if !slices.Contains(before.keys, k) {
			n.Added = append(n.Added, n.Failures[i])
		}
	}
	for i, k := range before.keys {
		if !slices.Contains(n.keys, k) {
			n.Removed = append(n.Removed, before.Failures[i])
		}
	}
}

// changeText is a change with its raw and adjusted p-values, "=" without
// a test, or "" for the first point. A worse change is marked, so that it
// stands out of a table of "~".
func changeText(change string, p, adjusted *float64) string {
	switch {
	case change == "":
		return ""
	case p == nil || adjusted == nil:
		return "="
	}
	text := fmt.Sprintf("%s (p=%s, adjusted %s)", change, strconv.FormatFloat(*p, 'f', 3, 64), strconv.FormatFloat(*adjusted, 'f', 3, 64))
	if change == "worse" {
		text = "▼ " + text
	}
	return text
}

// date is a report's day, from its ran_at.
func date(ranAt string) string {
	if len(ranAt) >= 10 {
		return ranAt[:10]
	}
	return ranAt
}

// table lays out one series as a table: one row per report.
func (s Series) table(tr *Report) render.Table {
	if s.Class == task.ClassA {
		t := render.Table{Head: []string{"report", "ran at", "faithfulness", "cost (USD)", "vs previous"}}
		for _, p := range s.Points {
			r := tr.Reports[p.Report]
			t.Add(r.RunID, r.RanAt, unit.NumOr(p.Faithfulness, "n/a"), fmt.Sprintf("%.4f", p.Cost), changeText(p.Change, p.P, p.PAdjusted))
		}
		return t
	}
	t := render.Table{Head: []string{"report", "ran at", "median drift", "P95 drift", "lossless", "edits applied", "cost (USD)", "drift vs previous", "lossless vs previous"}}
	for _, p := range s.Points {
		r := tr.Reports[p.Report]
		t.Add(r.RunID, r.RanAt, unit.NumOr(p.Median, "n/a"), unit.NumOr(p.P95, "n/a"), unit.PercentOr(p.Lossless),
			unit.PercentOr(p.Edits), fmt.Sprintf("%.4f", p.Cost), changeText(p.Change, p.P, p.PAdjusted), changeText(p.LosslessChange, p.LosslessP, p.LosslessPAdjusted))
	}
	return t
}

//go:embed trend.tmpl
var trendTemplate string

// trendPage is the trend's self-contained HTML page: the viewer's style,
// charts and tables, no script.
var trendPage = template.Must(viewer.Template().New("trend").Parse(trendTemplate))

type trendData struct {
	Policy string
	CSS    template.CSS
	T      *Report
	Nights []nightRow
	Charts []chart.Chart
	Tables []render.Table
}

// nightRow is a night as the page's list of reports shows it: its number
// (the plots' x labels), and whether a night came before it to compare.
type nightRow struct {
	Night
	Number int
	First  bool
}

// trendShapes and the model classes m0… give each model its own shape
// and colour.
var trendShapes = []string{"circle", "triangle", "square"}

// WriteHTML writes the trend as a self-contained page: per suite, class
// and quantity a chart with one line per model, then the tables.
func (tr *Report) WriteHTML(w io.Writer) error {
	d := trendData{Policy: fmt.Sprintf("default-src 'none'; style-src '%s'; img-src data:; base-uri 'none'; form-action 'none'", viewer.CSPHash(viewer.CSS())),
		CSS: template.CSS(viewer.CSS()), T: tr}
	for i, n := range tr.Reports {
		d.Nights = append(d.Nights, nightRow{Night: n, Number: i + 1, First: i == 0})
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
			value       func(Point) *float64
		}{{"median", "median drift (0 = as expected)", func(p Point) *float64 { return p.Median }},
			{"lossless", "lossless share of answers", func(p Point) *float64 { return p.Lossless }}}
		if g.class == task.ClassA {
			quantities = quantities[:0]
			quantities = append(quantities, struct {
				name, title string
				value       func(Point) *float64
			}{"faithfulness", "faithful share of answers", func(p Point) *float64 { return p.Faithfulness }})
		}
		for _, q := range quantities {
			var series []Series
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
		t.ID, t.Title = fmt.Sprintf("t-%d", len(d.Tables)), fmt.Sprintf("%s · %s · class %s", s.Model, s.Suite, s.Class)
		d.Tables = append(d.Tables, t)
	}
	for _, s := range tr.RS {
		t := s.table(tr)
		t.ID, t.Title, t.Note = fmt.Sprintf("t-%d", len(d.Tables)), s.Model+" · "+s.title(), rsNote()
		d.Tables = append(d.Tables, t)
	}
	// The page passes the terminal filter: html/template escapes markup,
	// not ESC or a line-start "::" from a report's text, which a CI log
	// printing the page would obey (issue 45).
	sw := safetext.NewWriter(w)
	bw := bufio.NewWriter(sw)
	if err := trendPage.ExecuteTemplate(bw, "trend", d); err != nil {
		return fmt.Errorf("writing trend page: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return sw.Flush()
}

// trendChart is one quantity of one (suite, class) across the reports,
// one line per model; changes marked worse or better are named in the
// marks' titles.
func trendChart(tr *Report, suite, class, name, yTitle string, value func(Point) *float64, series []Series, models map[string]int) chart.Chart {
	c := chart.New(fmt.Sprintf("trend-%s-%s-%s", suite, class, name), fmt.Sprintf("%s, class %s: %s", suite, class, name), "date the run started (report number above)", yTitle)
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
		top = chart.NiceTop(top)
	}
	c.YScale(top)
	n := len(tr.Reports)
	at := tr.positions()
	x := func(i int) float64 { return c.XAt(at[i]) }
	for i, r := range tr.Reports {
		c.XTick(x(i), strconv.Itoa(i+1), date(r.RanAt), i == n-1)
	}
	worse := false
	drawn := map[string]string{} // a line's points → the first model drawn with them
	for _, s := range series {
		cls := fmt.Sprintf("m%d", models[s.Model]%6)
		shape := trendShapes[models[s.Model]%len(trendShapes)]
		var pts []string
		for _, p := range s.Points {
			v := value(p)
			if v == nil {
				continue
			}
			pts = append(pts, chart.F1(x(p.Report))+","+chart.F1(c.Y(*v)))
			change := p.Change
			if name == "lossless" {
				change = p.LosslessChange
			}
			title := fmt.Sprintf("%s, report %d (%s): %s", s.Model, p.Report+1, tr.Reports[p.Report].RunID, unit.Num(*v))
			if change != "" {
				title += ", vs previous: " + change
			}
			c.Mark(shape, cls, x(p.Report), c.Y(*v), "", title)
			if change == "worse" {
				c.Mark("circle", "worse", x(p.Report), c.Y(*v), "", title)
				worse = true
			}
		}
		line := strings.Join(pts, " ")
		c.Line(cls, line)
		// Identical series are drawn over each other (issue 46: one hid
		// the other with no word): the legend says so.
		label := s.Model
		if first, ok := drawn[line]; ok && line != "" {
			label += " (the same values as " + first + ": drawn over it)"
		} else {
			drawn[line] = s.Model
		}
		c.AddLegend(shape, cls, label)
	}
	if worse {
		c.AddLegend("circle", "worse", "worse than the report before (adjusted p < 0.05)")
	}
	return c
}

// positions place the reports on the x axis by the time they ran, as
// fractions of its width; reports of one instant, or unreadable times,
// are spread evenly in date order instead. Reports close in time (two of
// one day in a year's window, a report and its rescore, which keeps the
// run's ran_at) are set at least minGap apart, so that no two share an x
// (issue 56); the axis is then shrunk back to its width.
func (tr *Report) positions() []float64 {
	n := len(tr.Reports)
	out := make([]float64, n)
	times := make([]time.Time, n)
	ok := n > 1
	for i, r := range tr.Reports {
		t, err := time.Parse(time.RFC3339, r.RanAt)
		times[i], ok = t, ok && err == nil
	}
	if !ok || !times[n-1].After(times[0]) {
		for i := range out {
			out[i] = (float64(i) + 0.5) / float64(n)
		}
		return out
	}
	const left, width = 0.08, 0.84
	span := times[n-1].Sub(times[0]).Seconds()
	gap := minGap(n)
	for i, t := range times {
		out[i] = left + width*t.Sub(times[0]).Seconds()/span
		if i > 0 {
			out[i] = max(out[i], out[i-1]+gap)
		}
	}
	if end := out[n-1]; end > left+width {
		for i := range out {
			out[i] = left + (out[i]-left)*width/(end-left)
		}
	}
	return out
}

// minGap is the least distance between two reports' x, as a fraction of
// the axis: a quarter of the even spacing of n reports.
func minGap(n int) float64 {
	return 0.84 / float64(n-1) / 4
}
