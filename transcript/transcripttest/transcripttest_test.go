package transcripttest

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/transcript"
)

// TestReadAll: every transcript below a run directory is read and
// verified, the manifest left out; an edited one fails the read, naming
// its file.
func TestReadAll(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"01-a", "01-b"} {
		tr := &transcript.Transcript{Schema: transcript.SchemaVersion, Kind: transcript.KindTask, RunID: "r", Model: "v/m", TaskID: id, StartedAt: time.Unix(0, 0).UTC()}
		if err := transcript.Write(dir, tr); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(dir+"/"+transcript.ManifestName, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := ReadAll(dir)
	if err != nil || len(all) != 2 {
		t.Fatalf("ReadAll: %d transcripts, %v; want the two written", len(all), err)
	}
	p := transcript.TaskPath(dir, "v/m", "01-b", 0)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"01-b"`, `"01-c"`, 1)), 0o644)
	if _, err := ReadAll(dir); !errors.Is(err, transcript.ErrTampered) || !strings.Contains(err.Error(), p) {
		t.Errorf("ReadAll of an edited archive = %v, want ErrTampered naming %s", err, p)
	}
}
