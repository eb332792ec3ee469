//go:build !race

package model_test

// The test in this file moves a body of MaxResponseSize (64 MB) through
// the client: under the race detector, which checks every byte copied, it
// took 4-7 s of CPU of a go test -race ./... that must stay quick. It tests
// a limit, not concurrency, so it runs without the detector: make test runs
// every heavy_test.go in a second go test without -race.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/transcript"
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

// TestLongStreamTranscriptBounded: an answer of 100 KB streamed in
// 100,000 one-character chunks keeps its content whole, and the
// transcript that records it is under three times the answer's size
// (issue 55: it was 23.6 MB, 236 times): the record keeps the first and
// last chunks and every chunk that carries something other than content
// as they arrived, and each run of content-only chunks as one chunk that
// says how many it joins.
func TestLongStreamTranscriptBounded(t *testing.T) {
	answer := strings.Repeat("abcdefghij", 10_000)
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: answer, Chunks: len(answer), Reasoning: "think"})
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != answer || resp.Reasoning != "think" || resp.FinishReason != "stop" {
		t.Fatalf("the answer is %d bytes, reasoning %q, finish %q; want the %d bytes streamed, think, stop", len(resp.Content), resp.Reasoning, resp.FinishReason, len(answer))
	}
	tr := transcript.Transcript{Schema: transcript.SchemaVersion, Kind: transcript.KindTask, Response: transcript.ResponseOf(resp), Attempts: transcript.AttemptsOf(resp.Attempts)}
	b, err := json.Marshal(&tr)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 3*len(answer) {
		t.Errorf("the transcript of a %d-byte answer in %d chunks is %d bytes; want under 3 times the answer", len(answer), len(answer), len(b))
	}
	var chunks []struct {
		Merged *model.MergedChunk `json:"harness_merged"`
	}
	if err := json.Unmarshal(resp.RawBody, &chunks); err != nil {
		t.Fatal(err)
	}
	joined := 0
	for _, ch := range chunks {
		if ch.Merged != nil {
			joined += ch.Merged.Chunks
		}
	}
	// The first chunk (role, reasoning), the finish chunk and the last
	// (usage) stay as they arrived; the content between is one chunk.
	if len(chunks) != 4 || joined != len(answer)-1 {
		t.Errorf("the record holds %d chunks joining %d; want 4, one of them joining the %d after the first", len(chunks), joined, len(answer)-1)
	}
	t.Logf("a %d-byte answer in %d chunks: a %d-byte transcript", len(answer), len(answer), len(b))
}
