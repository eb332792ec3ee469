package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
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

// loadCase is a configuration file that Load must refuse, and the words
// its error must hold.
type loadCase struct{ name, yaml, want, reason string }

// wantLoadErrors loads each case's file and wants its error.
func wantLoadErrors(t *testing.T, cases []loadCase) {
	t.Helper()
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "h.yaml")
			os.WriteFile(p, []byte(c.yaml), 0o644)
			_, err := Load(p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Load = %v, want %q (%s)", err, c.want, c.reason)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []loadCase{
		{"unknown-key", "modles: [a]\n", "field modles not found", "a typo must not fall back to defaults"},
		{"bad-duration", "timeouts:\n  idle: soon\n", "invalid duration", "durations are Go durations"},
		{"weights", "weights:\n  block_structure: -1\n", "weights", "weights must be valid"},
		{"concurrency", "concurrency:\n  per_model: 0\n", "per_model", "a model needs at least one connection"},
		{"dup-model", "models: [a, a]\n", "listed twice", "duplicate models"},
		{"attempt-timeout", "timeouts:\n  attempt: 300s\n", "timeouts.attempt was replaced by timeouts.idle", "a total attempt timeout discarded billed answers; the file must say idle"},
		{"zero-idle", "timeouts:\n  idle: 0s\n", "idle and job must be positive", "a stream needs an idle bound"},
		{"long-bookkeeping", "timeouts:\n  bookkeeping: 1h\n", "bookkeeping must be from 0 (the default) to 10m0s, not 1h0m0s", "accounting must never hold up a run for long"},
		{"negative-reconcile", "timeouts:\n  reconcile: -1s\n", "reconcile must be from 0", "a negative bound means nothing"},
	}
	wantLoadErrors(t, cases)
	p := filepath.Join(t.TempDir(), "bk.yaml")
	os.WriteFile(p, []byte("timeouts:\n  bookkeeping: 3s\n  reconcile: 7s\n"), 0o644)
	if c, err := Load(p); err != nil || c.Timeouts.BookkeepingTimeout() != 3*time.Second || c.Timeouts.ReconcileTimeout() != 7*time.Second ||
		Default().Timeouts.BookkeepingTimeout() != DefaultBookkeeping || Default().Timeouts.ReconcileTimeout() != DefaultReconcile {
		t.Errorf("bookkeeping bounds: %v, %+v; want the file's, else the defaults", err, c)
	}
	p = filepath.Join(t.TempDir(), "empty.yaml")
	os.WriteFile(p, nil, 0o644)
	if c, err := Load(p); err != nil || c.Hash() != Default().Hash() {
		t.Errorf("empty file: %v", err)
	}
}

// TestConfigThatCannotBeMeantIsRefused guards issue 20's points 1, 3 and
// 11: each of these was accepted, and either allocated until the kernel
// killed the process, or paid for every call and then could not write
// the report, or sent something other than what the file said.
func TestConfigThatCannotBeMeantIsRefused(t *testing.T) {
	cases := []loadCase{
		{"absurd-repeats", "repeats: 100000000\n", "repeats: a whole number from 1 to 1000", "repeats size allocations: refuse before allocating"},
		{"zero-repeats", "repeats: 0\n", "repeats", "a run needs one repeat"},
		{"inf-threshold", "thresholds:\n  class_b_median_max: .inf\n", "class_b_median_max must be a number from 0 to 1, not +Inf", "+Inf cannot be written to the JSON report"},
		{"nan-threshold", "thresholds:\n  class_a_faithfulness_min: .nan\n", "class_a_faithfulness_min must be a number from 0 to 1, not NaN", "NaN cannot be written to the JSON report"},
		{"negative-threshold", "thresholds:\n  class_c_p95_max: -0.5\n", "class_c_p95_max must be a number from 0 to 1", "no drift is ≤ -0.5: the verdict would be decided by a typo"},
		{"nan-temperature", "request:\n  temperature: .nan\n", "temperature must be a number from 0 to 2, not NaN", "a NaN temperature failed only after the calls had started"},
		{"negative-temperature", "request:\n  temperature: -1\n", "temperature", "OpenRouter takes 0 to 2"},
		{"negative-max-tokens", "request:\n  max_tokens: -5\n", "max_tokens must not be negative", "-5 sent no cap while the transcript said -5"},
		{"negative-backoff", "retries:\n  backoff_base: -1s\n", "backoff_base must be from 100ms to 10m0s, not -1s", "a negative backoff cannot be meant"},
		{"inf-weight", "weights:\n  block_structure: .inf\n", "weights", "weights must be finite"},
		{"negative-reasoning", "model_settings:\n  m:\n    reasoning: {max_tokens: -3}\n", "reasoning max_tokens must not be negative", "a negative budget cannot be meant"},
	}
	wantLoadErrors(t, cases)
}

// TestRetrySettingsBounded: retries.max 2e9 with a backoff of 1 ns sent
// 229 requests in 10 s from one job; retries and backoff are bounded.
func TestRetrySettingsBounded(t *testing.T) {
	cases := []loadCase{
		{"huge-retries", "retries:\n  max: 2000000000\n", "retries: max must be from 0 to 20, not 2000000000", "a job retried forever hammers the provider"},
		{"nanosecond-backoff", "retries:\n  backoff_base: 1ns\n", "backoff_base must be from 100ms to 10m0s, not 1ns", "a backoff of 1 ns is no backoff"},
		{"max-under-base", "retries:\n  backoff_base: 5s\n  backoff_max: 1s\n", "backoff_max must be from backoff_base to 10m0s, not 1s", "a ceiling under the base cannot be meant"},
		{"week-backoff", "retries:\n  backoff_max: 168h\n", "backoff_max must be from backoff_base to 10m0s, not 168h0m0s", "a run would stall for days"},
	}
	wantLoadErrors(t, cases)
}

// TestHugeConfigRefused: a 100 MB configuration took 469 MB to decode;
// one over MaxFile is refused before it is read.
func TestHugeConfigRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.yaml")
	if err := os.WriteFile(p, []byte("# "+strings.Repeat("x", MaxFile)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "over the 1048576-byte limit") {
		t.Errorf("Load = %v; want the size limit named", err)
	}
}

// TestEarlierManifestConfigReadsBack: the configuration of a run made
// before calls streamed holds timeouts.attempt and no idle; it still
// reads back, validates, and hashes to the bytes it was recorded with, so
// that its run can be rescored.
func TestEarlierManifestConfigReadsBack(t *testing.T) {
	old := Default()
	d := Duration{300 * time.Second}
	old.Timeouts = Timeouts{Attempt: &d, Job: Duration{20 * time.Minute}}
	b, _ := json.Marshal(old)
	if !strings.Contains(string(b), `"timeouts":{"attempt":"5m0s","job":"20m0s"}`) {
		t.Fatalf("earlier timeouts marshal as %s", b)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Hash() != old.Hash() || back.Validate() != nil {
		t.Errorf("an earlier run's configuration: hash %s vs %s, validate %v", back.Hash(), old.Hash(), back.Validate())
	}
	if now, _ := json.Marshal(Default().Timeouts); string(now) != `{"idle":"2m0s","job":"20m0s"}` {
		t.Errorf("today's timeouts marshal as %s", now)
	}
}
