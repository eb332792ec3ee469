package transcript

import (
	"strings"
	"testing"
)

// TestManifestRunIDClimbingOutRefused: a run.json whose run_id was
// "../../OUTSIDE/pwned" made rescore and resume write their reports
// outside the reports folder; the id read from the file was never held to
// the rule of --run-id.
func TestManifestRunIDClimbingOutRefused(t *testing.T) {
	for _, id := range []string{"../../OUTSIDE/pwned", "a/b", "..", "", "/abs", ".hidden", "a\x1b]0;x\a"} {
		dir := t.TempDir()
		if err := WriteManifest(dir, &Manifest{RunID: id}); err != nil {
			t.Fatal(err)
		}
		_, err := ReadManifest(dir)
		if err == nil || !strings.Contains(err.Error(), "run.json: /run_id:") {
			t.Errorf("run_id %q: ReadManifest = %v, want a refusal naming /run_id", id, err)
		}
	}
}
