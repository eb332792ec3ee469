//go:build !race

package report

import (
	"runtime"
	"testing"
)

// TestReadHeadHoldsNoAnswer: reading a report of 300,000 answers (about
// 60 MB of them) without them allocates what the report less its answers
// takes, not what its answers would: compare decoded every record, at up
// to 1 GB for such a report (issue 55).
func TestReadHeadHoldsNoAnswer(t *testing.T) {
	const n = 300_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := ReadHead(answersReader(t, n), "big.json")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if r.Answers != nil || r.RunID != "r{]}" {
		t.Errorf("read %d answers and run %q; want none and the report's run", len(r.Answers), r.RunID)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
		t.Errorf("reading a report of %d answers allocated %d bytes; want under 2 MB", n, alloc)
	}
}

// BenchmarkReadHead reads a report of 300,000 answers without them.
func BenchmarkReadHead(b *testing.B) {
	for b.Loop() {
		if _, err := ReadHead(answersReader(b, 300_000), "big.json"); err != nil {
			b.Fatal(err)
		}
	}
}
