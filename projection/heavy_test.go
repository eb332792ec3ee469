//go:build !race

package projection_test

// The ladder's 512k rung moves half a megabyte through the renderer, the
// parser and the lossless check; under the race detector that costs
// seconds, so the test runs in make test's second go test, without it.

import (
	"testing"

	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestLadderRoundTrip holds the round trip on every default rung of the
// size ladder (ladder.Build): documents of 8k to 512k composed from the
// whole corpus under fresh ids.
func TestLadderRoundTrip(t *testing.T) {
	rungs, err := ladder.Build(tasktest.Set(t), ladder.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rungs {
		if diff := roundTrip(t, r.Name, r.Doc); diff != "" {
			t.Errorf("rung %s does not round-trip:\n%s", r.Name, diff)
		}
	}
}
