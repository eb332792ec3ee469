package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestCheckedInFileMatchesDefault: harness.yaml and Default say the same, so
// a run without --config behaves like one with it.
func TestCheckedInFileMatchesDefault(t *testing.T) {
	c, err := Load("../harness.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Errorf("harness.yaml differs from Default():\n file: %s\n default: %s", c.JSON(), Default().JSON())
	}
	if c.Hash() != Default().Hash() {
		t.Error("hash differs")
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct{ name, yaml, want, reason string }{
		{"unknown-key", "modles: [a]\n", "field modles not found", "a typo must not fall back to defaults"},
		{"bad-duration", "timeouts:\n  attempt: soon\n", "invalid duration", "durations are Go durations"},
		{"weights", "weights:\n  block_structure: -1\n", "weights", "weights must be valid"},
		{"concurrency", "concurrency:\n  per_model: 0\n", "per_model", "a model needs at least one connection"},
		{"dup-model", "models: [a, a]\n", "listed twice", "duplicate models"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "h.yaml")
			os.WriteFile(p, []byte(c.yaml), 0o644)
			_, err := Load(p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load = %v, want %q (%s)", err, c.want, c.reason)
			}
		})
	}
	p := filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(p, nil, 0o644)
	if c, err := Load(p); err != nil || c.Hash() != Default().Hash() {
		t.Errorf("empty file: %v", err)
	}
}
