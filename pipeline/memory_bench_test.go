package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// memoryRepeats are the run sizes the memory benchmarks measure: 240,
// 4,800, 24,000 and 48,000 transcripts of the offline models (issues 25
// and 55).
var memoryRepeats = []int{1, 20, 100, 200}

// BenchmarkRunMemory is a whole offline run (3 models, the gating suite,
// the offline judge) at 1×, 20× and 100× repeats. peak-MB is the largest
// heap in use (runtime.MemStats.HeapInuse, sampled every 5 ms) during the
// run: it must not grow with the number of transcripts. peak-RSS-MB is
// the peak resident set of the same run made alone in a child process
// (its /proc/self/status VmHWM, memoryChild), where the system reports it.
func BenchmarkRunMemory(b *testing.B) {
	for _, n := range memoryRepeats {
		b.Run(fmt.Sprintf("repeats=%d", n), func(b *testing.B) {
			for b.Loop() {
				dir := b.TempDir()
				peak := peakHeap(func() { offlineRun(b, dir, n) })
				b.ReportMetric(peak, "peak-MB")
				reportRSS(b, "run", b.TempDir(), n)
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
				reportRSS(b, "rescore", dir, n)
			}
		})
	}
}

// memoryChildEnv, in a child process of a memory benchmark, names what
// the child does: "run DIR N" or "rescore DIR N" (TestMemoryChild).
const memoryChildEnv = "HARNESS_MEMORY_CHILD"

// reportRSS runs what (run or rescore of dir's run "r", n repeats) in a
// child process and reports its peak RSS as peak-RSS-MB: the process's
// own high-water mark, which the heap in use leaves out (the collector's
// headroom, stacks, the binary). Nothing is reported where
// /proc/self/status has no VmHWM.
func reportRSS(b *testing.B, what, dir string, n int) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %d", memoryChildEnv, what, dir, n))
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("memory child: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^peak-rss-kb ([0-9]+)$`).FindSubmatch(out)
	if m == nil {
		b.Fatalf("memory child printed no peak:\n%s", out)
	}
	kb, _ := strconv.ParseFloat(string(m[1]), 64)
	b.ReportMetric(kb*1024/1e6, "peak-RSS-MB")
}

// TestMemoryChild is the child process of reportRSS: it does what
// $HARNESS_MEMORY_CHILD names and prints its VmHWM. Skipped otherwise.
func TestMemoryChild(t *testing.T) {
	spec := os.Getenv(memoryChildEnv)
	if spec == "" {
		t.Skip("run by the memory benchmarks")
	}
	var what, dir string
	var n int
	if _, err := fmt.Sscanf(spec, "%s %s %d", &what, &dir, &n); err != nil {
		t.Fatal(err)
	}
	switch what {
	case "run":
		offlineRun(t, dir, n)
	case "rescore":
		_, err := Rescore(RescoreOptions{RunDir: filepath.Join(dir, "r"), ReportDir: t.TempDir(), Stdout: io.Discard})
		if err != nil && !errors.Is(err, ErrVerdictFail) {
			t.Fatal(err)
		}
	default:
		t.Fatalf("%s: %q", memoryChildEnv, spec)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^VmHWM:\s+([0-9]+) kB$`).FindSubmatch(status)
	if m == nil {
		t.Fatalf("no VmHWM in /proc/self/status")
	}
	fmt.Printf("peak-rss-kb %s\n", m[1])
}

// offlineRun makes run "r" in dir: the offline models, repeated n times,
// judged by the offline judge, without a preflight, as harness run
// resolves those flags.
func offlineRun(b testing.TB, dir string, n int) {
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
