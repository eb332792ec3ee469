// Package transcripttest reads a run's archive whole, for tests that look
// at every transcript a run wrote; the harness itself reads a slot at a
// time (transcript.ReadSlot), as rescore does.
package transcripttest

import (
	"os"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/transcript"
)

// ReadAll loads every transcript below runDir (task and judge), verifying
// each; it fails on the first bad file, naming it.
func ReadAll(runDir string) ([]*transcript.Transcript, error) {
	var out []*transcript.Transcript
	err := filepath.WalkDir(runDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") || filepath.Base(p) == transcript.ManifestName || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		t, err := transcript.Read(p)
		if err != nil {
			return err
		}
		out = append(out, t)
		return nil
	})
	return out, err
}
