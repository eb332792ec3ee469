// Package runner sends model requests: every request the harness makes (an
// answer to a task, a judge's vote on an answer) is one [Job], run under a
// per-model and a global limit, each ending in a transcript written the
// moment it completes. A job may bring follow-up jobs (the votes on an
// answer) that join the queue as soon as it is archived. A killed run
// resumes by requesting only the jobs without a transcript the caller keeps.
//
// The runner does not know what a job is for: the caller (the pipeline)
// builds each job's request and transcript record, and decides which
// archived transcripts may stand for a job on resume.
package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"time"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/transcript"
)

// Job is one model call to make.
type Job struct {
	// Model is the model called; its per-model limit applies.
	Model string
	// Request is what is sent.
	Request model.Request
	// Record is the job's transcript before the call: kind, ids, hashes
	// and the request record. Its Path below the run directory names the
	// job: no two jobs of one Run may share it.
	Record transcript.Transcript
	// Skip, when set, says why the job must not be sent (a prompt that
	// cannot fit the model's context): it is archived as an error with
	// that message, code CodeNotSent, no attempt and no cost.
	Skip string
	// Counted says the job's place in its model's progress total was
	// counted before the run (Progress.Add by the caller), as it is for
	// follow-ups known in advance; the runner does not count it again.
	Counted bool
	// Extra says the job is beyond the plan (a feedback round, asked only
	// when an answer fails): progress counts it beside its model's total,
	// never in it (Progress).
	Extra bool
	// Render, when set, builds the job's Request, Record.Request and Skip
	// when the job is started (before Budget.Estimate reads it), so that a
	// job waiting in a queue holds no prompt: a run queues thousands, and
	// each is dropped once its transcript is archived.
	Render func(*Job)
	// Keep says whether a transcript already archived at the job's path
	// stands for the job (resume); nil keeps any that verifies and holds a
	// response. An error transcript is never kept: an API failure is not a
	// result, so a resume asks again.
	Keep func(archived *transcript.Transcript) bool
	// Decode, when set, is the answer's content as its format reads it
	// (a patch applied to the document the job was given, a projection
	// parsed back); nil when the content is read as it is. The runner
	// looks for the key in it (Runner.Secret).
	Decode func(content string) []byte
}

// Path is where the job's transcript is archived below dir.
func (j *Job) Path(dir string) string { return j.Record.Path(dir) }

// Runner runs jobs and archives their transcripts in Dir.
type Runner struct {
	Clients map[string]model.Client // by model id

	// Dir is the run directory. "" archives nothing and reuses nothing:
	// the transcripts are only returned, as for a calibration, which has
	// no run to resume and nothing that reads its transcripts back. Job
	// paths need not then be unique.
	Dir string

	PerModel   int           // requests in flight per model
	Global     int           // requests in flight in all
	JobTimeout time.Duration // bounds one job: all attempts and waits

	Progress Progress // nil: no progress output

	// Then, when set, is called with every job's archived transcript
	// (requested or reused, successful or not) and returns the jobs that
	// follow from it, such as the judge votes on a class A answer. They
	// join the end of their model's queue at once and are run under the
	// same limits. (At the end rather than the front: the jobs already
	// waiting may themselves bring follow-ups, and starting them first
	// keeps every budget busy to the last wave.)
	Then func(Result) []Job

	// Budget, when not nil, caps what the run spends.
	Budget *Budget

	// Known, when not nil, receives the hash of every transcript archived
	// or kept (verified on resume), so that the score phase need not hash
	// them again (transcript.ReadKnown).
	Known *transcript.Known

	// Secret, when set, reports whether a text spells the API key
	// (model.SpellsKey). An answer whose content, or whose content as its
	// format reads it (Job.Decode), spells it is withheld before it is
	// archived, followed up or shown: its content and body are replaced
	// by a notice, and it is scored as an answer without a document.
	Secret func(string) bool
}

// Budget is a spending cap: no job starts once the known cost plus the
// estimates of the jobs in flight reaches Max. Known cost is the cost of
// every transcript this Run has seen, reused ones included (they were paid
// for by an earlier invocation of the same run), each at its reported
// usage.cost, or at its estimate when the provider reported none. A job
// starts only when the known cost, the estimates in flight and its own
// estimate stay within Max: the run overshoots the cap only by what the
// requests cost beyond their estimates, and a resume with a higher cap
// pays nothing twice.
type Budget struct {
	Max      float64           // USD
	Estimate func(Job) float64 // a job's estimated cost in USD; nil is 0
}

// ErrBudget is returned by Run when jobs were left unstarted because the
// spending cap was reached; their transcripts are absent, so a resume
// asks exactly them.
var ErrBudget = errors.New("the spending cap was reached")

func (b *Budget) estimate(j Job) float64 {
	if b == nil || b.Estimate == nil {
		return 0
	}
	return b.Estimate(j)
}

// priced reports whether a finished job's cost is known to the budget:
// reported (and valid), estimable (a price is known), or nothing sent.
func (b *Budget) priced(res Result) bool {
	t := res.Transcript
	switch {
	case b == nil || t == nil || len(t.Attempts) == 0:
		return true
	case t.Response != nil && t.Response.Usage.Cost != nil && model.ValidCost(*t.Response.Usage.Cost):
		return true
	}
	return b.estimate(res.Job) > 0
}

// cost is what a finished job counts against the budget.
func (b *Budget) cost(res Result) float64 {
	t := res.Transcript
	switch {
	case t == nil || len(t.Attempts) == 0 && res.Outcome != Reused:
		return 0 // nothing was sent
	case t.Response != nil && t.Response.Usage.Cost != nil && model.ValidCost(*t.Response.Usage.Cost):
		return *t.Response.Usage.Cost
	}
	return b.estimate(res.Job)
}

// Outcome says how a job ended in this invocation.
type Outcome int

// Outcomes.
const (
	Requested Outcome = iota // the model was called
	Reused                   // an archived transcript was kept (resume)
	Skipped                  // not requested: the model had a fatal error
	Cancelled                // interrupted before it was sent; no transcript written
	// Interrupted is a job whose call was in flight (or between attempts)
	// when ctx ended: its attempts are archived as sent, with their
	// generation ids, under the error code transcript.CodeInterrupted.
	Interrupted
)

// Result is one job's transcript (nil when Cancelled) and how it came about.
type Result struct {
	Job        Job
	Transcript *transcript.Transcript
	Outcome    Outcome
	// Reasked, for a job asked again on resume, holds the generation ids
	// of the interrupted attempts of the transcript it replaces that may
	// have been paid (Transcript.PaidInterrupted): the resume says so.
	Reasked []string
}

// done is a finished job as the scheduler learns of it.
type done struct {
	slot int
	res  Result
	err  error // I/O failure writing its transcript
}

// Run runs jobs and the jobs that follow from them (Then), and returns
// their results: those of jobs in the order of jobs, then those of the
// follow-up jobs sorted by transcript path, whatever the order of
// completion.
//
// The scheduler starts a job when its model has fewer than PerModel and
// the run fewer than Global requests in flight, taking the models in turn
// so that none starves the others of the global budget. After a call that
// fails with model.ErrFatal (a bad key, no credit, an unknown model), the
// model's jobs not yet started are archived as skipped without a request;
// calls already in flight finish and are archived as they end, since each
// was sent and may have been paid for. A failure of one request
// (model.ErrRequest: a refusal, a moderation block) fails that job alone.
//
// API failures are recorded in transcripts, not returned. Run returns an
// error for I/O failures, for a job without a client, and when ctx ends:
// then the calls in flight are closed and archived as interrupted
// (transcript.CodeInterrupted), the jobs not started have no transcript,
// and a resume asks exactly those without an answer, naming the
// interrupted ones (Result.Reasked).
func (r *Runner) Run(ctx context.Context, jobs []Job) ([]Result, error) {
	s, err := r.run(ctx, jobs, true)
	if s == nil {
		return nil, err
	}
	return s.results(), err
}

// Drain runs jobs and their follow-ups as Run does, but keeps no result:
// each job's transcript and request are dropped once Then has made its
// follow-ups, so memory holds only the jobs waiting and in flight, however
// many there are. It returns how the jobs ended; the transcripts are in
// Dir.
func (r *Runner) Drain(ctx context.Context, jobs []Job) (Tally, error) {
	s, err := r.run(ctx, jobs, false)
	if s == nil {
		return Tally{}, err
	}
	s.tally.Down = s.down()
	s.resumableSkips()
	slices.SortFunc(s.tally.Reasked, func(a, b Reask) int { return cmp.Compare(a.Path, b.Path) })
	slices.SortFunc(s.tally.Resumable, func(a, b Resumable) int { return cmp.Compare(a.Cause, b.Cause) })
	return s.tally, err
}

// Tally counts how the jobs of a Drain ended.
type Tally struct {
	Jobs      int // every job, follow-ups included
	Requested int // Outcome Requested
	Reused    int // Outcome Reused
	Skipped   int // Outcome Skipped
	// Spent is the known cost of the transcripts, as Spent counts it.
	Spent float64
	// Reasked lists the jobs asked again whose earlier transcript had an
	// interrupted attempt that may have been paid, by path.
	Reasked []Reask
	// Resumable counts the jobs that failed for a cause a resume can cure
	// (transcript.CallError.Resumable: out of credit, rate limits that
	// outlasted the retries), by cause, with the first such failure.
	Resumable []Resumable
	// Unpriced counts the requests of this invocation, under a Budget,
	// whose cost was neither reported (or was invalid: negative, absurd)
	// nor estimable (no price known): the cap cannot count them, so the
	// run stopped at the first (issue 45: each counted $0, and every
	// answer went past a $0.001 cap).
	Unpriced int
	// Down lists, by model name, the models every job of which failed
	// fatally (model.ErrFatal: a refused connection, an unknown host, a
	// bad key, no credit, a missing model) or was skipped after such a
	// failure: the run measured nothing of them, for one reason.
	Down []Down
}

// Reask is a job asked again although an interrupted attempt of its
// earlier transcript may have been paid.
type Reask struct {
	Path string   // the job's transcript path below the run directory
	IDs  []string // the generation ids of those attempts
}

// Resumable is a cause that left jobs unanswered which a resume, once the
// cause is gone, asks again.
type Resumable struct {
	Cause string // e.g. "out of credit"
	Jobs  int
	First string // the first such failure's text
}

// Down is a model whose every request failed for one reason.
type Down struct {
	Model string
	Err   string // the first fatal failure's text
}

// AllReused reports whether every job kept an archived transcript: the
// invocation asked nothing new.
func (t Tally) AllReused() bool { return t.Reused == t.Jobs }

func (t *Tally) add(res Result, cost float64) {
	if len(res.Reasked) > 0 {
		t.Reasked = append(t.Reasked, Reask{Path: res.Job.Path(""), IDs: res.Reasked})
	}
	if tr := res.Transcript; tr != nil && tr.Error != nil {
		if cause := tr.Error.Resumable(); cause != "" {
			i := slices.IndexFunc(t.Resumable, func(r Resumable) bool { return r.Cause == cause })
			if i < 0 {
				t.Resumable = append(t.Resumable, Resumable{Cause: cause, First: tr.Error.Message})
				i = len(t.Resumable) - 1
			}
			t.Resumable[i].Jobs++
		}
	}
	switch res.Outcome {
	case Requested:
		t.Requested++
	case Reused:
		t.Reused++
	case Skipped:
		t.Skipped++
	}
	t.Spent += cost
}

// run is Run (keep: every result kept) and Drain (none kept).
func (r *Runner) run(ctx context.Context, jobs []Job, keep bool) (*schedule, error) {
	for _, j := range jobs {
		if r.Clients[j.Model] == nil {
			return nil, fmt.Errorf("no client for model %q", j.Model)
		}
	}
	s := newSchedule(r, len(jobs), keep)
	for _, j := range jobs {
		s.add(j)
	}
	err := s.loop(ctx)
	if ctx.Err() != nil {
		return s, ctx.Err()
	}
	if err == nil && s.capped {
		err = ErrBudget
	}
	return s, err
}

// schedule is the state of one Run; only loop's goroutine touches it.
type schedule struct {
	r       *Runner
	initial int
	// keep says whether slots holds every job's result (Run) or no
	// result is kept (Drain).
	keep     bool
	slots    []Result
	tally    Tally
	queue    map[string][]waiting // per model, first to run first
	models   []string             // models in order of first job, for taking turns
	next     int                  // the model whose turn it is
	inflight map[string]int
	running  int
	fatal    map[string]error // the model's fatal failure
	// fatalCause is the model's fatal failure as recorded, and skipped
	// counts the jobs not sent after it: a resumable cause (out of
	// credit) leaves them all unanswered.
	fatalCause map[string]*transcript.CallError
	skipped    map[string]int
	measured   map[string]bool // the model has a job that did not fail fatally
	done       chan done

	// The spending cap (Runner.Budget): the known cost, the estimates of
	// the jobs in flight by slot, and whether a job was held back.
	spent    float64
	reserved map[int]float64
	capped   bool
}

// waiting is a queued job and its slot: its place among the jobs in the
// order they were added.
type waiting struct {
	slot int
	job  Job
}

func newSchedule(r *Runner, n int, keep bool) *schedule {
	s := &schedule{
		r: r, initial: n, keep: keep,
		queue: map[string][]waiting{}, inflight: map[string]int{}, fatal: map[string]error{}, measured: map[string]bool{},
		fatalCause: map[string]*transcript.CallError{}, skipped: map[string]int{},
		done: make(chan done), reserved: map[int]float64{},
	}
	if keep {
		s.slots = make([]Result, 0, n)
	}
	return s
}

// add queues job j in the next slot, at the end of its model's queue.
func (s *schedule) add(j Job) {
	slot := s.tally.Jobs
	s.tally.Jobs++
	if s.keep {
		s.slots = append(s.slots, Result{Job: j, Outcome: Cancelled})
	}
	if _, ok := s.queue[j.Model]; !ok {
		s.models = append(s.models, j.Model)
	}
	s.queue[j.Model] = append(s.queue[j.Model], waiting{slot, j})
	if p := s.r.Progress; p != nil && !j.Counted && !j.Extra {
		p.Add(j.Model, 1)
	}
}

// loop starts jobs as budgets allow and handles their ends until no job is
// waiting or running. After ctx ends or an I/O failure it starts nothing
// more and waits for the running jobs.
func (s *schedule) loop(ctx context.Context) error {
	var firstErr error
	for {
		if ctx.Err() == nil && firstErr == nil {
			s.start(ctx)
		}
		if s.running == 0 {
			return firstErr
		}
		d := <-s.done
		s.running--
		s.inflight[d.res.Job.Model]--
		if s.keep {
			s.slots[d.slot] = d.res
		}
		cost := s.r.Budget.cost(d.res)
		s.tally.add(d.res, cost)
		if d.res.Outcome == Requested && !s.r.Budget.priced(d.res) {
			s.tally.Unpriced++
		}
		if s.r.Budget != nil {
			delete(s.reserved, d.slot)
			s.spent += cost
		}
		if d.err != nil {
			firstErr = cmp.Or(firstErr, d.err)
			continue
		}
		if d.res.Transcript == nil {
			continue
		}
		s.report(d.res)
		s.note(d.res)
		if s.r.Then != nil && ctx.Err() == nil {
			follow, err := s.then(d.res)
			if err != nil {
				firstErr = cmp.Or(firstErr, err)
				continue
			}
			for _, f := range follow {
				if s.r.Clients[f.Model] == nil {
					firstErr = cmp.Or(firstErr, fmt.Errorf("no client for model %q", f.Model))
					continue
				}
				s.add(f)
			}
		}
	}
}

// then is Runner.Then of res, a panic in it an error: the loop then
// starts nothing more and waits for the jobs in flight, each archived as
// it ends, so that no paid answer is lost (issue 45: a panic while reading
// one answer crashed the run with requests in flight).
func (s *schedule) then(res Result) (follow []Job, err error) {
	defer func() {
		if p := recover(); p != nil {
			follow, err = nil, fmt.Errorf("following up %s: the harness failed (%v); the transcripts written are kept", res.Job.Path(""), p)
		}
	}()
	return s.r.Then(res), nil
}

// note records a model's first fatal failure, and whether a job of the
// model ended otherwise (an answer, or a failure of its own). A prompt
// that was not sent (Job.Skip) says nothing about the model.
func (s *schedule) note(res Result) {
	m, e := res.Job.Model, res.Transcript.Error
	switch {
	case e != nil && e.Fatal:
		if e.Code == transcript.CodeSkipped {
			s.skipped[m]++
		}
		if s.fatal[m] == nil {
			s.fatal[m] = errors.New(e.Message)
			s.fatalCause[m] = e
		}
	case e == nil || e.Code != transcript.CodeNotSent:
		s.measured[m] = true
	}
}

// resumableSkips counts the jobs skipped after a model's fatal failure
// with the failure's cause when a resume can cure it (out of credit):
// they are unanswered for that cause too.
func (s *schedule) resumableSkips() {
	for _, m := range slices.Sorted(maps.Keys(s.skipped)) {
		cause := s.fatalCause[m].Resumable()
		if cause == "" {
			continue
		}
		i := slices.IndexFunc(s.tally.Resumable, func(r Resumable) bool { return r.Cause == cause })
		if i < 0 {
			s.tally.Resumable = append(s.tally.Resumable, Resumable{Cause: cause, First: s.fatalCause[m].Message})
			i = len(s.tally.Resumable) - 1
		}
		s.tally.Resumable[i].Jobs += s.skipped[m]
	}
}

// down lists the models whose every job failed fatally, by name.
func (s *schedule) down() []Down {
	var out []Down
	for _, m := range slices.Sorted(maps.Keys(s.fatal)) {
		if !s.measured[m] {
			out = append(out, Down{Model: m, Err: s.fatal[m].Error()})
		}
	}
	return out
}

// start starts every job the budgets allow, the models taking turns.
// capped says whether the last call left a job unstarted for the
// spending cap: a job held back while estimates were in flight, and
// started once their real costs came in under the cap, does not make a
// run that finished every job a capped one (issue 43).
func (s *schedule) start(ctx context.Context) {
	s.capped = false
	for progress := true; progress; {
		progress = false
		for k := range s.models {
			m := s.models[(s.next+k)%len(s.models)]
			if len(s.queue[m]) == 0 || s.inflight[m] >= max(s.r.PerModel, 1) || s.running >= max(s.r.Global, 1) {
				continue
			}
			// The job is rendered before it is weighed against the cap
			// (the estimate reads its prompt); held back, it stays at the
			// head of its queue, rendered, and is never started.
			head := &s.queue[m][0].job
			if head.Render != nil {
				head.Render(head)
				head.Render = nil
			}
			est := s.r.Budget.estimate(*head)
			if s.overBudget(est) {
				s.capped = true
				return
			}
			w := s.queue[m][0]
			s.queue[m][0] = waiting{} // the queue's array must not hold the job
			s.queue[m] = s.queue[m][1:]
			s.inflight[m]++
			s.running++
			s.next = (s.next + k + 1) % len(s.models)
			job, cause := w.job, s.fatal[m]
			if s.r.Budget != nil {
				s.reserved[w.slot] = est
			}
			go func() { s.done <- s.r.do(ctx, w.slot, job, cause) }()
			progress = true
			break
		}
	}
}

// overBudget reports whether the known cost plus the estimates of the
// jobs in flight has reached the cap, or would cross it with a job
// estimated at next (issue 46: a run capped at $0.50 spent $0.5245, its
// last request started below the cap and crossing it).
func (s *schedule) overBudget(next float64) bool {
	b := s.r.Budget
	if b == nil {
		return false
	}
	if s.tally.Unpriced > 0 {
		return true // a cost the cap cannot count: stop rather than guess
	}
	total := s.spent
	for _, slot := range slices.Sorted(maps.Keys(s.reserved)) {
		total += s.reserved[slot]
	}
	return total >= b.Max || total+next > b.Max
}

func (s *schedule) report(res Result) {
	if p := s.r.Progress; p != nil {
		p.Done(res)
	}
}

// results returns the slots: the initial jobs in order, then the
// follow-ups by path.
func (s *schedule) results() []Result {
	out := slices.Clone(s.slots)
	slices.SortStableFunc(out[s.initial:], func(a, b Result) int {
		return cmp.Compare(a.Job.Path(""), b.Job.Path(""))
	})
	return out
}

// do runs one job: keeps its archived transcript, or skips it after a
// fatal error of its model, or calls the model; then archives the result.
func (r *Runner) do(ctx context.Context, slot int, job Job, fatal error) done {
	res, err := r.outcome(ctx, job, fatal)
	if err == nil && res.Outcome != Reused && res.Transcript != nil && r.Dir != "" {
		err = archive(r.Dir, res)
	}
	if err == nil && res.Transcript != nil && r.Dir != "" {
		r.Known.Add(res.Transcript.Hash)
	}
	return done{slot: slot, res: res, err: err}
}

// archive writes a job's new transcript, setting aside the one it replaces.
func archive(dir string, res Result) error {
	if err := transcript.Supersede(res.Job.Path(dir)); err != nil {
		return err
	}
	if err := transcript.Write(dir, res.Transcript); err != nil {
		return fmt.Errorf("writing transcript: %w", err)
	}
	return nil
}

// outcome keeps the job's archived transcript, or skips the job, or calls
// the model; the result is not yet archived.
func (r *Runner) outcome(ctx context.Context, job Job, fatal error) (Result, error) {
	old, replaced, err := r.existing(job)
	if err != nil {
		return Result{Job: job, Outcome: Cancelled}, err
	}
	if old != nil {
		return Result{Job: job, Transcript: old, Outcome: Reused}, nil
	}
	var reasked []string
	if replaced != nil {
		reasked = replaced.PaidInterrupted()
	}
	switch {
	case job.Skip != "":
		t := record(job)
		now := time.Now().UTC()
		t.StartedAt, t.FinishedAt = now, now
		t.Error = &transcript.CallError{Code: transcript.CodeNotSent, Message: job.Skip}
		return Result{Job: job, Transcript: t, Outcome: Skipped}, nil
	case fatal != nil:
		return Result{Job: job, Transcript: skipped(job, fatal), Outcome: Skipped}, nil
	}
	t := r.call(ctx, job)
	switch {
	case t == nil:
		return Result{Job: job, Outcome: Cancelled, Reasked: reasked}, nil
	case t.Error != nil && t.Error.Code == transcript.CodeInterrupted:
		return Result{Job: job, Transcript: t, Outcome: Interrupted, Reasked: reasked}, nil
	}
	return Result{Job: job, Transcript: t, Outcome: Requested, Reasked: reasked}, nil
}

// existing returns the job's archived transcript when it holds a response
// and job.Keep keeps it; nil when there is none or it must be asked again
// (an API failure, a vote on an answer that changed), with the transcript
// the new call will replace in replaced. A transcript that
// does not read back, verify or belong to the job's slot (a transcript
// copied from another task, model or run) is an error: the archive was
// damaged or edited, and asking again would hide it.
func (r *Runner) existing(job Job) (kept, replaced *transcript.Transcript, err error) {
	if r.Dir == "" {
		return nil, nil, nil
	}
	rec := job.Record
	slot := transcript.Slot{RunID: rec.RunID, Kind: rec.Kind, Model: rec.Model, TaskID: rec.TaskID, Repeat: rec.Repeat}
	if rec.Judged != nil {
		slot.Answerer = rec.Judged.Model
	}
	t, err := transcript.ReadSlot(job.Path(r.Dir), slot)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("resuming: %w", err)
	case !t.OK() || job.Keep != nil && !job.Keep(t):
		return nil, t, nil
	}
	return t, nil, nil
}

// record is a fresh copy of the job's transcript record.
func record(job Job) *transcript.Transcript {
	t := job.Record
	t.Attempts = []transcript.Attempt{}
	return &t
}

// skipped is the transcript of a job not sent because its model failed
// fatally: no attempt, and a known cost of nothing.
func skipped(job Job, cause error) *transcript.Transcript {
	t := record(job)
	now := time.Now().UTC()
	t.StartedAt, t.FinishedAt = now, now
	t.Error = &transcript.CallError{Code: transcript.CodeSkipped, Message: "not requested after a fatal error of the model: " + cause.Error(), Fatal: true,
		Scope: string(model.ScopeModel), Reason: "not requested after a fatal error of the model"}
	return t
}

// call makes one job's request. It returns nil when the job was
// interrupted (ctx ended) before an answer or a final failure.
func (r *Runner) call(ctx context.Context, job Job) *transcript.Transcript {
	t := record(job)
	jctx, cancel := context.WithTimeout(ctx, r.JobTimeout)
	defer cancel()
	t.StartedAt = time.Now().UTC()
	resp, err := r.Clients[job.Model].Complete(jctx, job.Request)
	t.FinishedAt = time.Now().UTC()
	if resp != nil {
		t.Attempts = transcript.AttemptsOf(resp.Attempts)
	}
	if err != nil && ctx.Err() != nil {
		// The run was cancelled. A call that made no attempt was never
		// sent; one that did is archived as sent, its stream closed, so
		// that what may have been paid is not lost and a resume can say
		// so (Result.Reasked). (A call that completed as the run was
		// cancelled is an answer, archived as any other.)
		if len(t.Attempts) == 0 {
			return nil
		}
		t.Error = &transcript.CallError{Code: transcript.CodeInterrupted,
			Message: "interrupted: the run was cancelled with the call in flight; its stream was closed, and a resume asks it again"}
		if resp != nil && (len(resp.RawBody) > 0 || resp.Usage.Cost != nil) {
			t.Response = transcript.ResponseOf(resp)
		}
		return t
	}
	if err != nil {
		t.Error = callError(err, jctx)
		// A failed call keeps its response when it has a body, or a cost
		// that earlier attempts were charged.
		if resp != nil && (len(resp.RawBody) > 0 || resp.Usage.Cost != nil) {
			t.Response = transcript.ResponseOf(resp)
		}
		return t
	}
	t.Response = transcript.ResponseOf(resp)
	r.withhold(job, t.Response)
	return t
}

// withhold replaces an answer that spells the key, as it is or as its
// format reads it (Runner.Secret), by the transcript.Withheld notice.
func (r *Runner) withhold(job Job, resp *transcript.Response) {
	if r.Secret == nil || resp == nil {
		return
	}
	spelled := r.Secret(resp.Content)
	if !spelled && job.Decode != nil {
		spelled = r.Secret(string(job.Decode(resp.Content)))
	}
	if spelled {
		resp.Content = transcript.Withheld
		resp.RawBody, _ = json.Marshal(transcript.Withheld)
	}
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
