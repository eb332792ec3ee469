package main

import (
	"os"
	"testing"
)

// TestMain removes the shared offline run (sharedOfflineRun) after the
// tests, which t.TempDir cannot do for a directory that outlives the test
// that made it.
func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}
