package main

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// progressLine is one --progress lines line: done/total, the jobs beyond
// the plan, and the model.
var progressLine = regexp.MustCompile(`^\[(\d+)/(\d+)(?: \+(\d+) extra)?\] (\S+) `)

// TestProgressTotalNeverGrows is issue 34's "the progress bar's total
// grows during the run": a relay in search/replace blocks whose chains
// end early (offline/noisy slips) with feedback rounds. Per model, the total never
// grows from one line to the next, the last line shows done = total, and
// the rounds are counted beside the total as extra, not in it.
func TestProgressTotalNeverGrows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, errs, code := runCLI(t, "run", "--suite", "relay", "--steps", "4", "--formats", "search-replace", "--feedback", "1", "--models", "offline/oracle,offline/noisy",
		"--judges", "offline/judge", "--no-preflight", "--progress", "lines", "--run-id", "p",
		"--out", filepath.Join(dir, "runs"), "--reports", filepath.Join(dir, "reports"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	type seen struct{ done, total, extra, lines int }
	last := map[string]*seen{}
	for _, l := range strings.Split(errs, "\n") {
		m := progressLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		done, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		extra, _ := strconv.Atoi(m[3])
		s := last[m[4]]
		if s == nil {
			s = &seen{total: total}
			last[m[4]] = s
		}
		if total > s.total {
			t.Errorf("%s: total grew from %d to %d: %s", m[4], s.total, total, l)
		}
		s.done, s.total, s.extra, s.lines = done, total, extra, s.lines+1
	}
	if len(last) != 2 {
		t.Fatalf("progress lines for %d models, want 2:\n%s", len(last), errs)
	}
	for model, s := range last {
		if s.done != s.total {
			t.Errorf("%s: ends at %d/%d; want done = total", model, s.done, s.total)
		}
		if s.lines != s.done+s.extra {
			t.Errorf("%s: %d lines for %d planned and %d extra jobs", model, s.lines, s.done, s.extra)
		}
	}
	// The premise: noisy's chains end early (its total shrank below the
	// oracle's 80) and some of its answers took a feedback round.
	if n := last["offline/noisy"]; n == nil || n.total >= 80 || n.extra == 0 {
		t.Errorf("offline/noisy: %+v; the test needs chains that end early and feedback rounds", n)
	}
	if o := last["offline/oracle"]; o == nil || o.total != 80 || o.extra != 0 {
		t.Errorf("offline/oracle: %+v; want 80 planned steps (20 chains × 4) and no round", o)
	}
}
