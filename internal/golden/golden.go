// Package golden compares what a test produced with a file under testdata/
// and rewrites the file when the test runs with -update:
//
//	go test ./render -update
//
// Golden files hold everything a user reads (reports, tables, CLI output),
// so a change to any of it shows up in review as a diff of the file.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"bendscript.com/round-trip-harness/internal/linediff"
)

// Update is the -update flag of every test binary that imports golden.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Check compares got with the file at path, or writes got there with
// -update. reason says what property the golden file guards; it is printed
// on a mismatch.
func Check(t testing.TB, path string, got []byte, reason string) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test with -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (%s); run go test with -update if the change is intended:\n%s", path, reason, linediff.Unified(string(want), string(got), 2))
	}
}
