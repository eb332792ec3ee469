package main

import (
	"os"
	"testing"
)

// testKey is the API key every test sees unless it sets its own: a
// parallel test cannot call t.Setenv, and no test may reach a real
// provider with the key of whoever runs the tests.
const testKey = "sk-test-key-12345678"

// TestMain sets testKey and no base URL for the whole binary, and removes
// the shared offline runs (sharedOfflineRun, sharedOfflineRunAgain) and
// the scenarios' harness binary (builtHarness) after the tests, which
// t.TempDir cannot do for a directory that outlives the test that made it.
func TestMain(m *testing.M) {
	os.Setenv("OPENROUTER_API_KEY", testKey)
	os.Unsetenv("OPENROUTER_BASE_URL")
	code := m.Run()
	for _, dir := range []string{shared.dir, sharedAgain.dir, harnessBinary.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}
