package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// memoryRepeats are the run sizes the memory benchmarks measure: 240,
// 4,800 and 24,000 transcripts of the offline models (issue 25).
var memoryRepeats = []int{1, 20, 100}

// BenchmarkRunMemory is a whole offline run (3 models, the gating suite,
// the offline judge) at 1×, 20× and 100× repeats. peak-MB is the largest
// heap in use (runtime.MemStats.HeapInuse, sampled every 5 ms) during the
// run: it must not grow with the number of transcripts.
func BenchmarkRunMemory(b *testing.B) {
	for _, n := range memoryRepeats {
		b.Run(fmt.Sprintf("repeats=%d", n), func(b *testing.B) {
			for b.Loop() {
				dir := b.TempDir()
				peak := peakHeap(func() { offlineRun(b, dir, n) })
				b.ReportMetric(peak, "peak-MB")
			}
		})
	}
}

// BenchmarkRescoreMemory is the rescore of such a run (made once, outside
// the measurement), with its peak heap in use as in BenchmarkRunMemory.
func BenchmarkRescoreMemory(b *testing.B) {
	for _, n := range memoryRepeats {
		b.Run(fmt.Sprintf("repeats=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			offlineRun(b, dir, n)
			for b.Loop() {
				peak := peakHeap(func() {
					_, err := Rescore(RescoreOptions{RunDir: filepath.Join(dir, "r"), ReportDir: b.TempDir(), Stdout: io.Discard})
					if err != nil && !errors.Is(err, ErrVerdictFail) {
						b.Fatal(err)
					}
				})
				b.ReportMetric(peak, "peak-MB")
			}
		})
	}
}

// offlineRun makes run "r" in dir: the offline models, repeated n times,
// judged by the offline judge, without a preflight, as harness run
// resolves those flags.
func offlineRun(b *testing.B, dir string, n int) {
	cfg := config.Default()
	cfg.Models, cfg.Judges, cfg.Repeats = []string{"offline/oracle", "offline/identity", "offline/noisy"}, config.Judges{Models: []string{"offline/judge"}}, n
	// Names that do not exist here: the embedded corpus and tasks.
	in := transcript.Inputs{Suite: "gating", CorpusDir: "corpus", InstructionsDir: "instructions", ReportDir: dir, NoPreflight: true}
	corpus, prompts, err := task.LoadAll(in.CorpusDir, in.InstructionsDir)
	if err != nil {
		b.Fatal(err)
	}
	set, err := SuiteSet(corpus, in)
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Config: cfg, Set: set, Prompts: prompts, Conn: ConnectionFrom(cfg, "", ""), Inputs: in,
		OutDir: dir, RunID: "r", Stdout: io.Discard}
	if _, err := Run(context.Background(), o); err != nil && !errors.Is(err, ErrVerdictFail) {
		b.Fatal(err)
	}
}

// peakHeap runs f and returns, in MB, the most heap in use while it ran,
// after a collection before it (so that what came before is not counted).
func peakHeap(f func()) float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	peak := ms.HeapInuse
	stop, done := make(chan struct{}), sync.WaitGroup{}
	done.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	})
	f()
	close(stop)
	done.Wait()
	runtime.ReadMemStats(&ms)
	return float64(max(peak, ms.HeapInuse)) / 1e6
}
