package render

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/task"
)

// TestNiceScale: the drift axes read 0/0.225/0.45 (issue 34); a value
// axis now counts in round steps, at most five above 0, up to a top that
// is a whole number of steps at or above the largest value.
func TestNiceScale(t *testing.T) {
	tests := []struct {
		top, wantTop, wantStep float64
		reason                 string
	}{
		{0.45, 0.5, 0.1, "the axis that read 0.225: tenths"},
		{1, 1, 0.2, "faithfulness: fifths"},
		{0.05, 0.05, 0.01, "the smallest drift axis: hundredths"},
		{0.3, 0.3, 0.1, "a top that is already round stays"},
		{0.11, 0.125, 0.025, "just above a tenth: quarters of a tenth, not 0.2"},
	}
	for _, tc := range tabletest.Cases(t, tests) {
		top, step := niceScale(tc.top)
		if diff(top, tc.wantTop) || diff(step, tc.wantStep) {
			t.Errorf("niceScale(%v) = %v, %v; want %v, %v (%s)", tc.top, top, step, tc.wantTop, tc.wantStep, tc.reason)
		}
	}
}

func diff(a, b float64) bool { return a-b > 1e-9 || b-a > 1e-9 }

// TestPlotsOfIdentity: offline/identity's panels looked empty and all
// green (issue 34): its class A bars, all 0, had height 0, invisible and
// unclickable; its edits, never applied, showed on no plot; the two red
// lines both read "limit ≤ x". Each zero is now a clickable stub, the
// panel lists the model's failures of its class, and the lines say which
// limit is the median's and which the P95's.
func TestPlotsOfIdentity(t *testing.T) {
	run, _ := pipelinetest.Pipeline(t, []string{offline.Oracle, offline.Identity}, nil, 1, 7)
	r := report.Build(inputOf(run).Input)
	tops := sharedTops(r)
	a := newPlot(r, offline.Identity, r.Results[offline.Identity].Class(task.ClassA), tops[task.ClassA])
	if len(a.Bars) != 20 {
		t.Fatalf("%d bars, want 20", len(a.Bars))
	}
	for _, b := range a.Bars {
		if b.H != f1(zeroBar) || b.Class != "bar zero" || b.Href == "" {
			t.Errorf("bar %+v; want a %v-unit stub of class \"bar zero\" with a link", b, zeroBar)
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

// TestDecades: the log token axis read 0/420/177399 (issue 34); it now
// has a tick at 0 and at each power of ten up to the decade above the
// largest count.
func TestDecades(t *testing.T) {
	c := newChart("x", "x", "x", "x")
	c.decades(math.Log10(177399 + 1))
	var labels []string
	for _, tk := range c.YTicks {
		labels = append(labels, tk.Label)
	}
	if want := []string{"0", "10", "100", "1k", "10k", "100k", "1M"}; !slices.Equal(labels, want) {
		t.Errorf("ticks %q, want %q", labels, want)
	}
}

// TestLosslessNoBlankCells: the size and relay reports' lossless tables
// had blank residual cells on every rung and step row, unexplained (issue
// 34); the cell says "—" and a note under the table says why.
func TestLosslessNoBlankCells(t *testing.T) {
	for name, run := range map[string]scoringtest.Run{"size": scoringtest.SizeRun(), "relay": scoringtest.RelayRun()} {
		in := inputOf(run)
		var buf bytes.Buffer
		if err := WriteHTML(&buf, report.Build(in.Input), in); err != nil {
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
	r := report.Build(inputOf(scoringtest.SizeRun()).Input)
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
