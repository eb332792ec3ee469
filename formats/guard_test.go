package formats

import (
	"strings"
	"testing"
)

// TestGuardTurnsAPanicIntoAFailure: a format's Apply that panics on one
// answer (the projection parser on a text nested 65 deep) crashed a run,
// its rescore and its resume; guard makes it that answer's Failure.
func TestGuardTurnsAPanicIntoAFailure(t *testing.T) {
	apply := guard(Projection, func([]byte, string) ([]byte, *Failure) {
		var lines []string
		return []byte(lines[0]), nil
	})
	out, fail := apply(nil, "x")
	if out != nil || fail == nil || fail.Kind != Failed || !strings.Contains(fail.Error(), "projection: the harness failed while reading this answer (runtime error: index out of range") {
		t.Errorf("out %q, failure %v; want the panic as a Failure", out, fail)
	}
}
