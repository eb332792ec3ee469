package trend

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/pipeline/pipelinetest"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/verdict"

	"bendscript.com/round-trip-harness/report"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/task"
)

// trendNights are three offline "nights" of offline/oracle and
// offline/noisy: the second with another seed (the same noise level,
// other slips), the third with offline/noisy served at offline/noisy-high's
// noise level under its usual name, as when a provider changes the model
// behind a name overnight. A trend must mark that change and only that.
func trendNights(t *testing.T) ([]*report.Report, []string) {
	t.Helper()
	set, _ := task.Load(corpus.FS, instructions.FS)
	high, err := offline.New(offline.NoisyHigh, set)
	if err != nil {
		t.Fatal(err)
	}
	nights := []struct {
		name  string
		seed  int64
		extra map[string]model.Client
	}{
		{"night1.json", 20260427, nil},
		{"night2.json", 7, nil},
		{"night3.json", 7, map[string]model.Client{offline.Noisy: high}},
	}
	var reps []*report.Report
	var names []string
	// Given out of date order: the trend orders them by ran_at.
	for _, i := range []int{2, 0, 1} {
		n := nights[i]
		var run scoringtest.Run
		if n.seed == 20260427 && n.extra == nil {
			run = pipelinetest.OracleNoisyRun(t) // the first night is the shared run
		} else {
			run, _ = pipelinetest.Pipeline(t, []string{offline.Oracle, offline.Noisy}, n.extra, 1, n.seed)
		}
		in := aggregate.Input{Manifest: run.Manifest, Config: run.Config, Scores: run.Scores, Set: run.Set}
		m := *in.Manifest
		in.Manifest = &m
		in.Manifest.RunID = strings.TrimSuffix(n.name, ".json")
		in.Manifest.StartedAt = scoringtest.T0.Add(time.Duration(i) * 24 * time.Hour)
		reps, names = append(reps, aggregate.Build(in)), append(names, n.name)
	}
	return reps, names
}

// TestTrendMarksNoiseChange: over three nights, the trend lists them in
// date order, marks offline/noisy's change to a higher noise level in the
// third night as worse and the oracle as unchanged; golden Markdown.
func TestTrendMarksNoiseChange(t *testing.T) {
	t.Parallel()
	reps, names := trendNights(t)
	tr := Of(reps, names)
	if got := []string{tr.Reports[0].RunID, tr.Reports[1].RunID, tr.Reports[2].RunID}; strings.Join(got, ",") != "night1,night2,night3" {
		t.Errorf("reports in order %v, want date order", got)
	}
	for _, s := range tr.Series {
		last := s.Points[len(s.Points)-1]
		switch {
		case s.Model == offline.Oracle && (last.Change != "=" || s.Class != "A" && last.LosslessChange != "="):
			t.Errorf("oracle class %s marked %q / %q", s.Class, last.Change, last.LosslessChange)
		case s.Model == offline.Noisy && s.Class != "A" && last.Change != "worse" && last.LosslessChange != "worse":
			t.Errorf("noisy class %s: the noise change is marked %q / %q, want worse", s.Class, last.Change, last.LosslessChange)
		}
	}
	var md, page bytes.Buffer
	if err := tr.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "trend.md.golden", md.Bytes())
	if !strings.Contains(md.String(), "| `2026-W18` | 2026-04-27 – 2026-04-29 | 1–3 | 3 × thresholds not met (informational: cannot gate v0.1) | 3 × inconclusive | 1 × F1; 1 × F2; 1 × F3 | ▼ 3 worse (1, 2, 3) |") {
		t.Error("the trend has no week of three nights with their verdicts, readings, failure sets and flagged changes")
	}
	// Night 3 against night 2 (issue 46: each night's whole list in one
	// cell): what it adds and what it removes; the Markdown lists each
	// distinct set of failures once (issue 55), the page each night's.
	added, removed := "offline/noisy: class B P95 drift 0.3, want ≤ 0.2", "offline/noisy: class A faithfulness 80%, want ≥ 90%"
	if n := tr.Reports[2]; !slices.Contains(n.Added, added) || !slices.Equal(n.Removed, []string{removed}) {
		t.Errorf("night 3 adds %q and removes %q; want %q added and %q removed", n.Added, n.Removed, added, removed)
	}
	if !strings.Contains(md.String(), "\n- **F3**, 7 failures (reports 3): "+added+"; ") {
		t.Error("the Markdown does not list night 3's set of failures")
	}
	if !strings.Contains(md.String(), "\n3. Report 3 (`night3`, 2026-04-29T15:30:00Z): `offline/noisy` · gating · class C median drift 0.0004 → 0.05: ▼ worse (p=") {
		t.Error("the Markdown does not list the flagged change of class C's median drift on its own")
	}
	if err := tr.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.String(), "<details><summary>7</summary><ol><li>") || !strings.Contains(page.String(), "<ul><li>"+removed+"</li></ul>") {
		t.Error("the page's night 3 has no list of failures on demand, or not the failure removed")
	}
	for _, want := range []string{`id="trend-gating-B-median"`, `class="axis-title"`, `<ul class="legend">`, "offline/noisy", ">2026-04-28<", "worse than the report before"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the trend page lacks %s", want)
		}
	}
	if strings.Contains(page.String(), "<script") {
		t.Error("the trend page holds a script")
	}
}

// TestTrendNotesIdenticalSeries: two models with the same values drew one
// line over the other, and the page did not say so (issue 46); the
// legend now names the model drawn over, and only for identical series.
func TestTrendNotesIdenticalSeries(t *testing.T) {
	t.Parallel()
	v := func(x float64) *float64 { return &x }
	points := func(a, b float64) []Point {
		return []Point{{Report: 0, Median: v(a), Lossless: v(1)}, {Report: 1, Median: v(b), Lossless: v(1)}}
	}
	tr := &Report{
		Reports: []Night{{Side: compare.Side{RunID: "a", RanAt: "2026-04-27T00:00:00Z"}}, {Side: compare.Side{RunID: "b", RanAt: "2026-04-28T00:00:00Z"}}},
		Series: []Series{{Model: "x/one", Suite: "gating", Class: "B", Points: points(0.1, 0.2)},
			{Model: "x/two", Suite: "gating", Class: "B", Points: points(0.1, 0.2)},
			{Model: "x/three", Suite: "gating", Class: "B", Points: points(0.1, 0.3)}},
	}
	var page bytes.Buffer
	if err := tr.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	median, _, _ := strings.Cut(page.String()[strings.Index(page.String(), `id="trend-gating-B-median"`):], "</figure>")
	if !strings.Contains(median, "x/two (the same values as x/one: drawn over it)") {
		t.Errorf("the median plot's legend does not say x/two is drawn over x/one:\n%s", median)
	}
	if strings.Contains(median, "x/three (the same") {
		t.Error("x/three, whose values differ, is said to be drawn over another")
	}
	lossless, _, _ := strings.Cut(page.String()[strings.Index(page.String(), `id="trend-gating-B-lossless"`):], "</figure>")
	if !strings.Contains(lossless, "x/three (the same values as x/one: drawn over it)") {
		t.Error("the lossless plot, where all three are equal, does not say so of x/three")
	}
}

// TestTrendPageHoldsNoTerminalControls: trend --html wrote raw ESC and
// line-start "::error" lines from hostile report text (issue 45): a
// failure message a report carries reaches the page. The page passes the
// terminal filter.
func TestTrendPageHoldsNoTerminalControls(t *testing.T) {
	t.Parallel()
	var reps []*report.Report
	for i := range 2 {
		run := scoringtest.FailingRun.Run()
		m := *run.Manifest
		m.StartedAt = scoringtest.T0.Add(time.Duration(i) * 24 * time.Hour)
		rep := aggregate.Build(aggregate.Input{Manifest: &m, Config: run.Config, Scores: run.Scores, Set: run.Set})
		rep.Failures = append(rep.Failures, verdict.Failure{Message: "x\x1b]52;c;SGk=\a\n::error title=t::forged"})
		reps = append(reps, rep)
	}
	var page bytes.Buffer
	if err := Of(reps, []string{"a.json", "b.json"}).WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	if bytes.ContainsAny(page.Bytes(), "\x1b\a") {
		t.Error("the trend page holds a raw control character")
	}
	for _, line := range strings.Split(page.String(), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") {
			t.Errorf("a line of the page starts a CI command: %q", line)
		}
	}
}

// TestSameDayReportsApart: in a year's window, two reports of one day
// (and a report and its rescore, which keeps the run's ran_at) got one x
// on the plot, drawn over each other; each report now has its own, in
// date order, within the axis.
func TestSameDayReportsApart(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC)
	var tr Report
	for i := range 365 {
		tr.Reports = append(tr.Reports, Night{Side: compare.Side{RanAt: t0.Add(time.Duration(i) * 24 * time.Hour).Format(time.RFC3339)}})
	}
	same := tr.Reports[200]
	tr.Reports = slices.Insert(tr.Reports, 201, same, same) // the rescores of night 201
	tr.Reports[203].RanAt = t0.Add(200*24*time.Hour + time.Hour).Format(time.RFC3339)
	at := tr.positions()
	for i := 1; i < len(at); i++ {
		if at[i]-at[i-1] < 0.8*minGap(len(at)) {
			t.Errorf("reports %d and %d are %.5f apart on the x axis; want at least %.5f", i, i+1, at[i]-at[i-1], 0.8*minGap(len(at)))
		}
	}
	if at[0] < 0.08 || at[len(at)-1] > 0.92+1e-9 {
		t.Errorf("the reports span %.3f to %.3f; want within the axis, 0.08 to 0.92", at[0], at[len(at)-1])
	}
}
