// Package suite turns the corpus and the tasks into runner jobs: the
// answers a run asks for, and the judge votes that follow from class A
// answers. The runner sends jobs without knowing what they are for; the
// score phase reads back what they archived.
package suite

import (
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// AnswerJobs lists every (model, task, repeat) in a fixed order: by model,
// then task id, then repeat. Repeat r uses seed+r.
func AnswerJobs(cfg *config.Config, prompts *task.Prompts, tasks []*task.Task, runID string) []runner.Job {
	var out []runner.Job
	for _, m := range cfg.Models {
		for _, t := range tasks {
			for r := 0; r < cfg.Repeats; r++ {
				out = append(out, AnswerJob(m, t, r, cfg.Request, prompts, runID))
			}
		}
	}
	return out
}

// AnswerJob is model m's answer to task t in repeat r: the rendered
// prompt, the configured parameters and seed+r.
func AnswerJob(m string, t *task.Task, r int, params config.Request, prompts *task.Prompts, runID string) runner.Job {
	msgs := prompts.Render(t)
	mm := make([]model.Message, len(msgs))
	for i, x := range msgs {
		mm[i] = model.Message{Role: x.Role, Content: x.Content}
	}
	req := model.Request{
		Model: m, Messages: mm, Temperature: new(params.Temperature), Seed: new(params.Seed + int64(r)),
		MaxTokens: params.MaxTokens, TaskID: t.ID,
	}
	return runner.Job{Model: m, Request: req, Record: transcript.Transcript{
		Kind: transcript.KindTask, RunID: runID, Model: m, TaskID: t.ID, Class: t.Class, Repeat: r,
		Hashes:  transcript.Hashes{Prompt: prompts.Hash, Task: t.Hash, Document: t.Source.Hash},
		Request: transcript.RequestOf(req),
	}}
}

// JudgeVotes returns the runner's follow-up rule: every archived class A
// answer with a response brings one vote job per judge of its panel. A
// vote archived for the same answer with the same template is kept.
func JudgeVotes(set *task.Set, jc judge.Config) func(runner.Result) []runner.Job {
	return func(res runner.Result) []runner.Job {
		a := res.Transcript
		t := set.Task(a.TaskID)
		if a.Kind != transcript.KindTask || t == nil {
			return nil
		}
		var out []runner.Job
		for _, c := range jc.Calls(t, a) {
			out = append(out, runner.Job{Model: c.Judge, Request: c.Request, Record: c.Record,
				Keep: func(archived *transcript.Transcript) bool { return jc.Current(archived, a) }})
		}
		return out
	}
}
