package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// BenchmarkRunWallTime is a whole harness run (preflight, answers, judge
// votes, scoring, four reports) of 3 models × 60 tasks against an
// in-process fake server that answers after L, with c requests in flight
// per model. The ideal wall time is ceil(60/c)·L: every model's budget
// busy from the first request to the last, nothing before or after.
// x-ideal is the measured ratio. "offline-judge" judges class A in
// process; "judge-model" asks one more online model, at the same latency,
// for the 60 votes, which must overlap the answers.
func BenchmarkRunWallTime(b *testing.B) {
	for _, L := range []time.Duration{100 * time.Millisecond, 500 * time.Millisecond} {
		for _, judge := range []string{"offline-judge", "judge-model"} {
			b.Run(fmt.Sprintf("L=%v/%s", L, judge), func(b *testing.B) { benchRun(b, L, judge == "judge-model") })
		}
	}
}

func benchRun(b *testing.B, L time.Duration, judgeModel bool) {
	const c = 6
	set := corpusSet(b)
	prompts, err := task.LoadPrompts(instructions.FS)
	if err != nil {
		b.Fatal(err)
	}
	srv := modeltest.NewServer(b, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		if len(req.ResponseFormat) > 0 {
			return modeltest.Reply{Content: `{"faithful": true, "quotes": [], "reason": "r"}`, Delay: L}
		}
		return modeltest.Reply{Content: `{"answer": "x", "evidence": []}`, Delay: L}
	})
	models := []string{"anthropic/claude-a", "openai/gpt-5-b", "google/gemini-3-c"}
	judges := []string{"offline/judge"}
	if judgeModel {
		judges = []string{"vendor/judge"}
	}
	srv.SetModels(modeltest.Entry(models[0]), modeltest.Entry(models[1]), modeltest.Entry(models[2]), modeltest.Entry("vendor/judge"))
	ideal := time.Duration((60+c-1)/c) * L
	for b.Loop() {
		cfg := config.Default()
		cfg.Models, cfg.Judges = models, config.Judges{Models: judges}
		cfg.Concurrency = config.Concurrency{PerModel: c, Global: 4 * c}
		dir := b.TempDir()
		start := time.Now()
		_, err := Run(context.Background(), Options{
			Config: cfg, Set: set, Prompts: prompts,
			Conn:   Connection{BaseURL: srv.URL, APIKey: "k", Retries: cfg.Retries, IdleTimeout: time.Minute},
			OutDir: dir, RunID: "bench", Inputs: transcript.Inputs{ReportDir: dir}, Stdout: io.Discard,
		})
		if err != nil && !errors.Is(err, ErrVerdictFail) {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start))/float64(ideal), "x-ideal")
	}
	b.ReportMetric(float64(ideal.Milliseconds()), "ideal-ms")
}
