package main

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestNumericFlagsTakeDecimalOnly: Go's flag package reads an int flag as
// ParseInt(s, 0) does, so `--round-trips 0x10` was 16 and `--repeats 010`
// was 8 (issue 53), and a float flag took "0x1p4", "Inf" and "NaN". Every
// numeric flag takes decimal digits only: anything else is refused with a
// clear message, and a leading zero is decimal.
func TestNumericFlagsTakeDecimalOnly(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		args   []string
		want   string
		reason string
	}{
		{"hex", []string{"run", "--round-trips", "0x10", "--dry-run"}, `invalid value "0x10" for flag -round-trips: want a whole number in decimal digits, not "0x10"`, "the issue's example"},
		{"octal", []string{"run", "--repeats", "0o7", "--dry-run"}, `for flag -repeats: want a whole number in decimal digits`, "Go's 0o prefix"},
		{"binary", []string{"run", "--limit", "0b11", "--dry-run"}, `for flag -limit: want a whole number in decimal digits`, "Go's 0b prefix"},
		{"underscore", []string{"run", "--per-model", "1_0", "--dry-run"}, `for flag -per-model: want a whole number in decimal digits`, "Go's digit separators"},
		{"seed", []string{"run", "--seed", "0x1", "--dry-run"}, `for flag -seed: want a whole number`, "an int64 flag"},
		{"show", []string{"show", "--repeat", "0x1", "runs/x", "01-b"}, `for flag -repeat: want a whole number`, "every command's int flags"},
		{"float-hex", []string{"run", "--max-cost", "0x1p4", "--dry-run"}, `for flag -max-cost: want a decimal number, not "0x1p4"`, "a hex float"},
		{"float-inf", []string{"run", "--max-cost", "Inf", "--dry-run"}, `for flag -max-cost: want a decimal number`, "infinity is no cap"},
	}) {
		_, errs, code := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q (%s)", c.name, code, errs, c.want, c.reason)
		}
	}
	// A leading zero is decimal: 010 repeats are ten, not eight.
	out, errs, code := runCLI(t, "run", "--models", "offline/oracle", "--judges", "offline/judge", "--no-preflight", "--config", "../../harness.yaml",
		"--docs", "01", "--classes", "b", "--repeats", "010", "--dry-run")
	if code != 0 || !strings.Contains(out, "× 10 repeats") {
		t.Errorf("--repeats 010: exit %d, %q %q; want ten repeats", code, out, errs)
	}
}
