package compare

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/report"
)

// docs are tasks ids (with suffix appended) with the given drifts, each
// lossless when its drift is 0.
func docs(suffix string, ids []string, drifts ...float64) []report.DocumentResult {
	var out []report.DocumentResult
	for i, id := range ids {
		d, lossless := drifts[i], drifts[i] == 0
		out = append(out, report.DocumentResult{TaskID: id + suffix, Drift: &d, Repeats: []report.RepeatResult{{Drift: &d, Lossless: &lossless}}})
	}
	return out
}

// TestFormatsGroups: Formats pairs a format's variant of a task with the
// task (x.json-patch with x), merges a rung's positions into one group,
// keeps only a chain's last step and no total row, and adjusts every
// test together.
func TestFormatsGroups(t *testing.T) {
	t.Parallel()
	ids := []string{"a", "b", "c", "d", "e", "f", "g"}
	row := func(format, rung, position string, step int, total bool, per []report.DocumentResult) report.Row {
		return report.Row{Key: report.Key{Model: "m", Part: "p", Format: format, Rung: rung, Position: position, Step: step}, Total: total, PerDocument: per}
	}
	zeros := []float64{0, 0, 0, 0, 0, 0, 0}
	worse := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7}
	ladder := report.Section{Rows: []report.Row{
		row("document", "8k", "start", 0, false, docs("", ids[:4], zeros[:4]...)), row("document", "8k", "end", 0, false, docs("", ids[4:], zeros[4:]...)),
		row("json-patch", "8k", "start", 0, false, docs(".json-patch", ids[:4], worse[:4]...)), row("json-patch", "8k", "end", 0, false, docs(".json-patch", ids[4:], worse[4:]...)),
		row("json-patch", "8k", "all", 0, true, nil)}}
	chains := report.Section{Rows: []report.Row{
		row("document", "", "", 1, false, docs("", ids, worse...)), row("json-patch", "", "", 1, false, docs(".json-patch", ids, zeros...)),
		row("document", "", "", 2, false, docs("", ids, zeros...)), row("json-patch", "", "", 2, false, docs(".json-patch", ids, zeros...))}}
	for _, tt := range tabletest.Cases(t, []struct {
		name          string
		sec           report.Section
		group, change string
		pairs         int
		reason        string
	}{
		{"ladder", ladder, "rung 8k", "worse", 7, "a rung's positions are one group of 7 tasks, each paired with its variant; 7 worse tasks pass the signed-rank test"},
		{"chains", chains, "step 2 (the last)", "=", 7, "only the last step counts: step 1's differences are not tested"},
	}) {
		fc := Formats(&report.Report{Models: []string{"m"}, Sections: []report.Section{tt.sec}})
		if fc == nil || len(fc.Rows) != 1 {
			t.Fatalf("%s: %+v, want one row (%s)", tt.name, fc, tt.reason)
		}
		r := fc.Rows[0]
		if r.Group != tt.group || r.Pairs != tt.pairs || r.Change != tt.change || r.Format != "json-patch" {
			t.Errorf("%s: %s %s on %d pairs: %s; want %s on %d: %s (%s)", tt.name, r.Group, r.Format, r.Pairs, r.Change, tt.group, tt.pairs, tt.change, tt.reason)
		}
	}
	both := Formats(&report.Report{Models: []string{"m"}, Sections: []report.Section{ladder, chains}})
	if both == nil || both.Tests != 2 || both.Rows[0].PAdjusted == nil || *both.Rows[0].PAdjusted != 2**both.Rows[0].P {
		t.Errorf("two groups: %+v; want the signed-rank and McNemar tests of the ladder adjusted together (Holm: the smaller p doubled)", both)
	}
}
