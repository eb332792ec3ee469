package pipeline

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// The preflight's estimate of what a run will cost before anything is
// paid: tokens per job from the prompts as they will be sent, the
// completion a class asks for and the reasoning the model's policy
// expects, at each model's listed prices, with the cache as each vendor
// bills it (reads, writes, the minimum prefix) and pricing.overrides
// (docs/interpretations.md, "The estimate").

// runEstimate is the preflight's estimate of a run, before anything is
// paid: the answer jobs as they will be asked, and per answering model and
// per judge the tokens and cost expected.
type runEstimate struct {
	// planned are the answer jobs as they will be asked (a resume's,
	// those left), with params, each answering model's request
	// parameters; all counts the run's whole plan, and resume is the
	// line that says what a resume has left (leftToAsk), "" for a new run.
	planned []runner.Job
	all     int
	resume  string
	params  map[string]jobs.Params
	// answers and votes are the estimates per answering model and per
	// judge with a listing (an offline judge costs nothing).
	answers, votes map[string]tokenEstimate
	// answersUSD and votesUSD are their costs; known is false when a
	// price was missing.
	answersUSD, votesUSD float64
	known                bool
}

// total is the estimated cost of the run.
func (e runEstimate) total() float64 { return e.answersUSD + e.votesUSD }

// estimateRun estimates the run p will make with the policies of caps:
// its answer jobs (estimate) and its judges' planned votes (voteEstimate).
func estimateRun(o Options, p *plan, caps *capabilities) runEstimate {
	cfg := o.Config
	params := paramsOf(o, p, caps)
	all := jobs.NewAnswers(cfg, o.Prompts, p.tasks, params, "").All()
	votes := map[string]int{}
	if len(p.judges) > 0 {
		votes = jobs.PlannedVotes(cfg, p.tasks, judge.Config{Gating: cfg.Models, Fixed: cfg.Judges.Models})
	}
	e := runEstimate{all: len(all), params: params, known: true}
	e.planned, votes, e.resume = leftToAsk(o, p, all, votes)
	e.answers = estimate(e.planned, o.Set, caps)
	for _, m := range p.online {
		c, ok := e.answers[m].cost()
		e.answersUSD += c
		e.known = e.known && ok
	}
	// A vote's prompt is its class A answer's: every planned answer, a
	// resume's votes left included those on answers already made.
	e.votes = voteEstimate(all, o.Set, votes, caps)
	for _, j := range slices.Sorted(maps.Keys(e.votes)) {
		if _, listed := caps.listed[j]; !listed {
			delete(e.votes, j)
			continue
		}
		c, ok := e.votes[j].cost()
		e.votesUSD += c
		e.known = e.known && ok
	}
	return e
}

// voteExtra is the prompt tokens a judge vote adds to the class A
// answer's prompt: the answer under judgement and the rubric.
const voteExtra = 400

// cacheRule is how a vendor's provider caches a prompt prefix.
type cacheRule struct {
	prefix string // model id prefix; "" matches every model
	// minPrefix is the fewest tokens a cached prefix may have: Anthropic's
	// is 4,096 for Opus 4.5 to 4.8, the others' 1,024.
	minPrefix int64
	// breakpoints: the prefix is written once at the marked breakpoint
	// and read after (Anthropic); otherwise every long prompt is written
	// where the listing prices writes (GPT-5.6 and later) and shared
	// prefixes are read.
	breakpoints bool
}

var cacheRules = []cacheRule{
	{prefix: "anthropic/", minPrefix: 4096, breakpoints: true},
	{prefix: "", minPrefix: 1024},
}

func cacheRuleOf(m string) cacheRule {
	for _, r := range cacheRules {
		if strings.HasPrefix(m, r.prefix) {
			return r
		}
	}
	return cacheRules[len(cacheRules)-1]
}

// expectedReasoning is the reasoning tokens the estimate counts for a
// request whose policy allows allowance: three quarters of it, the
// harness's own figure for what an effort spends on average (the
// allowance is room, not a forecast).
func expectedReasoning(allowance int) int64 { return int64(allowance) * 3 / 4 }

// voteAnswerTokens is a judge vote's answer without reasoning: a verdict
// object with its quotes.
const voteAnswerTokens = 200

// voteEstimate estimates, per judge, the tokens and cost of its planned
// votes: each is the mean class A answer prompt plus voteExtra, and
// voteAnswerTokens plus the judge policy's expected reasoning, within
// the votes' budget, at the judge's prices (no cache counted: a vote's
// prompt is shared only with the other votes on the same answer).
func voteEstimate(planned []runner.Job, set *task.Set, votes map[string]int, caps *capabilities) map[string]tokenEstimate {
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
		pol := caps.policies[j]
		reasoning := expectedReasoning(pol.ReasoningAllowance)
		if pol.JudgeMaxTokens > 0 {
			reasoning = max(0, min(reasoning, int64(pol.JudgeMaxTokens)-voteAnswerTokens))
		}
		one := measure{prompt: prompt/n + voteExtra, completion: voteAnswerTokens + reasoning, reasoning: reasoning}
		e := tokenEstimate{planned: v}
		if ms := caps.history.vote(j); ms != nil {
			// What this judge's votes used before, on average.
			one = ms.mean()
			e.learned, e.from = v, ms.n
		}
		e.prompt, e.cached, e.written = int64(v)*one.prompt, int64(v)*one.cached, int64(v)*one.written
		e.completion, e.reasoning = int64(v)*one.completion, int64(v)*one.reasoning
		if info, ok := caps.listed[j]; ok {
			e.usd, e.known = jobPrice(info, one.prompt, one.cached, one.written, one.completion, one.reasoning)
			e.usd *= float64(v)
		}
		out[j] = e
	}
	return out
}

// jobCost is one job's estimated cost at its model's listed prices, for
// the spending cap; 0 when the model has no listed price (offline models,
// no preflight).
func jobCost(j runner.Job, set *task.Set, caps *capabilities) float64 {
	e := estimate([]runner.Job{j}, set, caps)[j.Model]
	return e.usd
}

// tokenEstimate is the estimate of a group of one model's jobs.
type tokenEstimate struct {
	planned            int
	prompt, completion int64
	// cached is the prompt tokens read from the provider's cache, written
	// those written to it (billed at the write price where listed).
	cached, written int64
	// reasoning is the completion tokens expected to go to reasoning.
	reasoning int64
	// usd is the estimated cost; known is false when a price is missing.
	usd   float64
	known bool
	// learned counts the jobs estimated from earlier runs' measures
	// (history), from the earlier answers or votes they averaged.
	learned, from int
}

// cost is the estimate's cost, and whether every price was known. A sum
// that is not a finite, non-negative amount is unknown: no "$+Inf" is
// ever printed as an estimate (issue 53).
func (e tokenEstimate) cost() (float64, bool) {
	if !sane(e.usd) {
		return 0, false
	}
	return e.usd, e.known || e.planned == 0
}

// sane reports whether usd can be an estimate: finite and not negative.
func sane(usd float64) bool { return usd >= 0 && !math.IsInf(usd, 0) }

// jobPrice prices one request at info's listing: the prompt's uncached
// tokens at the prompt price (pricing.overrides by prompt length), cached
// ones at the cache-read price and written ones at the cache-write price
// where listed (else the prompt price), the answer at the completion
// price and reasoning at internal_reasoning where listed, plus the
// request price.
func jobPrice(info model.ModelInfo, prompt, cached, written, completion, reasoning int64) (float64, bool) {
	in, out := info.PricesFor(prompt)
	if in == nil || out == nil || len(info.PriceWarnings) > 0 {
		// A listing with an absurd price (model.MaxTokenPrice) prices
		// nothing: its other prices are no safer.
		return 0, false
	}
	read, write, reason := *in, *in, *out
	if info.CacheReadPrice != nil {
		read = *info.CacheReadPrice
	}
	if info.CacheWritePrice != nil {
		write = *info.CacheWritePrice
	}
	if info.InternalReasoningPrice != nil {
		reason = *info.InternalReasoningPrice
	}
	usd := float64(prompt-cached-written)**in + float64(cached)*read + float64(written)*write +
		float64(completion-reasoning)**out + float64(reasoning)*reason
	if info.RequestPrice != nil {
		usd += *info.RequestPrice
	}
	if !sane(usd) {
		return 0, false
	}
	return usd, true
}

// estimate counts tokens with model.Tokens, a rough rule that is good
// enough to catch a run that would cost ten times what was expected, and
// prices each job at its model's listing and policy (caps; a model
// without a listing gets tokens and no cost). A document's prefix (its
// system primer and document) is read from the cache by the document's
// second and later tasks (same model, document and repeat) when it is at
// least the vendor's minimum prefix; it is written by the first where
// the vendor caches at breakpoints, and every long prompt's uncached
// part is written where the vendor writes implicitly and the listing
// prices writes.
func estimate(planned []runner.Job, set *task.Set, caps *capabilities) map[string]tokenEstimate {
	out := map[string]tokenEstimate{}
	seen := map[string]bool{}
	for _, j := range planned {
		if j.Skip != "" {
			continue // not sent: the preflight names it
		}
		e := out[j.Model]
		if e.planned == 0 {
			e.known = true
		}
		e.planned++
		b, _ := json.Marshal(j.Request.Messages)
		prompt := int64(model.Tokens(len(b)))
		t := set.Task(j.Record.TaskID)
		answer := completionTokens(t)
		var cached, written int64
		rule := cacheRuleOf(j.Model)
		if t != nil {
			key := fmt.Sprintf("%s\x00%s\x00%d", j.Model, t.DocumentName, j.Record.Repeat)
			system := 0
			if len(j.Request.Messages) > 0 {
				system = len(j.Request.Messages[0].Text())
			}
			prefix := int64(model.Tokens(system + len(t.Source.Bytes)))
			switch {
			case prefix < rule.minPrefix:
			case seen[key]:
				cached = prefix
			case rule.breakpoints:
				written = prefix
			}
			seen[key] = true
		}
		info, listed := caps.listed[j.Model]
		if !rule.breakpoints && listed && info.CacheWritePrice != nil && prompt >= rule.minPrefix {
			written = prompt - cached
		}
		reasoning := expectedReasoning(caps.policies[j.Model].ReasoningAllowance)
		if j.Request.MaxTokens > 0 {
			reasoning = max(0, min(reasoning, int64(j.Request.MaxTokens)-answer))
		}
		if ms := caps.history.answer(j); ms != nil {
			// What this model used for this task before, on average, in
			// place of the assumptions above.
			mean := ms.mean()
			prompt, cached, written, reasoning = mean.prompt, mean.cached, mean.written, mean.reasoning
			answer = mean.completion - mean.reasoning
			e.learned++
			e.from += ms.n
		}
		e.prompt += prompt
		e.cached += cached
		e.written += written
		e.reasoning += reasoning
		e.completion += answer + reasoning
		if listed {
			usd, ok := jobPrice(info, prompt, cached, written, answer+reasoning, reasoning)
			e.usd += usd
			e.known = e.known && ok
		} else {
			e.known = false
		}
		out[j.Model] = e
	}
	return out
}

// completionTokens estimates the answer to t, reasoning aside: 200
// tokens for a class A answer (or an unknown task), the document's tokens
// for a whole-document answer, and for a patch answer (t.Format) four
// times the gold edit's tokens (paths, guards and the JSON around the
// edit) and 200 more.
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
	all := jobs.NewAnswers(o.Config, o.Prompts, p.tasks, nil, "").All()
	left, votes := leftWork(o, p, all, runDir)
	total := 0.0
	add := func(e tokenEstimate) {
		c, _ := e.cost()
		total += c
	}
	for _, e := range estimate(left, o.Set, caps) {
		add(e)
	}
	for _, e := range voteEstimate(all, o.Set, votes, caps) {
		add(e)
	}
	return total
}

// archivedOK reports whether path holds a transcript with a response and
// no error: a job a resume will not ask again.
func archivedOK(path string) bool {
	t, err := transcript.Read(path)
	return err == nil && t.OK()
}
