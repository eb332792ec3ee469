package report

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestReadsSchema3: a schema 3 report (report/testdata/schema-3.json,
// written before ClassResult embedded Summary) opens as this schema's:
// each class's renamed keys carry the numbers schema 3 wrote under their
// old names (documents → tasks, lossless → lossless_count, lossless_rate
// → lossless, and the shares under Summary's names).
func TestReadsSchema3(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/schema-3.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadJSON(bytes.NewReader(b), "schema-3.json")
	if err != nil {
		t.Fatal(err)
	}
	if r.Schema != SchemaVersion {
		t.Errorf("schema %d after conversion, want %d", r.Schema, SchemaVersion)
	}
	var raw struct {
		Results map[string]map[string]json.RawMessage `json:"results"`
	}
	var old map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw.Results["offline/noisy"]["class_b"], &old); err != nil {
		t.Fatal(err)
	}
	c := r.Results["offline/noisy"].Class("B")
	if c == nil || old == nil {
		t.Fatal("no class B of offline/noisy")
	}
	num := func(p *float64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	for _, tc := range tabletest.Cases(t, []struct {
		old    string
		got    any
		reason string
	}{
		{"documents", float64(c.Tasks), "tasks counts the tasks with a value, schema 3's documents"},
		{"lossless", float64(c.LosslessCount), "schema 3's lossless was a count"},
		{"lossless_rate", num(c.Lossless), "the share is Summary's lossless"},
		{"edit_compliance_rate", num(c.EditsApplied), "the edits applied share"},
		{"edit_compliance_mean", num(c.EditCompliance), "the mean edit compliance"},
		{"invalid_rate", num(c.InvalidShare), "the invalid share"},
		{"unchanged_rate", num(c.Unchanged), "the unchanged share"},
	}) {
		if old[tc.old] == nil {
			t.Fatalf("the fixture's class B has no %s", tc.old)
		}
		if tc.got != old[tc.old] {
			t.Errorf("schema 3's %s %v read as %v (%s)", tc.old, old[tc.old], tc.got, tc.reason)
		}
	}
	if _, err := MarshalJSON(r); err != nil {
		t.Fatal(err)
	}
}
