package task

import "fmt"

// MaxFeedback is the most feedback rounds a run may ask (--feedback).
const MaxFeedback = 3

// FeedbackID is the id that names round k (1 to MaxFeedback) of the
// feedback on an answer to task id: the answer asked again after its
// answer k-1 did not parse, apply or validate ("03-b.json-patch.fb1"). It
// names the round's transcript, so each round is a job of its own;
// nothing reads a task or a round back out of it (the callers keep a map
// from the ids they made).
func FeedbackID(id string, k int) string {
	if k == 0 {
		return id
	}
	return fmt.Sprintf("%s.fb%d", id, k)
}
