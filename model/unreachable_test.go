package model_test

import (
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestUnreachableIsNotRetried: an API that refuses the connection, or
// whose TLS is wrong, failed five attempts per job with backoff between
// them, and a run against it took minutes to end as a model failure
// (issue 34). One attempt, no wait, an error that names the cause and
// stops the model's other jobs (ErrFatal).
func TestUnreachableIsNotRetried(t *testing.T) {
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake our client refuses
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	plain := httptest.NewServer(http.NotFoundHandler())
	defer plain.Close()
	tests := []struct {
		name, base, want, reason string
	}{
		{"refused", modeltest.ClosedURL(t), "connection refused", "nothing listens on the port"},
		{"unknown certificate", tlsSrv.URL + "/api/v1", "certificate", "a self-signed certificate fails every attempt alike"},
		{"https to plain http", strings.Replace(plain.URL, "http:", "https:", 1) + "/api/v1", "HTTP response to HTTPS", "a TLS handshake with a server that speaks plain HTTP"},
	}
	for _, tc := range tabletest.Cases(t, tests) {
		t.Run(tc.name, func(t *testing.T) {
			w := &waits{}
			c := model.NewOpenRouter(model.WithBaseURL(tc.base), model.WithAPIKey(testKey), model.WithSleep(w.sleep))
			resp, err := c.Complete(context.Background(), request())
			var apiErr *model.APIError
			if !errors.As(err, &apiErr) || apiErr.Code != model.CodeUnreachable || !errors.Is(err, model.ErrFatal) {
				t.Fatalf("err = %v; want an unreachable, fatal APIError (%s)", err, tc.reason)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want it to say %q (%s)", err, tc.want, tc.reason)
			}
			if resp == nil || len(resp.Attempts) != 1 || len(w.all()) != 0 {
				t.Errorf("attempts %v, waits %v; want one attempt and no wait (%s)", resp, w.all(), tc.reason)
			}
		})
	}
}
