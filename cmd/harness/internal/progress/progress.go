// Package progress draws a run's progress for a person: one line per
// finished job (Lines, for logs and CI) or one live bar per model on a
// terminal (Bars), and chooses between them (For). It is the CLI's: the
// runner only reports its events (runner.Progress).
package progress

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/transcript"
)

// perModel finds or makes a model's counts; new reports whether it made them.
func perModel(per *map[string]*counts, model string) (c *counts, made bool) {
	if *per == nil {
		*per = map[string]*counts{}
	}
	if c = (*per)[model]; c == nil {
		c = &counts{started: time.Now()}
		(*per)[model] = c
		made = true
	}
	return c, made
}

// what names a transcript's job for a person: the task and repeat, and for
// a judge vote the answer judged.
func what(t *transcript.Transcript) string {
	if t.Kind == transcript.KindJudge && t.Judged != nil {
		return fmt.Sprintf("judges %s %s r%d", t.Judged.Model, t.TaskID, t.Repeat)
	}
	return fmt.Sprintf("%s r%d", t.TaskID, t.Repeat)
}

// counts are one model's totals so far; extra are the jobs beyond the
// plan (Job.Extra) that have ended.
type counts struct {
	total, done, extra, errors, retries int
	tokens                              int64
	cost                                float64
	costUnknown                         bool
	started                             time.Time
}

func (c *counts) add(res runner.Result) {
	if res.Job.Extra {
		c.extra++
	} else {
		c.done++
	}
	t := res.Transcript
	if t == nil {
		return
	}
	if t.Error != nil {
		c.errors++
	}
	if n := len(t.Attempts); n > 1 {
		c.retries += n - 1
	}
	if t.Response != nil {
		u := t.Response.Usage
		c.tokens += u.PromptTokens + u.CompletionTokens
		if u.Cost != nil {
			c.cost += *u.Cost
		} else if t.Error == nil {
			c.costUnknown = true
		}
	}
}

// ratio is done/total, and the extra jobs when there were any:
// "41/60 +3 extra".
func (c *counts) ratio() string {
	s := fmt.Sprintf("%d/%d", c.done, c.total)
	if c.extra > 0 {
		s += fmt.Sprintf(" +%d extra", c.extra)
	}
	return s
}

func (c *counts) cost0() string {
	s := fmt.Sprintf("$%.4f", c.cost)
	if c.costUnknown {
		s += "+?"
	}
	return s
}

// MaxStatus bounds the error message a progress line shows, in bytes.
const MaxStatus = 300

// Lines prints one line per completed job: the form for CI logs and files.
// The jobs not requested after a model's fatal error are one line per
// model with their count (issue 56: 180 identical lines against a dead API
// root), printed when the model's jobs are all done or another of its jobs
// ends.
type Lines struct {
	W       io.Writer
	mu      sync.Mutex
	per     map[string]*counts
	skipped map[string]*skippedRun
}

// skippedRun is a model's jobs not requested after its fatal error, not
// yet printed: how many, the first and the last.
type skippedRun struct {
	n           int
	first, last string
}

// Add implements runner.Progress.
func (l *Lines) Add(model string, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, _ := perModel(&l.per, model)
	c.total += n
}

// Done implements runner.Progress.
func (l *Lines) Done(res runner.Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	model, t := res.Job.Model, res.Transcript
	c, _ := perModel(&l.per, model)
	c.add(res)
	if res.Outcome != runner.Reused && t.Error != nil && t.Error.Code == transcript.CodeSkipped {
		if l.skipped == nil {
			l.skipped = map[string]*skippedRun{}
		}
		run := l.skipped[model]
		if run == nil {
			run = &skippedRun{first: what(t)}
			l.skipped[model] = run
		}
		run.n++
		run.last = what(t)
		if c.done >= c.total {
			l.flushSkipped(model, c)
		}
		return
	}
	l.flushSkipped(model, c)
	status := "ok"
	switch {
	case res.Outcome == runner.Reused:
		status = "reused"
	case t.Error != nil:
		// A server's message is one bounded line: a 5 MB message went
		// whole into the log, and one holding "\n::error::" started a
		// line of its own (issue 32).
		status = "error: " + safetext.Cap(t.Error.Message, MaxStatus)
	}
	attempts := "attempts"
	if len(t.Attempts) == 1 {
		attempts = "attempt"
	}
	fmt.Fprintf(l.W, "[%s] %s %s %s (%d %s, %s so far)\n",
		c.ratio(), safetext.Line(model), safetext.Line(what(t)), safetext.Line(status), len(t.Attempts), attempts, c.cost0())
}

// flushSkipped prints the line of model's jobs not requested after its
// fatal error, if any are pending.
func (l *Lines) flushSkipped(model string, c *counts) {
	run := l.skipped[model]
	if run == nil {
		return
	}
	delete(l.skipped, model)
	span := safetext.Line(run.first)
	if run.n > 1 {
		span += " to " + safetext.Line(run.last)
	}
	fmt.Fprintf(l.W, "[%s] %s: %d %s not requested after the model's fatal error (%s; %s so far)\n",
		c.ratio(), safetext.Line(model), run.n, plural(run.n, "job", "jobs"), span, c.cost0())
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Bars redraws one live line per model on a terminal: done/total, errors,
// retries, tokens, cost so far and an ETA.
type Bars struct {
	W     io.Writer
	mu    sync.Mutex
	per   map[string]*counts
	order []string
	drawn int
	// started is set by the first Done: until then the totals are still
	// being counted (the later jobs, then each first job as it is
	// queued), and drawing them showed 0/40, then 0/60 (issue 46).
	started bool
}

// Add implements runner.Progress. Before the first job ends it only counts:
// the bars are drawn once the plan is whole.
func (b *Bars) Add(model string, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, made := perModel(&b.per, model)
	c.total += n
	if made {
		b.order = append(b.order, model)
		sort.Strings(b.order)
	}
	if b.started {
		b.draw()
	}
}

// Done implements runner.Progress.
func (b *Bars) Done(res runner.Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, made := perModel(&b.per, res.Job.Model)
	if made {
		b.order = append(b.order, res.Job.Model)
		sort.Strings(b.order)
	}
	c.add(res)
	b.started = true
	b.draw()
}

func (b *Bars) draw() {
	if b.drawn > 0 {
		fmt.Fprintf(b.W, "\x1b[%dA", b.drawn)
	}
	width := 0
	for _, m := range b.order {
		width = max(width, len(m))
	}
	for _, m := range b.order {
		c := b.per[m]
		const barLen = 24
		filled := 0
		if c.total > 0 {
			filled = barLen * c.done / c.total
		}
		eta := "--"
		if c.done > 0 && c.done < c.total {
			left := time.Duration(float64(time.Since(c.started)) / float64(c.done) * float64(c.total-c.done))
			eta = left.Round(time.Second).String()
		} else if c.done == c.total {
			eta = "done"
		}
		fmt.Fprintf(b.W, "\x1b[2K%-*s [%s%s] %s  err %d  retry %d  tok %d  %s  eta %s\n",
			width, safetext.Line(m), strings.Repeat("#", filled), strings.Repeat(".", barLen-filled),
			c.ratio(), c.errors, c.retries, c.tokens, c.cost0(), eta)
	}
	b.drawn = len(b.order)
}
