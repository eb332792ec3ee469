// Package runner fans the tasks out to the models: every (model, task,
// repeat) is one job, run concurrently under a per-model and a global limit,
// each ending in a transcript written the moment it completes. A killed run
// resumes by requesting only the jobs without a successful transcript.
package runner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Job is one model call to make.
type Job struct {
	Model  string
	Task   *task.Task
	Repeat int
	Seed   int64
}

// Runner runs jobs and archives their transcripts in Dir.
type Runner struct {
	Clients map[string]model.Client // by model id
	Prompts *task.Prompts
	Dir     string // the run directory
	RunID   string

	PerModel   int           // requests in flight per model
	Global     int           // requests in flight in all
	JobTimeout time.Duration // bounds one job: all attempts and waits

	Temperature float64
	MaxTokens   int

	Progress Progress // nil: no progress output
}

// Jobs lists every (model, task, repeat) in a fixed order: by model, then
// task id, then repeat. Repeat r uses seed+r.
func Jobs(models []string, tasks []*task.Task, repeats int, seed int64) []Job {
	var out []Job
	for _, m := range models {
		for _, t := range tasks {
			for r := 0; r < repeats; r++ {
				out = append(out, Job{Model: m, Task: t, Repeat: r, Seed: seed + int64(r)})
			}
		}
	}
	return out
}

// Outcome says how a job ended in this invocation.
type Outcome int

// Outcomes.
const (
	Requested Outcome = iota // the model was called
	Reused                   // a successful transcript already existed (resume)
	Skipped                  // not requested: the model had a fatal error
	Cancelled                // interrupted; no transcript written
)

// Result is one job's transcript (nil when Cancelled) and how it came about.
type Result struct {
	Job        Job
	Transcript *transcript.Transcript
	Outcome    Outcome
}

// Run runs jobs and returns their results in the order of jobs, whatever
// the order of completion. A job whose successful transcript already exists
// in Dir is not requested again. API failures are recorded in transcripts,
// not returned; Run returns an error only for I/O failures and for ctx
// being cancelled (then the jobs not finished have no transcript, so a
// resume requests exactly them).
func (r *Runner) Run(ctx context.Context, jobs []Job) ([]Result, error) {
	results := make([]Result, len(jobs))
	byModel := map[string][]int{}
	var order []string
	for i, j := range jobs {
		results[i].Job = j
		if _, ok := byModel[j.Model]; !ok {
			order = append(order, j.Model)
		}
		byModel[j.Model] = append(byModel[j.Model], i)
	}
	global := make(chan struct{}, max(r.Global, 1))
	g, gctx := errgroup.WithContext(ctx)
	for _, m := range order {
		idx := byModel[m]
		client := r.Clients[m]
		if client == nil {
			return nil, fmt.Errorf("no client for model %q", m)
		}
		if r.Progress != nil {
			r.Progress.Start(m, len(idx))
		}
		g.Go(func() error { return r.runModel(gctx, client, m, idx, jobs, results, global) })
	}
	err := g.Wait()
	if ctx.Err() != nil {
		return results, ctx.Err()
	}
	return results, err
}

// runModel runs one model's jobs with at most PerModel in flight. After a
// fatal error (bad key, no credit, unknown model) the model's other jobs are
// cancelled or skipped, each recorded as an error transcript.
func (r *Runner) runModel(ctx context.Context, client model.Client, name string, idx []int, jobs []Job, results []Result, global chan struct{}) error {
	mctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	var fatalOnce sync.Once
	g := new(errgroup.Group)
	g.SetLimit(max(r.PerModel, 1))
	for _, i := range idx {
		g.Go(func() error {
			job := jobs[i]
			// notRun records a job that was not (or not completely) asked:
			// skipped with an error transcript after a fatal error of the
			// model, or cancelled without a transcript so resume asks it.
			notRun := func() error {
				if cause := context.Cause(mctx); cause != nil && errors.Is(cause, model.ErrFatal) {
					t := r.skipped(job, cause)
					results[i] = Result{Job: job, Transcript: t, Outcome: Skipped}
					r.report(name, t, Skipped)
					return transcript.Write(r.Dir, t)
				}
				results[i] = Result{Job: job, Outcome: Cancelled}
				return nil
			}
			if t, ok := r.existing(job); ok {
				results[i] = Result{Job: job, Transcript: t, Outcome: Reused}
				r.report(name, t, Reused)
				return nil
			}
			select {
			case global <- struct{}{}:
				defer func() { <-global }()
			case <-mctx.Done():
			}
			if mctx.Err() != nil {
				return notRun()
			}
			t, err := r.call(mctx, client, job)
			if t == nil {
				return notRun()
			}
			if errors.Is(err, model.ErrFatal) {
				fatalOnce.Do(func() { stop(fmt.Errorf("%s: %w", name, err)) })
				t.Error.Fatal = true
			}
			results[i] = Result{Job: job, Transcript: t, Outcome: Requested}
			if err := transcript.Write(r.Dir, t); err != nil {
				return fmt.Errorf("writing transcript: %w", err)
			}
			r.report(name, t, Requested)
			return nil
		})
	}
	return g.Wait()
}

func (r *Runner) report(name string, t *transcript.Transcript, o Outcome) {
	if r.Progress != nil {
		r.Progress.Done(name, t, o)
	}
}

// existing returns the job's transcript when one exists, verifies, and holds
// a response. Error transcripts are requested again on resume: an API
// failure is not a result.
func (r *Runner) existing(job Job) (*transcript.Transcript, bool) {
	t, err := transcript.Read(transcript.TaskPath(r.Dir, job.Model, job.Task.ID, job.Repeat))
	if err != nil || !t.OK() {
		return nil, false
	}
	return t, true
}

// request is the model request of job.
func (r *Runner) request(job Job) model.Request {
	msgs := r.Prompts.Render(job.Task)
	mm := make([]model.Message, len(msgs))
	for i, m := range msgs {
		mm[i] = model.Message{Role: m.Role, Content: m.Content}
	}
	return model.Request{
		Model: job.Model, Messages: mm, Temperature: new(r.Temperature), Seed: new(job.Seed),
		MaxTokens: r.MaxTokens, TaskID: job.Task.ID,
	}
}

// base fills the fields every transcript of job shares.
func (r *Runner) base(job Job, req model.Request) *transcript.Transcript {
	return &transcript.Transcript{
		Kind:     transcript.KindTask,
		RunID:    r.RunID,
		Model:    job.Model,
		TaskID:   job.Task.ID,
		Class:    job.Task.Class,
		Repeat:   job.Repeat,
		Hashes:   transcript.Hashes{Prompt: r.Prompts.Hash, Task: job.Task.Hash, Document: job.Task.Source.Hash},
		Request:  transcript.RequestOf(req),
		Attempts: []transcript.Attempt{},
	}
}

func (r *Runner) skipped(job Job, cause error) *transcript.Transcript {
	t := r.base(job, r.request(job))
	now := time.Now().UTC()
	t.StartedAt, t.FinishedAt = now, now
	t.Error = &transcript.CallError{Code: "skipped", Message: "not requested: " + cause.Error(), Fatal: true}
	return t
}

// call makes one job's request. It returns a nil transcript when the job was
// interrupted (ctx cancelled) before an answer or a final failure.
func (r *Runner) call(ctx context.Context, client model.Client, job Job) (*transcript.Transcript, error) {
	req := r.request(job)
	t := r.base(job, req)
	jctx, cancel := context.WithTimeout(ctx, r.JobTimeout)
	defer cancel()
	t.StartedAt = time.Now().UTC()
	resp, err := client.Complete(jctx, req)
	t.FinishedAt = time.Now().UTC()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if resp != nil {
		t.Attempts = transcript.AttemptsOf(resp.Attempts)
	}
	if err != nil {
		t.Error = callError(err, jctx)
		if resp != nil && len(resp.RawBody) > 0 {
			t.Response = transcript.ResponseOf(resp)
		}
		return t, err
	}
	t.Response = transcript.ResponseOf(resp)
	return t, nil
}

// callError records a failed call; a job whose own deadline passed says so.
func callError(err error, jctx context.Context) *transcript.CallError {
	ce := transcript.CallErrorOf(err)
	var ae *model.APIError
	if !errors.As(err, &ae) && errors.Is(jctx.Err(), context.DeadlineExceeded) {
		ce.Code, ce.Message = "job_timeout", "the job's deadline passed: "+err.Error()
	}
	return ce
}
