package viewer

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/viewer/chart"
)

// TestPlotsOfIdentity: offline/identity's panels looked empty and all
// green (issue 34): its class A bars, all 0, had height 0, invisible and
// unclickable; its edits, never applied, showed on no plot; the two red
// lines both read "limit ≤ x". Each zero is now a clickable stub, the
// panel lists the model's failures of its class, and the lines say which
// limit is the median's and which the P95's.
func TestPlotsOfIdentity(t *testing.T) {
	run, _ := pipelinetest.Pipeline(t, []string{offline.Oracle, offline.Identity}, nil, 1, 7)
	r := aggregate.Build(inputOf(run).Input)
	tops := sharedTops(r)
	a := newPlot(r, offline.Identity, r.Results[offline.Identity].Class(task.ClassA), tops[task.ClassA])
	if len(a.Bars) != 20 {
		t.Fatalf("%d bars, want 20", len(a.Bars))
	}
	for _, b := range a.Bars {
		if b.H != chart.F1(chart.ZeroBar) || b.Class != "bar zero" || b.Href == "" {
			t.Errorf("bar %+v; want a %v-unit stub of class \"bar zero\" with a link", b, chart.ZeroBar)
		}
	}
	b := newPlot(r, offline.Identity, r.Results[offline.Identity].Class(task.ClassB), tops[task.ClassB])
	if !slices.ContainsFunc(b.Fails, func(f string) bool { return strings.HasPrefix(f, "class B edits applied 0%") }) {
		t.Errorf("class B panel fails %q; want the edits never applied", b.Fails)
	}
	var labels []string
	for _, l := range b.Lines {
		labels = append(labels, l.Label)
	}
	for _, want := range []string{"median limit 0.05", "P95 limit 0.2"} {
		if !slices.Contains(labels, want) {
			t.Errorf("class B lines %q; want %q", labels, want)
		}
	}
	oracle := newPlot(r, offline.Oracle, r.Results[offline.Oracle].Class(task.ClassB), tops[task.ClassB])
	if len(oracle.Fails) != 0 {
		t.Errorf("the oracle's class B panel lists failures %q", oracle.Fails)
	}
}

// TestLosslessNoBlankCells: the size and relay reports' lossless tables
// had blank residual cells on every rung and step row, unexplained (issue
// 34); the cell says "—" and a note under the table says why.
func TestLosslessNoBlankCells(t *testing.T) {
	for name, run := range map[string]scoringtest.Run{"size": scoringtest.SizeRun(), "relay": scoringtest.RelayRun()} {
		in := inputOf(run)
		var buf bytes.Buffer
		if err := WriteHTML(&buf, aggregate.Build(in.Input), in); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		start := strings.Index(page, `<table id="lossless-table"`)
		if start < 0 {
			t.Fatalf("%s: no lossless table", name)
		}
		table := page[start : start+strings.Index(page[start:], "</table>")]
		if strings.Contains(table, "<td></td>") {
			t.Errorf("%s: the lossless table has a blank cell", name)
		}
		if !strings.Contains(page[start:], "only the class rows have one") {
			t.Errorf("%s: no note says why a row has no residual", name)
		}
	}
}

// TestSizeCaptionCost: the size plots' titles promised cost where no bar
// drew it (offline models cost nothing; issue 34). A title names cost
// exactly when its plot has cost bars.
func TestSizeCaptionCost(t *testing.T) {
	r := aggregate.Build(inputOf(scoringtest.SizeRun()).Input)
	bars := map[bool]int{}
	for _, free := range []bool{false, true} {
		for _, sec := range r.Sections {
			if free {
				// The same run, as offline models answer it: no cost.
				for i := range sec.Rows {
					sec.Rows[i].Cost.USD = 0
				}
			}
			for _, p := range newSizePlots(sec) {
				bars[len(p.Bars) > 0]++
				if strings.Contains(p.Caption, "cost") != (len(p.Bars) > 0) {
					t.Errorf("%q with %d cost bars", p.Caption, len(p.Bars))
				}
			}
		}
	}
	if bars[true] == 0 || bars[false] == 0 {
		t.Fatalf("plots with and without cost bars: %v; want both", bars)
	}
}

// TestFormatPlotLegendDistinct: with the four answer formats, each series
// has its own mark (shape or colour), so the legend tells them apart.
func TestFormatPlotLegendDistinct(t *testing.T) {
	names := []string{"document", "json-patch", "bend-ops", "search-replace"}
	var ps []formatPoint
	for _, f := range names {
		ps = append(ps, formatPoint{format: f, bytes: 1000, drift: 0.1, tokens: 10})
	}
	c := formatPlot("m", "drift", ps, names, 1, 10, 1)
	seen := map[string]string{}
	for _, l := range c.Legend {
		k := l.Kind + " " + l.Class
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s share the mark %s", other, l.Label, k)
		}
		seen[k] = l.Label
	}
}
