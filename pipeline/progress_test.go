package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/model/modeltest"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/transcript"
)

// tally is a runner.Progress that keeps each model's total (the sum of
// its Adds) and its planned jobs done.
type tally struct {
	mu          sync.Mutex
	total, done map[string]int
}

func (p *tally) Add(model string, n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total[model] += n
}

func (p *tally) Done(res runner.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !res.Job.Extra {
		p.done[res.Job.Model]++
	}
}

// lineLog is a runner.Progress that writes a line per ended job, in the
// order they end: "<model> judges <answerer> <task>" for a judge vote,
// "[<model>] <task>" for an answer (the CLI's progress lines read alike).
type lineLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineLog) Add(string, int) {}

func (l *lineLog) Done(res runner.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := res.Transcript; t.Kind == transcript.KindJudge && t.Judged != nil {
		fmt.Fprintf(l.w, "%s judges %s %s\n", res.Job.Model, t.Judged.Model, t.TaskID)
		return
	}
	fmt.Fprintf(l.w, "[%s] %s\n", res.Job.Model, res.Transcript.TaskID)
}

// TestProgressEndsAtItsTotal: a finished run's progress shows done =
// total for every model, the judges included, when answers bring fewer
// votes than planned. Every answer here is "hello", never a valid class A
// answer, so no vote is asked: the judge's planned votes must come off
// its total (it stayed at 0/40 on the judge's bar).
func TestProgressEndsAtItsTotal(t *testing.T) {
	t.Parallel()
	srv := modeltest.NewServer(t, modeltest.FixedDelay(0, "hello"))
	models := []string{"a/x", "b/y"}
	srv.SetModels(modeltest.Entry("a/x"), modeltest.Entry("b/y"), modeltest.Entry("j/judge"))
	o, _ := testOptions(t, models, srv.URL)
	o.Config.Judges.Models = []string{"j/judge"}
	p := &tally{total: map[string]int{}, done: map[string]int{}}
	o.Progress = p
	if _, err := Run(context.Background(), o); err != nil && !errors.Is(err, ErrVerdictFail) {
		t.Fatal(err)
	}
	for _, m := range append(models, "j/judge") {
		if p.total[m] != p.done[m] {
			t.Errorf("%s: ends at %d/%d; want done = total", m, p.done[m], p.total[m])
		}
	}
	if p.done["a/x"] != 60 || p.done["j/judge"] != 0 {
		t.Errorf("done %v; the test needs 60 answers per model and no vote", p.done)
	}
}
