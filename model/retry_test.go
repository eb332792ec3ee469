package model

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestRetryAfterHeader(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
		ok     bool
		reason string
	}{
		{"none", nil, 0, false, "no header: use backoff"},
		{"seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second, true, "RFC 9110 delay-seconds"},
		{"date", map[string]string{"Retry-After": "Sun, 01 Jun 2025 12:00:30 GMT"}, 30 * time.Second, true, "RFC 9110 HTTP-date"},
		{"ms", map[string]string{"Retry-After-Ms": "1500"}, 1500 * time.Millisecond, true, "OpenAI's retry-after-ms"},
		{"ms over seconds", map[string]string{"Retry-After-Ms": "10", "Retry-After": "5"}, 10 * time.Millisecond, true, "the precise header wins"},
		{"bad ms", map[string]string{"Retry-After-Ms": "soon", "Retry-After": "5"}, 5 * time.Second, true, "a garbled retry-after-ms falls back to Retry-After"},
		{"negative", map[string]string{"Retry-After": "-3"}, 0, false, "a negative delay is ignored"},
		{"garbage", map[string]string{"Retry-After": "later"}, 0, false, "an unparsable value is ignored"},
		{"huge", map[string]string{"Retry-After": "1e300"}, time.Duration(1e18), true, "a huge value means wait long, without overflow"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			got, ok := retryAfter(h, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("retryAfter = %v, %v; want %v, %v (%s)", got, ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
}

func TestBackoffBounds(t *testing.T) {
	c := &config{backoffBase: 100 * time.Millisecond, backoffMax: time.Second}
	for n, ceil := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		ceil *= time.Millisecond
		for range 200 {
			if d := c.backoff(n); d < 0 || d > ceil {
				t.Fatalf("backoff(%d) = %v, want within [0, %v]", n, d, ceil)
			}
		}
	}
	if d := c.backoff(200); d < 0 || d > time.Second {
		t.Errorf("backoff(200) = %v: a large n must not overflow past max", d)
	}
}

func TestSleepCtxStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Would block for an hour if cancellation were ignored.
	if err := sleepCtx(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("sleepCtx = %v, want context.Canceled", err)
	}
}

func TestAPIErrorMessage(t *testing.T) {
	tests := []struct {
		err    APIError
		want   string
		reason string
	}{
		{APIError{Status: 429, Code: "429", Message: "slow down"}, "HTTP 429: slow down", "a code equal to the status is not repeated"},
		{APIError{Status: 200, Code: "502", Message: "upstream"}, "HTTP 200 (502): upstream", "an error inside a 200 shows both"},
		{APIError{Code: CodeTimeout, Message: "no answer within 1s"}, "no response (attempt_timeout): no answer within 1s", "no status when nothing came back"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q (%s)", got, tt.want, tt.reason)
		}
	}
}
