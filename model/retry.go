package model

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"bendscript.com/round-trip-harness/internal/safetext"
	"github.com/openai/openai-go/v3/option"
)

// maxMalformedRetries bounds retries of HTTP 200 answers whose body is not
// usable: a provider that sends one garbled body may send a good one next,
// but one that keeps doing it will not be fixed by the full retry budget.
const maxMalformedRetries = 2

// exchange is what one HTTP attempt brought back, before interpretation.
type exchange struct {
	status     int         // 0 when no response arrived
	header     http.Header // nil when no response arrived
	body       []byte      // with the API key redacted; a stream's chunks as a JSON array
	durationMS int64

	sse      bool   // body is the chunk array of an event stream
	genID    string // the generation id of the first chunk; "" when none arrived
	provider string // the provider of the first chunk that names one
}

// sdkCall performs one SDK request with the given extra options; the SDK's
// own retries are off, so it is exactly one HTTP attempt.
type sdkCall func(ctx context.Context, opts ...option.RequestOption) error

// retry runs call until interpret accepts an exchange, a failure is not
// retryable, the retries are spent, or ctx ends. It returns the last
// interpretation (possibly partial), the last exchange and every attempt.
// The error is an *APIError, or ctx.Err() when the caller gave up.
func retry[T any](ctx context.Context, c *config, call sdkCall, interpret func(exchange) (T, *APIError)) (T, exchange, []Attempt, error) {
	return retryWith(ctx, c, func(ctx context.Context) (exchange, *APIError) { return c.attempt(ctx, call) }, interpret)
}

// retryWith is retry over any attempt function: a streamed chat attempt
// or a plain SDK call. A failed attempt that brought part of a stream is
// interpreted too, so that the call keeps what arrived (its generation
// id, content, usage) however it ended. An attempt cut by ctx is marked
// Interrupted: it was closed as sent.
func retryWith[T any](ctx context.Context, c *config, attempt func(context.Context) (exchange, *APIError), interpret func(exchange) (T, *APIError)) (T, exchange, []Attempt, error) {
	var (
		attempts  []Attempt
		malformed int
	)
	for n := 0; ; n++ {
		a := Attempt{Number: n + 1, StartedAt: time.Now()}
		ex, apiErr := attempt(ctx)
		a.Status, a.DurationMS = ex.status, ex.durationMS
		a.GenerationID, a.Provider = ex.genID, ex.provider
		var out T
		switch {
		case apiErr == nil:
			out, apiErr = interpret(ex)
		case ex.sse:
			out, _ = interpret(ex)
		}
		if r, ok := any(out).(*Response); ok && r != nil {
			a.Cost, a.Changed = r.Usage.Cost, r.streamChanged
			if a.GenerationID == "" {
				a.GenerationID = r.ID
			}
		}
		if apiErr == nil {
			return out, ex, append(attempts, a), nil
		}
		if err := ctx.Err(); err != nil {
			a.Error = "interrupted: " + err.Error()
			a.Interrupted = true
			return out, ex, append(attempts, a), err
		}
		a.Error = apiErr.Error()
		wait, asked := c.retryWait(ex.header, n)
		a.RetryAfterMS = asked.Milliseconds()
		if apiErr.Code == CodeBadResponse || apiErr.Code == CodeNoChoices {
			malformed++
		}
		if !apiErr.Retryable || n >= c.maxRetries || malformed > maxMalformedRetries {
			return out, ex, append(attempts, a), apiErr
		}
		a.WaitMS = wait.Milliseconds()
		attempts = append(attempts, a)
		if err := c.sleep(ctx, wait); err != nil {
			return out, ex, attempts, err
		}
	}
}

// attempt makes one HTTP attempt bounded by the attempt timeout. A non-nil
// *APIError means the attempt failed at the HTTP or transport level; a
// successful status still needs interpreting.
func (c *config) attempt(ctx context.Context, call sdkCall) (exchange, *APIError) {
	actx, cancel := context.WithTimeout(ctx, c.attemptTimeout)
	defer cancel()
	var (
		body []byte
		res  *http.Response
	)
	start := time.Now()
	err := call(actx, option.WithResponseBodyInto(&body), option.WithResponseInto(&res))
	var ex exchange
	if res != nil {
		ex.status, ex.header = res.StatusCode, res.Header
		if res.StatusCode >= 400 && res.Body != nil {
			// For error statuses the SDK reads the body and puts it back
			// rather than handing it to WithResponseBodyInto.
			body, _ = io.ReadAll(res.Body)
			res.Body.Close()
		}
	}
	ex.body = c.redactBody(body)
	ex.durationMS = time.Since(start).Milliseconds()
	switch {
	case ex.status >= 400:
		// err is the SDK's error for this status (or its failure to decode
		// the error body); the status and body say more.
		return ex, httpError(ex)
	case err == nil:
		return ex, nil
	case errors.Is(err, ErrResponseTooLarge):
		return ex, (&APIError{Status: ex.status, Code: CodeTooLarge, Message: ErrResponseTooLarge.Error()}).classified()
	case actx.Err() != nil && ctx.Err() == nil:
		return ex, (&APIError{Code: CodeTimeout, Message: fmt.Sprintf("no answer within %v", c.attemptTimeout)}).classified()
	default:
		return ex, c.transportError(err)
	}
}

// unreachable reports a transport failure that the next attempt would
// meet again at once: nothing listens at the address (connection
// refused), the host name does not exist, or the server's TLS certificate
// or handshake is wrong. Retrying these turned an API that was down into
// minutes of backoff and a report of model failures (issue 34).
func unreachable(err error) bool {
	var (
		dns     *net.DNSError
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		invalid x509.CertificateInvalidError
		header  tls.RecordHeaderError
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return true
	case errors.As(err, &dns):
		return dns.IsNotFound
	}
	// net/http turns a TLS record header that is plain HTTP into an
	// unexported error of its own: its text is all there is to match.
	return errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid) || errors.As(err, &header) ||
		strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// transportError describes a failed connection: unreachable (not
// retried, fatal for the model) or broken (retried).
func (c *config) transportError(err error) *APIError {
	code := CodeTransport
	if unreachable(err) {
		code = CodeUnreachable
	}
	return (&APIError{Code: code, Message: safetext.Cap(c.redact(err.Error()), MaxMessage)}).classified()
}

// httpError describes an error status, with the code and message of the
// body's error object when it has one.
func httpError(ex exchange) *APIError {
	var w struct {
		Error *wireError `json:"error"`
	}
	if json.Unmarshal(ex.body, &w) == nil && w.Error != nil {
		return w.Error.apiError(ex.status)
	}
	return (&APIError{Status: ex.status, Message: snippet(ex.body)}).classified()
}

// snippet is the start of a body that is not a JSON error, for messages.
func snippet(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// retryWait returns the wait before retry n (0-based) and the wait the
// server asked for (0 if none). A server's wait is followed exactly, capped
// at 2·backoffMax so a bogus header cannot stall a run; otherwise the wait
// is the full-jitter backoff.
func (c *config) retryWait(h http.Header, n int) (wait, asked time.Duration) {
	asked, ok := retryAfter(h, time.Now())
	if ok {
		return min(max(asked, 0), 2*c.backoffMax), asked
	}
	return c.backoff(n), 0
}

// backoff is uniform in [0, min(backoffMax, backoffBase·2ⁿ)].
func (c *config) backoff(n int) time.Duration {
	ceil := c.backoffMax
	if n < 62 {
		if d := c.backoffBase << n; d > 0 && d < ceil {
			ceil = d
		}
	}
	if ceil <= 0 {
		return 0
	}
	return rand.N(ceil + 1)
}

// retryAfter reads retry-after-ms (milliseconds, OpenAI's extension, more
// precise so preferred) or Retry-After (seconds or an HTTP date, RFC 9110
// §10.2.3). A date in the past gives a negative duration.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	// Both numbers are clamped to 1e18ns (about 31 years) so that a huge
	// value still means "wait long" instead of overflowing a Duration.
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(min(ms, 1e12) * float64(time.Millisecond)), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, 1e9) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return t.Sub(now), true
	}
	return 0, false
}

// sleepCtx waits for d or until ctx ends, whichever is first.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
