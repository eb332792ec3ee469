package compare

import (
	"bytes"
	"testing"
)

// TestComparesASchema2Report: a schema 2 report (converted on reading)
// compares with a schema 3 report of the same run's settings: the
// (model, class) rows of both are paired and every writer prints them.
func TestComparesASchema2Report(t *testing.T) {
	t.Parallel()
	c, err := CompareFiles("../report/testdata/schema-2.json", "../report/testdata/schema-3.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rows) < 6 {
		t.Errorf("%d rows paired, want one per model and class (2 × 3)", len(c.Rows))
	}
	for _, format := range []string{"text", "md", "json"} {
		var out bytes.Buffer
		if err := c.Write(&out, format); err != nil || out.Len() == 0 {
			t.Errorf("%s: %v (%d bytes)", format, err, out.Len())
		}
	}
}
