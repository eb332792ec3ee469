package jobs

import (
	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Chains is the jobs of a chained suite (the relay, produce --steps 2):
// the first step of every chain (model, document, repeat) to start with,
// and each later step built when the step before it is archived, from the
// document the model returned.
type Chains struct {
	set     *task.Set // relay.Build's tasks
	prompts *task.Prompts
	params  map[string]Params
	models  []string
	repeats int
	runID   string
	// feedback, when set, asks the feedback rounds of a step before the
	// chain goes on: the next step is given the last round's document.
	feedback *Feedback
	// progress, when set, is told of the planned steps a chain that ends
	// early will not ask (Later counted them).
	progress runner.Progress
	steps    map[stepKey]*task.Task // next's index
}

// WithProgress makes a chain that ends early take its later steps off
// its model's progress total (p.Add with a negative count), so that the
// total is what the run asks and a finished run shows done = total.
func (r *Chains) WithProgress(p runner.Progress) *Chains {
	r.progress = p
	return r
}

// WithFeedback makes the chains wait for each step's feedback rounds
// (f) and hand on the last round's answer.
func (r *Chains) WithFeedback(f *Feedback) *Chains {
	r.feedback = f
	return r
}

// NewChains plans the chains of set (relay.Build) for models × repeats.
func NewChains(set *task.Set, prompts *task.Prompts, models []string, repeats int, params map[string]Params, runID string) *Chains {
	steps := map[stepKey]*task.Task{}
	for _, t := range set.Tasks {
		if t.Step > 0 {
			steps[stepKey{t.Suite, t.Chain, t.Lane, t.Step}] = t
		}
	}
	return &Chains{set: set, prompts: prompts, params: params, models: models, repeats: repeats, runID: runID, steps: steps}
}

// First returns step 1 of every chain, by model, document and repeat.
func (r *Chains) First() []runner.Job {
	var out []runner.Job
	for _, m := range r.models {
		for _, t := range r.set.Tasks {
			if t.Step != 1 {
				continue
			}
			for rep := range r.repeats {
				out = append(out, r.job(m, t, rep, t.Source))
			}
		}
	}
	return out
}

// Later counts, per model, the steps after the first that the chains plan
// (for the progress totals); chains that end early ask fewer.
func (r *Chains) Later() map[string]int {
	n := 0
	for _, t := range r.set.Tasks {
		if t.Step > 1 {
			n += r.repeats
		}
	}
	out := map[string]int{}
	for _, m := range r.models {
		out[m] = n
	}
	return out
}

// Then is the runner's follow-up rule: when step s of a chain is archived
// with an answer that holds a document, step s+1 is asked with that
// document. An answer without one ends the chain (the score phase scores
// the steps not run as drift 1); an API failure leaves it waiting for a
// resume, which asks step s again and goes on from there. A step archived
// before (resume) is kept when it was given the same document.
//
// With feedback rounds (WithFeedback), a step's answer that is not
// well-formed waits for its next round, and the last round's answer is
// the one handed on.
func (r *Chains) Then(res runner.Result) []runner.Job {
	t := res.Transcript
	step := r.set.Task(t.TaskID)
	if r.feedback != nil {
		step, _, _ = r.feedback.RoundOf(t.TaskID)
	}
	if step == nil || step.Step == 0 || t.Kind != transcript.KindTask {
		return nil
	}
	if !t.OK() {
		r.ended(t.Model, step) // it waits for a resume
		return nil
	}
	if r.feedback != nil && !r.feedback.Final(res) {
		return nil // the step's next round is asked (Feedback.Then)
	}
	next := r.next(step)
	if next == nil {
		return nil
	}
	given := Returned(step.Format, res.Job.Request.Document, t.Response.Content)
	if given == nil {
		r.ended(t.Model, step)
		return nil
	}
	j := r.job(t.Model, next, t.Repeat, given)
	j.Counted = true
	return []runner.Job{j}
}

// next is the step after step in its chain and lane (the relay's NN-sSS,
// the delegate suite's NN-dIII), or nil at the chain's end.
func (r *Chains) next(step *task.Task) *task.Task {
	return r.steps[stepKey{step.Suite, step.Chain, step.Lane, step.Step + 1}]
}

type stepKey struct {
	suite, chain, lane string
	step               int
}

// ended takes the steps after step of its chain off model m's progress
// total: this run will not ask them.
func (r *Chains) ended(m string, step *task.Task) {
	if r.progress == nil {
		return
	}
	n := 0
	for _, t := range r.set.Tasks {
		if t.Chain == step.Chain && t.Lane == step.Lane && t.Step > step.Step {
			n++
		}
	}
	if n > 0 {
		r.progress.Add(m, -n)
	}
}

// job is model m's request for step t of a chain in repeat rep, given the
// document given (the source at step 1, the model's own answer later).
func (r *Chains) job(m string, t *task.Task, rep int, given *task.Document) runner.Job {
	if t.Show != nil {
		if shown, err := t.Show(given); err == nil {
			given = shown
		}
	}
	asked := *t
	asked.Source = given
	p, ok := r.params[m]
	if !ok {
		p = Params{}
	}
	j := AnswerJob(m, &asked, rep, p, r.prompts, r.runID)
	j.Request.Document = given.Bytes
	j.Keep = func(archived *transcript.Transcript) bool { return archived.Hashes.Document == given.Hash }
	return j
}

// Returned is the document a relay answer in format f hands on to the
// next step, given the document the step was given: a whole-document
// answer's JSON object with a "blocks" array, as metric.ExtractJSON finds
// it; a patch answer applied to the given document (formats.Format.Apply).
// The document is written as bend.Marshal writes documents; nil when the
// answer holds none or does not apply (the chain ends there), or when
// reading it panics (the score phase says why: scoring.Stream scores
// such an answer invalid, with the reason).
func Returned(f string, given []byte, content string) (doc *task.Document) {
	defer func() {
		if recover() != nil {
			doc = nil // the harness failed on the answer: it hands on nothing
		}
	}()
	if form := formats.Lookup(f); form != nil && f != "" {
		out, fail := form.Apply(given, content)
		if fail != nil {
			return nil
		}
		content = string(out)
	}
	x := metric.ExtractJSON(content, func(v *bend.Value) bool { return v.Get("blocks") != nil })
	if x.Value == nil || x.Value.Kind != bend.Object {
		return nil
	}
	if b := x.Value.Get("blocks"); b == nil || b.Kind != bend.Array {
		return nil
	}
	return task.Marshalled("returned", bend.FromValue(x.Value))
}
