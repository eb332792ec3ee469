package pipeline

import (
	"encoding/json"
	"fmt"

	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/transcript"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
)

// The preflight's estimate of what a run will cost before anything is
// paid: tokens per job from the prompts as they will be sent, and the
// completion a class asks for, at each model's listed prices.

// voteEstimate estimates, per judge, the tokens of its planned votes:
// each is the mean class A answer prompt plus voteExtra, and 200
// completion tokens.
func voteEstimate(planned []runner.Job, set *task.Set, votes map[string]int) map[string]tokenEstimate {
	var prompt, n int64
	for _, j := range planned {
		if t := set.Task(j.Record.TaskID); t != nil && t.Class == task.ClassA {
			b, _ := json.Marshal(j.Request.Messages)
			prompt += int64(model.Tokens(len(b)))
			n++
		}
	}
	out := map[string]tokenEstimate{}
	if n == 0 {
		return out
	}
	for j, v := range votes {
		out[j] = tokenEstimate{planned: v, prompt: int64(v) * (prompt/n + voteExtra), completion: int64(v) * 200}
	}
	return out
}

// jobCost is one job's estimated cost at its model's listed prices, for
// the spending cap; 0 when the model has no listed price (offline models,
// no preflight).
func jobCost(j runner.Job, set *task.Set, listed map[string]model.ModelInfo) float64 {
	info, ok := listed[j.Model]
	if !ok {
		return 0
	}
	c, _ := estimate([]runner.Job{j}, set)[j.Model].cost(info)
	return c
}

type tokenEstimate struct {
	planned            int
	prompt, completion int64
	// cached is the prompt tokens a provider's cache can serve: the shared
	// prefix (system primer and document) of every task of a document but
	// the first.
	cached int64
}

// cost estimates the cost in USD from a model's listing: cached tokens at
// the cache-read price when it is listed (else at the prompt price), and
// the prefix written once at the cache-write price when it is listed.
func (e tokenEstimate) cost(info model.ModelInfo) (float64, bool) {
	if info.PromptPrice == nil || info.CompletionPrice == nil {
		return 0, false
	}
	read := *info.PromptPrice
	if info.CacheReadPrice != nil {
		read = *info.CacheReadPrice
	}
	return float64(e.prompt-e.cached)**info.PromptPrice + float64(e.cached)*read + float64(e.completion)**info.CompletionPrice, true
}

// estimate counts tokens with model.Tokens, a rough rule that is good enough
// to catch a run that would cost ten times what was expected. The prefix of
// a document's second and later tasks (same model, document and repeat)
// counts as cacheable.
func estimate(planned []runner.Job, set *task.Set) map[string]tokenEstimate {
	out := map[string]tokenEstimate{}
	seen := map[string]bool{}
	for _, j := range planned {
		e := out[j.Model]
		e.planned++
		b, _ := json.Marshal(j.Request.Messages)
		e.prompt += int64(model.Tokens(len(b)))
		t := set.Task(j.Record.TaskID)
		e.completion += completionTokens(t)
		if t != nil {
			key := fmt.Sprintf("%s\x00%s\x00%d", j.Model, t.DocumentName, j.Record.Repeat)
			if seen[key] {
				e.cached += int64(model.Tokens(len(t.Source.Bytes)))
			}
			seen[key] = true
		}
		out[j.Model] = e
	}
	return out
}

// completionTokens estimates the output of an answer to t: 200 tokens
// for a class A answer (or an unknown task), the document's tokens for a
// whole-document answer, and for a patch answer (t.Format) four times the
// gold edit's tokens (paths, guards and the JSON around the edit) and 200
// more.
func completionTokens(t *task.Task) int64 {
	switch {
	case t == nil || t.Class == task.ClassA:
		return 200
	case t.Format != "":
		b, _ := json.Marshal(t.GoldEdit)
		return int64(4*model.Tokens(len(b)) + 200)
	}
	return int64(model.Tokens(len(t.Source.Bytes)))
}

// leftCost estimates what the work a capped run left would cost at the
// listed prices: every planned answer without a successful transcript in
// runDir, and every judge vote on a class A answer without one (whether
// its answer was made or not). It is what the resume's suggested cap adds
// to the known cost (issue 46: the suggestion doubled the old cap whatever
// was left, so each printed command stopped again). Follow-ups no plan
// can count (feedback rounds) are not in it.
func leftCost(o Options, p *plan, caps *capabilities, runDir string) float64 {
	cfg := o.Config
	var left, classA []runner.Job
	votes := map[string]int{}
	for _, j := range jobs.NewAnswers(cfg, o.Prompts, p.tasks, nil, "").All() {
		rec := j.Record
		if !archivedOK(transcript.TaskPath(runDir, rec.Model, rec.TaskID, rec.Repeat)) {
			left = append(left, j)
		}
		if t := o.Set.Task(rec.TaskID); t == nil || t.Class != task.ClassA || len(p.judges) == 0 {
			continue
		}
		classA = append(classA, j)
		for _, jm := range judge.Panel(rec.Model, cfg.Models, cfg.Judges.Models) {
			if !archivedOK(transcript.JudgePath(runDir, jm, rec.TaskID, rec.Model, rec.Repeat)) {
				votes[jm]++
			}
		}
	}
	total := 0.0
	add := func(m string, e tokenEstimate) {
		if info, ok := caps.listed[m]; ok {
			c, _ := e.cost(info)
			total += c
		}
	}
	for m, e := range estimate(left, o.Set) {
		add(m, e)
	}
	for m, e := range voteEstimate(classA, o.Set, votes) {
		add(m, e)
	}
	return total
}

// archivedOK reports whether path holds a transcript with a response and
// no error: a job a resume will not ask again.
func archivedOK(path string) bool {
	t, err := transcript.Read(path)
	return err == nil && t.OK()
}
