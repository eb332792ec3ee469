package compare

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/scoring/scoringtest"

	"bendscript.com/round-trip-harness/report"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
)

// comparePair is two runs of the same models: vendor/drifty improves on
// class B and worsens on class C, vendor/steady changes by noise on class B
// only, vendor/flaky is in the old run only and vendor/new in the new one
// only.
func comparePair() (old, new *report.Report) {
	base := func(model, id string, r int) (float64, bool, string) {
		return scoringtest.FailingRun.Answer(model, id, r)
	}
	o := scoringtest.Synthetic{Models: []string{"vendor/steady", "vendor/drifty", "vendor/flaky"}, Repeats: 1, Answer: base}
	n := scoringtest.Synthetic{Models: []string{"vendor/steady", "vendor/drifty", "vendor/new"}, Repeats: 1, Answer: func(model, id string, r int) (float64, bool, string) {
		d, f, s := base(model, id, r)
		switch {
		case model == "vendor/drifty" && id[3] == 'b':
			d *= 0.2
		case model == "vendor/drifty" && id[3] == 'c':
			d *= 1.5
		case model == "vendor/steady" && id[3] == 'b':
			// Noise: up on odd documents, down on even ones.
			if id[1]%2 == 1 {
				d += 0.001
			} else {
				d -= 0.001
			}
		case model == "vendor/new":
			d, f, s = 0.01, true, scoring.StatusScored
		}
		return d, f, s
	}}
	ni := n.Run()
	ni.Manifest.RunID = "synthetic-2"
	return build(o.Run()), build(ni)
}

func TestCompareGolden(t *testing.T) {
	t.Parallel()
	old, new := comparePair()
	c := Compare(old, new, "reports/synthetic.json", "reports/synthetic-2.json")
	var text, md bytes.Buffer
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := c.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "compare.txt.golden", text.Bytes())
	checkGolden(t, "compare.md.golden", md.Bytes())
}

func TestCompareRows(t *testing.T) {
	t.Parallel()
	old, new := comparePair()
	c := Compare(old, new, "a", "b")
	want := map[string]string{
		"vendor/drifty B": "better", // every document's drift fell to a fifth: significant
		"vendor/drifty C": "worse",  // every document's drift grew by half
		"vendor/steady B": "~",      // ±0.001 alternating: no direction
		"vendor/steady C": "=",      // unchanged: every difference zero, no test
	}
	for _, r := range c.Rows {
		if w, ok := want[r.Model+" "+r.Class]; ok && r.Center.Change != w {
			t.Errorf("%s class %s: change %q (p=%v n=%d), want %q", r.Model, r.Class, r.Center.Change, r.Center.P, r.N, w)
		}
	}
	self := Compare(old, old, "a", "a")
	for _, r := range self.Rows {
		if r.Center.Change != "=" || r.N != 0 || r.Center.P != nil || (r.Lossless.Change != "" && r.Lossless.Change != "=") {
			t.Errorf("a report against itself: %s class %s changes %q (p=%v n=%d)", r.Model, r.Class, r.Center.Change, r.Center.P, r.N)
		}
	}
}

// TestCompareLossless: lossless answers paired by (task, repeat) are
// compared with McNemar's exact test, and the direction is named.
func TestCompareLossless(t *testing.T) {
	t.Parallel()
	class := func(lossless func(i int) bool) *report.ClassResult {
		c := &report.ClassResult{Class: "B"}
		n := 0
		for i := range 20 {
			l := lossless(i)
			if l {
				n++
			}
			c.PerDocument = append(c.PerDocument, report.DocumentResult{TaskID: fmt.Sprintf("%02d-b", i+1), Repeats: []report.RepeatResult{{Repeat: 0, Status: "scored", Lossless: &l}}})
		}
		c.Lossless = ptr(float64(n) / 20)
		return c
	}
	all := class(func(int) bool { return true })
	half := class(func(i int) bool { return i%2 == 0 })
	cases := []struct {
		name       string
		old, new   *report.ClassResult
		change     string
		gain, lost int
		p          float64
		reason     string
	}{
		{"lost ten", all, half, "worse", 0, 10, 2.0 / 1024, "ten discordant pairs all one way: p = 2·2⁻¹⁰"},
		{"gained ten", half, all, "better", 10, 0, 2.0 / 1024, "the same, the other way"},
		{"same", half, half, "=", 0, 0, 1, "no discordant pair: nothing to test"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		row, _ := Class("m", "B", c.old, c.new)
		rows := []Row{row}
		Adjust(rows)
		row = rows[0]
		p := 1.0
		if row.Lossless.P != nil {
			p = *row.Lossless.P
		}
		if row.Lossless.Change != c.change || row.Gained != c.gain || row.Lost != c.lost || math.Abs(p-c.p) > 1e-12 {
			t.Errorf("%s: %s, gained %d, lost %d, p %v; want %s, %d, %d, %v (%s)", c.name, row.Lossless.Change, row.Gained, row.Lost, p, c.change, c.gain, c.lost, c.p, c.reason)
		}
	}
	if p := stats.ExactBinomial(1, 4); math.Abs(p-12.0/32) > 1e-12 {
		t.Errorf("stats.ExactBinomial(1, 4) = %v, want 2·(1+5)/32 = 0.375", p)
	}
}

// TestAdjustIsHolm: the tests of a comparison are adjusted together. Raw
// p-values 0.01, 0.04, 0.03 and 0.005, all with a falling drift, are all
// significant alone; adjusted (0.03, 0.06, 0.06, 0.02) two stay so.
func TestAdjustIsHolm(t *testing.T) {
	t.Parallel()
	var rows []Row
	for _, p := range []float64{0.01, 0.04, 0.03, 0.005} {
		rows = append(rows, Row{Model: "m", Class: "B", Center: Delta{P: ptr(p), better: true}, N: 20, Pairs: 20}) // a falling drift
	}
	if n := Adjust(rows); n != 4 {
		t.Fatalf("%d tests, want 4", n)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s %.2f", r.Center.Change, *r.Center.PAdjusted))
	}
	if want := "better 0.03,~ 0.06,~ 0.06,better 0.02"; strings.Join(got, ",") != want {
		t.Errorf("adjusted %q, want %q", strings.Join(got, ","), want)
	}
}

// TestResolutionKnowsHolm: a row that is not significant says what the
// signed-rank test needs alone (6 differing documents) and what it needs
// to pass Holm's adjustment over the comparison's tests whatever the
// others show (14 tests: 2/2ⁿ < 0.05/14 from n = 10).
func TestResolutionKnowsHolm(t *testing.T) {
	t.Parallel()
	rows := make([]Row, 14)
	for i := range rows {
		p := 0.5
		rows[i] = Row{Center: Delta{P: &p}, N: 2, Pairs: 20}
	}
	p := 0.03125
	rows[0] = Row{Center: Delta{P: &p}, N: 6, Pairs: 20}
	Adjust(rows)
	if want := "unresolved: 2 of 20 documents differ; the signed-rank test needs at least 6, and 10 to pass Holm's adjustment over 14 tests whatever the others show"; rows[1].Resolution != want {
		t.Errorf("resolution %q, want %q", rows[1].Resolution, want)
	}
	if want := "; 10 differing documents could pass Holm's adjustment whatever the others show"; !strings.HasSuffix(rows[0].Resolution, want) {
		t.Errorf("resolution %q, want it to end %q", rows[0].Resolution, want)
	}
}

// TestRepeatNoiseIsEachDocuments: a document's repeat noise is its own
// (1.96 · √(s²_old/k + s²_new/k)): one that never varies has none, so any
// change of it stands out, and one that varies widely hides a change
// inside its band. A pooled s gave both the same band.
func TestRepeatNoiseIsEachDocuments(t *testing.T) {
	t.Parallel()
	doc := func(id string, drifts ...float64) report.DocumentResult {
		d := report.DocumentResult{TaskID: id}
		for i, x := range drifts {
			d.Repeats = append(d.Repeats, report.RepeatResult{Repeat: i, Status: "scored", Drift: &x})
		}
		return d
	}
	olds := []report.DocumentResult{doc("01-b", 0, 0, 0), doc("02-b", 0.1, 0.2, 0.3), doc("03-b", 0, 0.4, 0.2), doc("04-b", 0, 0, 0)}
	news := []report.DocumentResult{doc("01-b", 0, 0, 0), doc("02-b", 0.5, 0.6, 0.7), doc("03-b", 0.2, 0, 0.4), doc("04-b", 0.01, 0.01, 0.01)}
	band, beyond := repeatNoise(olds, news, 3)
	// Bands: 0, 1.96·√(0.02/3) = 0.160, 1.96·√(0.08/3) = 0.320, 0; their
	// (lower) median 0. Beyond: 02-b (0.4 > 0.160) and 04-b (0.01 > 0).
	if band == nil || *band != 0 || beyond != 2 {
		t.Errorf("repeat noise %v, %d beyond; want 0 and 2 (02-b and 04-b)", band, beyond)
	}
	if band, _ := repeatNoise(olds, news, 1); band != nil {
		t.Errorf("one compared repeat has no repeat noise, got %v", *band)
	}
}
