package compare

import (
	"bytes"
	"testing"

	"bendscript.com/round-trip-harness/report"
)

// TestComparesASchema3Report: a schema 3 report (converted on reading)
// compares with itself: the (model, class) rows of both are paired, each
// row's lossless share is the one schema 3 wrote (lossless_rate, not its
// lossless count), and every writer prints them.
func TestComparesASchema3Report(t *testing.T) {
	t.Parallel()
	c, err := CompareFiles("../report/testdata/schema-3.json", "../report/testdata/schema-3.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) < 6 {
		t.Errorf("%d rows paired, want one per model and class (2 × 3)", len(c.Rows))
	}
	reps, err := report.ReadFiles([]string{"../report/testdata/schema-3.json"})
	if err != nil {
		t.Fatal(err)
	}
	want := reps[0].Results["offline/noisy"].Class("B").Lossless
	if want == nil || *want != 0.25 {
		t.Fatalf("offline/noisy class B's lossless share read as %v, want schema 3's lossless_rate 0.25", want)
	}
	found := false
	for _, row := range c.Rows {
		if row.Model == "offline/noisy" && row.Class == "B" {
			found = true
			if row.Lossless.Old == nil || *row.Lossless.Old != *want {
				t.Errorf("offline/noisy class B: old lossless %v, want %v", row.Lossless.Old, *want)
			}
		}
	}
	if !found {
		t.Error("no offline/noisy class B row")
	}
	for _, format := range []string{"text", "md", "json"} {
		var out bytes.Buffer
		if err := c.Write(&out, format); err != nil || out.Len() == 0 {
			t.Errorf("%s: %v (%d bytes)", format, err, out.Len())
		}
	}
}
