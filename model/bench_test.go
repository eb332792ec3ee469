package model_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// BenchmarkComplete measures the client's own overhead per call (request
// building, loopback HTTP, decoding) against a fake that answers at once.
func BenchmarkComplete(b *testing.B) {
	srv := modeltest.NewServer(b, modeltest.FixedDelay(0, `{"ok":true}`))
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("bench-key-0123456789"))
	req := request()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Complete(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompleteParallel measures throughput with many calls in flight
// against a fake with a fixed 5ms latency, as the runner drives it.
func BenchmarkCompleteParallel(b *testing.B) {
	srv := modeltest.NewServer(b, modeltest.FixedDelay(5*time.Millisecond, `{"ok":true}`))
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("bench-key-0123456789"))
	b.SetParallelism(16)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req := request()
		for pb.Next() {
			if _, err := c.Complete(context.Background(), req); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkCompleteLongStream measures the cost of reading a long
// streamed answer: 2,000 chunks (about 100 KB of content), assembled from
// the SDK's events and kept as the chunk array.
func BenchmarkCompleteLongStream(b *testing.B) {
	content := strings.Repeat("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN", 2000)
	srv := modeltest.NewServer(b, func(int, modeltest.ChatRequest) modeltest.Reply {
		return modeltest.Reply{Content: content, Chunks: 2000}
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("bench-key-0123456789"))
	req := request()
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Complete(context.Background(), req)
		if err != nil || len(resp.Content) != len(content) {
			b.Fatal(err)
		}
	}
}
