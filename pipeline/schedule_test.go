package pipeline

import (
	"slices"
	"testing"
)

// TestScheduleOrder: the schedule's order is what its phases rely on.
// The answers come first (their rule is the runner's first, the others
// chained after it), and the feedback rounds come before the relay steps
// (a chain asks its steps' feedback rounds through the feedback phase's
// rule); every phase says what its jobs wait for.
func TestScheduleOrder(t *testing.T) {
	var names []string
	for _, ph := range schedule {
		names = append(names, ph.name)
		if ph.waitsFor == "" || ph.add == nil {
			t.Errorf("phase %q does not say what it waits for, or adds nothing", ph.name)
		}
	}
	if len(names) == 0 || names[0] != "answers" {
		t.Errorf("the schedule %q does not start with the answers", names)
	}
	fb, relay := slices.Index(names, "feedback rounds"), slices.Index(names, "relay steps")
	if fb < 0 || relay < 0 || fb > relay {
		t.Errorf("the schedule %q: the feedback rounds must come before the relay steps", names)
	}
}
