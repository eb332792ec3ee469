package main

import (
	"errors"
	"os"
	"sync"
	"testing"
)

// testKey is the API key every test sees unless it sets its own: a
// parallel test cannot call t.Setenv, and no test may reach a real
// provider with the key of whoever runs the tests.
const testKey = "sk-test-key-12345678"

// TestMain sets testKey and no base URL for the whole binary, and removes
// the directories of what the tests share (made) after the tests, which
// t.TempDir cannot do for a directory that outlives the test that made it.
func TestMain(m *testing.M) {
	os.Setenv("OPENROUTER_API_KEY", testKey)
	os.Unsetenv("OPENROUTER_BASE_URL")
	code := m.Run()
	for _, dir := range []string{harnessBinary.dir, shared.dir, sharedAgain.dir, exactGating.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// made is a value made once per test binary, in a directory of its own,
// for the tests that share it: the harness binary, a whole run. The first
// test to ask makes it; every test sees the same value, or fails with why
// it could not be made.
type made[T any] struct {
	once sync.Once
	dir  string
	v    T
	err  error
}

// get returns the value, making it first with build(dir).
func (m *made[T]) get(t *testing.T, what string, build func(dir string) (T, error)) T {
	t.Helper()
	m.once.Do(func() {
		// Kept if build stops the test that called it (t.Fatal).
		m.err = errors.New("the test that was making it stopped before it was made")
		var err error
		if m.dir, err = os.MkdirTemp("", "harness-test-"); err == nil {
			m.v, err = build(m.dir)
		}
		m.err = err
	})
	if m.err != nil {
		t.Fatalf("%s: %v", what, m.err)
	}
	return m.v
}
