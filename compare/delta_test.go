package compare

import (
	"encoding/json"
	"testing"
)

// TestRowsKeepTheirJSON: a Row and an RSRow hold their metrics as Deltas,
// and their JSON stays flat, each value under the key scripts read
// (compare --format json; compare-json.txtar pins a Row's).
func TestRowsKeepTheirJSON(t *testing.T) {
	p, q := 0.01, 0.03
	old, new := 0.5, 0.75
	rs, err := json.Marshal(RSRow{Model: "m", Format: "document", K: 2, Pairs: 12, RS: Delta{Old: &old, New: &new, P: &p, Change: "better"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"model":"m","format":"document","k":2,"old":0.5,"new":0.75,"pairs":12,"p":0.01,"change":"better"}`; string(rs) != want {
		t.Errorf("RS row JSON\n%s\nwant\n%s", rs, want)
	}
	row, err := json.Marshal(Row{Model: "m", Class: "B", Center: Delta{Old: &old, New: &new, P: &p, PAdjusted: &q, Change: "~"}, Pairs: 20, N: 3,
		Lossless: Delta{Old: &new, New: &old, Change: "="}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"model":"m","class":"B","old_center":0.5,"new_center":0.75,"repeats":0,"pairs":20,"n":3,"p":0.01,"p_adjusted":0.03,"change":"~","old_lossless":0.75,"new_lossless":0.5,"lossless_change":"="}`; string(row) != want {
		t.Errorf("row JSON\n%s\nwant\n%s", row, want)
	}
}
