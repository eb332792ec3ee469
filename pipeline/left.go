package pipeline

import (
	"cmp"
	"fmt"
	"slices"

	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// leftWork is what the run in runDir has left to ask of planned: the
// answers without a successful transcript, but for the later steps of a
// chain that ended (unasked), and per judge the votes without one on
// each class A answer (whether its answer was made or not).
func leftWork(o Options, p *plan, planned []runner.Job, runDir string) ([]runner.Job, map[string]int) {
	cfg := o.Config
	var left []runner.Job
	votes := map[string]int{}
	ended := unasked(o, p, runDir)
	for _, j := range planned {
		rec := j.Record
		if !archivedOK(transcript.TaskPath(runDir, rec.Model, rec.TaskID, rec.Repeat)) && !ended[answerOf(rec)] {
			left = append(left, j)
		}
		if t := o.Set.Task(rec.TaskID); t == nil || t.Class != task.ClassA || len(p.judges) == 0 {
			continue
		}
		for _, jm := range judge.Panel(rec.Model, cfg.Models, cfg.Judges.Models) {
			if !archivedOK(transcript.JudgePath(runDir, jm, rec.TaskID, rec.Model, rec.Repeat)) {
				votes[jm]++
			}
		}
	}
	return left, votes
}

// answer names one planned answer.
type answer struct {
	model, task string
	repeat      int
}

func answerOf(r transcript.Transcript) answer { return answer{r.Model, r.TaskID, r.Repeat} }

// unasked are the chain steps the run in runDir will not ask: those after
// a step whose archived answer held no document to hand on (jobs.Returned),
// found by walking each chain over its archived steps as the runner's
// chains do on a resume (jobs.Chains.Then): a step whose transcript is
// missing, failed or was given another document is asked again, and the
// walk stops there. With feedback rounds the document handed on is a
// round's, so nothing is taken off (the estimate is then an upper bound).
func unasked(o Options, p *plan, runDir string) map[answer]bool {
	out := map[answer]bool{}
	if o.Inputs.Feedback > 0 {
		return out
	}
	for _, chain := range chainsOf(p.tasks) {
		for _, m := range o.Config.Models {
			for rep := range o.Config.Repeats {
				if end := endOf(runDir, m, rep, chain); end > 0 {
					for _, t := range chain[end:] {
						out[answer{m, t.ID, rep}] = true
					}
				}
			}
		}
	}
	return out
}

// chainsOf groups the chained tasks (Step > 0) by suite, chain and lane,
// each chain in step order.
func chainsOf(tasks []*task.Task) [][]*task.Task {
	type key struct{ suite, chain, lane string }
	by := map[key][]*task.Task{}
	var keys []key
	for _, t := range tasks {
		if t.Step == 0 {
			continue
		}
		k := key{t.Suite, t.Chain, t.Lane}
		if by[k] == nil {
			keys = append(keys, k)
		}
		by[k] = append(by[k], t)
	}
	out := make([][]*task.Task, 0, len(keys))
	for _, k := range keys {
		c := by[k]
		slices.SortFunc(c, func(a, b *task.Task) int { return cmp.Compare(a.Step, b.Step) })
		out = append(out, c)
	}
	return out
}

// endOf is how many steps of model m's chain in repeat rep were asked
// before one ended it (its answer handed on no document), 0 when the
// archive does not show it ended.
func endOf(runDir, m string, rep int, chain []*task.Task) int {
	given := chain[0].Source
	for i, t := range chain {
		if t.Show != nil {
			shown, err := t.Show(given)
			if err != nil {
				return 0
			}
			given = shown
		}
		tr, err := transcript.Read(transcript.TaskPath(runDir, m, t.ID, rep))
		if err != nil || !tr.OK() || tr.Hashes.Document != given.Hash {
			return 0
		}
		next := jobs.Returned(t.Format, given.Bytes, tr.Response.Content)
		if next == nil {
			return i + 1
		}
		given = next
	}
	return 0
}

// leftToAsk is, for a resume, the answers and judge votes of planned
// and votes that the run has left to ask (leftWork), and the line that
// says so; for a new run, planned and votes as they are and no line. A
// resume's estimate is then the work left, not the whole run's again
// (issue 56).
func leftToAsk(o Options, p *plan, planned []runner.Job, votes map[string]int) ([]runner.Job, map[string]int, string) {
	if o.Resume == nil {
		return planned, votes, ""
	}
	left, leftVotes := leftWork(o, p, planned, o.ResumeDir)
	bound := ""
	if o.Inputs.Feedback > 0 && slices.ContainsFunc(p.tasks, func(t *task.Task) bool { return t.Step > 0 }) {
		bound = " (at most: with feedback rounds, a chain that ends early is not foreseen)"
	}
	line := fmt.Sprintf("resume: %d of %d answer jobs and %d judge votes left to ask%s; an estimate counts these alone",
		len(left), len(planned), sum(leftVotes), bound)
	return left, leftVotes, line
}

// sum is the sum of m's values.
func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
