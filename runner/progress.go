package runner

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"bendscript.com/round-trip-harness/transcript"
)

// Progress receives the runner's events. Implementations must be safe for
// concurrent use.
type Progress interface {
	Start(model string, total int)
	Done(model string, t *transcript.Transcript, o Outcome)
}

// counts are one model's totals so far.
type counts struct {
	total, done, errors, retries int
	tokens                       int64
	cost                         float64
	costUnknown                  bool
	started                      time.Time
}

func (c *counts) add(t *transcript.Transcript) {
	c.done++
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

func (c *counts) cost0() string {
	s := fmt.Sprintf("$%.4f", c.cost)
	if c.costUnknown {
		s += "+?"
	}
	return s
}

// Lines prints one line per completed job: the form for CI logs and files.
type Lines struct {
	W   io.Writer
	mu  sync.Mutex
	per map[string]*counts
}

// Start implements Progress.
func (l *Lines) Start(model string, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.per == nil {
		l.per = map[string]*counts{}
	}
	l.per[model] = &counts{total: total, started: time.Now()}
}

// Done implements Progress.
func (l *Lines) Done(model string, t *transcript.Transcript, o Outcome) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.per[model]
	c.add(t)
	status := "ok"
	switch {
	case o == Reused:
		status = "reused"
	case t.Error != nil:
		status = "error: " + t.Error.Message
	}
	fmt.Fprintf(l.W, "[%d/%d] %s %s r%d %s (%d attempts, %s so far)\n",
		c.done, c.total, model, t.TaskID, t.Repeat, status, len(t.Attempts), c.cost0())
}

// Bars redraws one live line per model on a terminal: done/total, errors,
// retries, tokens, cost so far and an ETA.
type Bars struct {
	W     io.Writer
	mu    sync.Mutex
	per   map[string]*counts
	order []string
	drawn int
}

// Start implements Progress.
func (b *Bars) Start(model string, total int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.per == nil {
		b.per = map[string]*counts{}
	}
	b.per[model] = &counts{total: total, started: time.Now()}
	b.order = append(b.order, model)
	sort.Strings(b.order)
	b.draw()
}

// Done implements Progress.
func (b *Bars) Done(model string, t *transcript.Transcript, o Outcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.per[model].add(t)
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
		fmt.Fprintf(b.W, "\x1b[2K%-*s [%s%s] %d/%d  err %d  retry %d  tok %d  %s  eta %s\n",
			width, m, strings.Repeat("#", filled), strings.Repeat(".", barLen-filled),
			c.done, c.total, c.errors, c.retries, c.tokens, c.cost0(), eta)
	}
	b.drawn = len(b.order)
}
