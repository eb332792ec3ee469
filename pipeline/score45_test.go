package pipeline

import (
	"context"
	"errors"
	"testing"

	"bendscript.com/round-trip-harness/scoring"
)

// TestScorePhaseStopsWhileAnAnswerIsScored: SIGTERM waited 9.9 s for the
// answer being scored (a 16 MiB search/replace apply) before the score
// phase stopped. The phase now returns as soon as its context ends, even
// while one answer's scoring never returns.
func TestScorePhaseStopsWhileAnAnswerIsScored(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	block := make(chan struct{})
	defer close(block)
	started := make(chan struct{})
	go func() { <-started; cancel() }()
	_, err := whileNotDone(ctx, func() ([]scoring.Score, error) {
		close(started)
		<-block // an answer whose scoring does not end
		return nil, nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the context's", err)
	}
}
