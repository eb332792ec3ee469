package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestRunCostSupersededAttemptIsNotUnknown: harness runs showed a run's
// cost as "$0.3817+?" because the failed attempts a resume asked again
// (kept as .superseded- files) reported no cost; a later attempt replaced
// them, so they are not an unknown cost. A current transcript without a
// cost still is.
func TestRunCostSupersededAttemptIsNotUnknown(t *testing.T) {
	t.Parallel()
	for _, tc := range tabletest.Cases(t, []struct {
		name    string
		files   map[string]string
		usd     float64
		unknown bool
		reason  string
	}{
		{"superseded without cost", map[string]string{
			"m/01-b.json":              `{"response": {"usage": {"cost": 0.25}}}`,
			"m/01-b.json.superseded-1": `{"response": {"usage": {}}}`,
			"m/01-b.json.superseded-2": `{"response": {"usage": {"cost": 0.5}}}`,
		}, 0.75, false, "a superseded attempt's cost counts when reported, and its absence is not unknown"},
		{"current without cost", map[string]string{
			"m/01-b.json": `{"response": {"usage": {"cost": 0.25}}}`,
			"m/02-b.json": `{"response": {"usage": {}}}`,
		}, 0.25, true, "a current answer whose cost was not reported is unknown"},
		{"reconciled", map[string]string{
			"m/01-b.json": `{"response": {"usage": {"cost": 0.25}}}`,
			"m/02-b.json": `{"error": {"message": "interrupted"}, "attempts": [{"generation_id": "gen-1"}]}`,
			ReconcileName: `{"generations": [{"transcript": "m/02-b.json", "id": "gen-1", "cost": 0.5}], "usd": 0.5, "unresolved": 0}`,
		}, 0.75, false, "an interrupted attempt's cost that GET /generation gave later (issue 42) is in the run's cost"},
		{"unreadable reconciliation", map[string]string{
			"m/01-b.json": `{"response": {"usage": {"cost": 0.25}}}`,
			ReconcileName: `{"usd": "a lot"}`,
		}, 0.25, true, "a reconciliation that cannot be read leaves the cost unknown, never 0"},
	}) {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range tc.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if usd, unknown := runCost(dir); usd != tc.usd || unknown != tc.unknown {
				t.Errorf("cost %v, unknown %v; want %v, %v (%s)", usd, unknown, tc.usd, tc.unknown, tc.reason)
			}
		})
	}
}
