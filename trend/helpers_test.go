package trend

import (
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/golden"
)

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, "a trend users read")
}
