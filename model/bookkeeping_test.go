package model

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestBookkeepingCallsHaveTheirOwnDeadline: GET /generation had no
// deadline but the attempt timeout of 120 s, retried retries.max times
// (issue 53). Every call the harness makes for its own accounting is
// bounded in all by WithBookkeeping's deadline, with its few retries,
// whatever WithMaxRetries says, and says which setting bounded it.
func TestBookkeepingCallsHaveTheirOwnDeadline(t *testing.T) {
	t.Parallel()
	var asked atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		<-r.Context().Done() // silent until the client leaves
	}))
	defer srv.Close()
	c := NewOpenRouter(WithBaseURL(srv.URL), WithAPIKey("test-key-123456"), WithMaxRetries(20),
		WithBookkeeping(150*time.Millisecond, 1), WithBackoff(time.Millisecond, time.Millisecond))
	for _, call := range tabletest.Cases(t, []struct {
		name   string
		do     func(context.Context) error
		reason string
	}{
		{"generation", func(ctx context.Context) error { _, err := c.Generation(ctx, "gen-1"); return err }, "the end-of-run reconcile"},
		{"key", func(ctx context.Context) error { _, err := c.Key(ctx); return err }, "the preflight's credit"},
		{"models", func(ctx context.Context) error { _, err := c.ListModels(ctx); return err }, "the listing"},
		{"user-models", func(ctx context.Context) error { _, err := c.ListUserModels(ctx); return err }, "the account's models"},
		{"endpoints", func(ctx context.Context) error { _, err := c.Endpoints(ctx, "a/b"); return err }, "a pinned provider's limits"},
	}) {
		before := asked.Load()
		start := time.Now()
		err := call.do(context.Background())
		took := time.Since(start)
		var ae *APIError
		if !errors.As(err, &ae) || ae.Code != CodeTimeout || !strings.Contains(err.Error(), "no answer within 150ms (timeouts.bookkeeping)") {
			t.Errorf("%s: %v; want no answer within the bookkeeping deadline (%s)", call.name, err, call.reason)
		}
		// The deadline, and room for any loaded machine (a test must
		// not fail a correct client on a busy CI core); before, 20
		// retries of 120 s each, the attempt timeout, which the first
		// alone outlasts.
		if took > 30*time.Second {
			t.Errorf("%s took %v; want about the 150ms deadline (%s)", call.name, took, call.reason)
		}
		if n := asked.Load() - before; n > 2 {
			t.Errorf("%s: %d attempts; want at most 2 (one retry) (%s)", call.name, n, call.reason)
		}
	}
}
