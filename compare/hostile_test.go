package compare

import (
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/report"
)

// TestCompareClassColumnCannotForgeMarkdown: compare --format md wrote the
// class column (a report's format name, rung and class) unescaped; a
// hostile report made a "## ✅ PASS" heading and raw <script> in the
// output docs/reports.md suggests appending to $GITHUB_STEP_SUMMARY.
func TestCompareClassColumnCannotForgeMarkdown(t *testing.T) {
	t.Parallel()
	old, new := comparePair()
	const forged = "B |\n\n## ✅ PASS\n\n<script>alert(1)</script>"
	c := Compare(old, new, "a.json", "b.json")
	for i := range c.Rows {
		c.Rows[i].Class = forged
	}
	var b strings.Builder
	if err := c.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "#") || strings.Contains(line, "<script>") {
			t.Errorf("forged markup in the comparison: %q", line)
		}
	}
}

// TestCompareImpossibleAndUnprintedDifferences: a per-document drift of
// −1 read "better, p = 0.000" with the medians unchanged and no warning,
// and a uniform shift of 1e-6 read "worse (p = 0.000)" while every printed
// number was equal (issue 45). Values outside [0, 1] are warned about;
// differences between values that print the same are ties.
func TestCompareImpossibleAndUnprintedDifferences(t *testing.T) {
	t.Parallel()
	old, _ := comparePair()
	shift := func(r *report.Report, by float64) *report.Report {
		c := *r
		c.Results = map[string]*report.ModelResult{}
		for m, mr := range r.Results {
			x := *mr
			b := *mr.Class("B")
			b.PerDocument = slices.Clone(b.PerDocument)
			for i, d := range b.PerDocument {
				if d.Drift != nil {
					v := *d.Drift + by
					b.PerDocument[i].Drift = &v
				}
				// compare reads each repeat's value (issue 44), so the
				// repeats move with the document.
				b.PerDocument[i].Repeats = slices.Clone(d.Repeats)
				for j, r := range d.Repeats {
					if r.Drift != nil {
						v := *r.Drift + by
						b.PerDocument[i].Repeats[j].Drift = &v
					}
				}
			}
			x.ClassB = &b
			c.Results[m] = &x
		}
		return &c
	}
	row, _ := Class("m", "B", old.Results["vendor/steady"].Class("B"), shift(old, 1e-6).Results["vendor/steady"].Class("B"))
	if row.Center.P != nil {
		t.Errorf("a 1e-6 shift was tested (p = %g); every printed value is equal, a tie", *row.Center.P)
	}
	bad := shift(old, 0)
	cb := bad.Results["vendor/steady"].Class("B")
	cb.PerDocument[0].Drift = new(-1.0)
	for j := range cb.PerDocument[0].Repeats {
		cb.PerDocument[0].Repeats[j].Drift = new(-1.0)
	}
	_, notes := Class("m", "B", old.Results["vendor/steady"].Class("B"), cb)
	if !strings.Contains(strings.Join(notes, "\n"), "per-document value outside [0, 1]") {
		t.Errorf("notes %q; want the impossible value warned about", notes)
	}
}
