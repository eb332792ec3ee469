//go:build !race

package model_test

// The test in this file moves a body of MaxResponseSize (64 MB) through
// the client: under the race detector, which checks every byte copied, it
// took 4-7 s of CPU of a go test -race ./... that must stay quick. It tests
// a limit, not concurrency, so it runs without the detector: make test runs
// every heavy_test.go in a second go test without -race.

import (
	"context"
	"errors"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestResponseOverLimitIsNotRetried: the client reads at most
// MaxResponseSize of a body (every body it accepts is archivable, see
// transcript.MaxSize); a larger one fails the call at once with
// CodeTooLarge instead of being paid for again on every retry.
func TestResponseOverLimitIsNotRetried(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.Reply{Body: `{"choices":[{"message":{"content":"` + strings.Repeat("x", model.MaxResponseSize) + `"}}]}`})
	c, _ := newClient(srv)
	_, err := c.Complete(context.Background(), request())
	var apiErr *model.APIError
	if !errors.As(err, &apiErr) || apiErr.Code != model.CodeTooLarge || srv.Count() != 1 || errors.Is(err, model.ErrFatal) {
		t.Errorf("err %v after %d requests; want %s at once, not fatal", err, srv.Count(), model.CodeTooLarge)
	}
}
