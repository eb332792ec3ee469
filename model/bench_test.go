package model_test

import (
	"context"
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
