package report

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadsSchema2: a schema 2 report (report/testdata/schema-2.json,
// written by the harness before exact intervals) opens as this schema's:
// every interval two-sided at 95% with its method naming the bootstrap,
// the intervals record saying the report was converted, and every number
// as schema 2 wrote it.
func TestReadsSchema2(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/schema-2.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadJSON(bytes.NewReader(b), "schema-2.json")
	if err != nil {
		t.Fatal(err)
	}
	if r.Schema != SchemaVersion {
		t.Errorf("schema %d after conversion, want %d", r.Schema, SchemaVersion)
	}
	if !strings.Contains(r.Intervals.Quantiles, "bootstrap, 10000 resamples, seed 20260427") || !strings.Contains(r.Intervals.Unit, "schema 2") {
		t.Errorf("the intervals record does not say the report was converted: %+v", r.Intervals)
	}
	c := r.Results["offline/noisy"].Class("B")
	if c == nil || c.MedianInterval == nil || !c.MedianInterval.TwoSided() || !strings.Contains(c.MedianInterval.Method, "bootstrap") {
		t.Fatalf("class B's median interval of offline/noisy: %+v", c)
	}
	// The numbers are schema 2's: the median interval's ends as written.
	if !bytes.Contains(b, []byte(`"median_interval": {`)) || c.MedianDrift == nil {
		t.Fatal("the fixture has no median interval")
	}
	checks := 0
	for _, m := range r.Reading.Models {
		for _, ch := range m.Checks {
			if ch.Interval != nil {
				checks++
				if !ch.Interval.TwoSided() {
					t.Errorf("%s %s: the check's interval is not two-sided: %+v", m.Model, ch.Metric, ch.Interval)
				}
			}
		}
	}
	if checks == 0 {
		t.Error("no check of the reading has an interval: the fixture does not test them")
	}
	if _, err := MarshalJSON(r); err != nil {
		t.Fatal(err)
	}
}

// TestRefusesOtherSchemas: a schema this harness does not read is refused
// with the schemas it does, at /schema.
func TestRefusesOtherSchemas(t *testing.T) {
	t.Parallel()
	_, err := ReadJSON(strings.NewReader(`{"schema": 1, "verdict": "pass", "results": {}}`), "old.json")
	if err == nil || !strings.Contains(err.Error(), "/schema: report schema 1, this harness reads 4, 3 and 2") {
		t.Errorf("schema 1: %v", err)
	}
}
