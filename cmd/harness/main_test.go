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
// the shared offline runs (sharedOfflineRun, sharedOfflineRunAgain) after
// the tests, which
// t.TempDir cannot do for a directory that outlives the test that made it.
// Started by scriptCommand, the binary is the harness instead.
func TestMain(m *testing.M) {
	if os.Getenv(scriptChild) != "" {
		os.Exit(scriptMain())
	}
	os.Setenv("OPENROUTER_API_KEY", testKey)
	os.Unsetenv("OPENROUTER_BASE_URL")
	code := m.Run()
	for _, s := range []*sharedRun{&shared, &sharedAgain} {
		if s.dir != "" {
			os.RemoveAll(s.dir)
		}
	}
	os.Exit(code)
}
