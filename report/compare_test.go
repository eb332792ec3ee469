package report

import (
	"bytes"
	"testing"

	"bendscript.com/round-trip-harness/scoring"
)

// comparePair is two runs of the same models: vendor/drifty improves on
// class B and worsens on class C, vendor/steady changes by noise on class B
// only, vendor/flaky is in the old run only and vendor/new in the new one
// only.
func comparePair() (old, new *Report) {
	base := func(model, id string, r int) (float64, bool, string) {
		return failingRun.answer(model, id, r)
	}
	o := synthetic{models: []string{"vendor/steady", "vendor/drifty", "vendor/flaky"}, repeats: 1, answer: base}
	n := synthetic{models: []string{"vendor/steady", "vendor/drifty", "vendor/new"}, repeats: 1, answer: func(model, id string, r int) (float64, bool, string) {
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
	ni := n.input()
	ni.Manifest.RunID = "synthetic-2"
	return Build(o.input()), Build(ni)
}

func TestCompareGolden(t *testing.T) {
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
	old, new := comparePair()
	c := Compare(old, new, "a", "b")
	want := map[string]string{
		"vendor/drifty B": "better", // every document's drift fell to a fifth: significant
		"vendor/drifty C": "worse",  // every document's drift grew by half
		"vendor/steady B": "~",      // ±0.001 alternating: no direction
		"vendor/steady C": "~",      // unchanged: every difference zero
	}
	for _, r := range c.Rows {
		if w, ok := want[r.Model+" "+r.Class]; ok && r.Change != w {
			t.Errorf("%s class %s: change %q (p=%v n=%d), want %q", r.Model, r.Class, r.Change, r.P, r.N, w)
		}
	}
	self := Compare(old, old, "a", "a")
	for _, r := range self.Rows {
		if r.Change != "~" || r.N != 0 || r.P != 1 {
			t.Errorf("a report against itself: %s class %s changes %q (p=%v n=%d)", r.Model, r.Class, r.Change, r.P, r.N)
		}
	}
}
