package judge

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Config is the judge part of the harness configuration.
type Config struct {
	// RunID is recorded in every judge transcript; "" uses the answer's.
	RunID string `json:"-"`
	// Gating is the gating models. With no Fixed list, each answer is
	// judged by the gating models other than the one that gave it.
	Gating []string `json:"gating"`
	// Fixed, when non-empty, is a fixed judge list used instead of the
	// cross-vendor panel; a judge is still never asked about its own answer.
	Fixed []string `json:"fixed,omitempty"`
	// Seed is the base seed: the judge of repeat r is asked with Seed+r.
	Seed int64 `json:"seed"`
	// Concurrency bounds the judge calls in flight; 0 means 4.
	Concurrency int `json:"concurrency,omitempty"`
	// MaxTokens caps each judge reply; 0 leaves it to the provider.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Unstructured lists judges whose provider rejects structured output:
	// they get the prompt alone, and ParseVote reads whatever they reply.
	Unstructured []string `json:"unstructured,omitempty"`
	// Prompt is the judge template; nil means DefaultPrompt.
	Prompt *Prompt `json:"-"`
}

func (c Config) prompt() *Prompt {
	if c.Prompt != nil {
		return c.Prompt
	}
	return DefaultPrompt()
}

// job is one (answer, judge) call.
type job struct {
	answer *transcript.Transcript
	task   *task.Task
	judge  string
}

// Run asks the judges of every class A answer that has a response (OK) and
// stores each reply as a judge transcript below runDir (transcript.Write:
// atomic, hashed), returning all judge transcripts of those answers,
// ordered by answering model, task, repeat and judge.
//
// Each answer's judges are Panel(answerer, cfg.Gating, cfg.Fixed). A judge
// transcript already on disk is kept, without a call, when it verifies,
// judges the same answer (same hash), used the same template and holds a
// response; any other is asked again and overwritten, so a resumed run
// repairs API failures and answers that changed. A failed call is stored as
// an error transcript, never as a verdict; after a failure that matches
// model.ErrFatal, the judge's remaining calls are stored as skipped without
// being made.
//
// Run returns an error only for configuration (a task not in set, an answer
// with no judge, a judge with no client), I/O, or the end of ctx.
func Run(ctx context.Context, clients map[string]model.Client, set *task.Set, answers []*transcript.Transcript, runDir string, cfg Config) ([]*transcript.Transcript, error) {
	jobs, err := plan(clients, set, answers, cfg)
	if err != nil {
		return nil, err
	}
	p := cfg.prompt()
	out := make([]*transcript.Transcript, len(jobs))
	var fatal sync.Map // judge → *transcript.CallError
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(cmp.Or(cfg.Concurrency, 4))
	for i, j := range jobs {
		g.Go(func() error {
			tr, err := reuse(runDir, j, p)
			if err != nil || tr != nil {
				out[i] = tr
				return err
			}
			if e, ok := fatal.Load(j.judge); ok {
				tr = newTranscript(j, p, cfg, BuildRequest(j.task, j.answer.Response.Content, j.judge, cfg.Seed+int64(j.answer.Repeat), p))
				ce := *e.(*transcript.CallError)
				ce.Message = "skipped after a fatal error of the same judge: " + ce.Message
				tr.Error = &ce
			} else if tr, err = call(gctx, clients[j.judge], j, p, cfg); err != nil {
				return err
			}
			if tr.Error != nil && tr.Error.Fatal {
				fatal.LoadOrStore(j.judge, tr.Error)
			}
			if err := transcript.Write(runDir, tr); err != nil {
				return fmt.Errorf("writing judge transcript %s: %w", tr.Path(runDir), err)
			}
			out[i] = tr
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// plan lists the calls to make, sorted, and checks the configuration.
func plan(clients map[string]model.Client, set *task.Set, answers []*transcript.Transcript, cfg Config) ([]job, error) {
	var jobs []job
	for _, a := range answers {
		if a.Kind != transcript.KindTask || !a.OK() {
			continue
		}
		t := set.Task(a.TaskID)
		if t == nil {
			return nil, fmt.Errorf("judging %s/%s: no such task in the task set", a.Model, a.TaskID)
		}
		if t.Class != task.ClassA {
			continue
		}
		panel := Panel(a.Model, cfg.Gating, cfg.Fixed)
		if len(panel) == 0 {
			return nil, fmt.Errorf("judging %s/%s: no judge other than the answering model is configured", a.Model, a.TaskID)
		}
		for _, m := range panel {
			if clients[m] == nil {
				return nil, fmt.Errorf("judging %s/%s: no client for judge %s", a.Model, a.TaskID, m)
			}
			jobs = append(jobs, job{answer: a, task: t, judge: m})
		}
	}
	slices.SortFunc(jobs, func(x, y job) int {
		return cmp.Or(
			cmp.Compare(x.answer.Model, y.answer.Model),
			cmp.Compare(x.answer.TaskID, y.answer.TaskID),
			cmp.Compare(x.answer.Repeat, y.answer.Repeat),
			cmp.Compare(x.judge, y.judge),
		)
	})
	return jobs, nil
}

// reuse returns the judge transcript of j already on disk when Run may keep
// it (see Run), nil when it must ask again.
func reuse(runDir string, j job, p *Prompt) (*transcript.Transcript, error) {
	path := transcript.JudgePath(runDir, j.judge, j.answer.TaskID, j.answer.Model, j.answer.Repeat)
	tr, err := transcript.Read(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("resuming judge: %w", err)
	case tr.Kind != transcript.KindJudge || tr.Judged == nil || tr.Judged.Model != j.answer.Model || tr.Judged.Hash != j.answer.Hash || tr.Hashes.Task != p.Hash || !tr.OK():
		return nil, nil
	}
	return tr, nil
}

// call asks one judge and returns its transcript, unsealed. It fails only
// when ctx ends: an API failure is recorded in the transcript.
func call(ctx context.Context, c model.Client, j job, p *Prompt, cfg Config) (*transcript.Transcript, error) {
	req := BuildRequest(j.task, j.answer.Response.Content, j.judge, cfg.Seed+int64(j.answer.Repeat), p)
	req.MaxTokens = cfg.MaxTokens
	if slices.Contains(cfg.Unstructured, j.judge) {
		req.JSONSchema, req.SchemaName = nil, ""
	}
	tr := newTranscript(j, p, cfg, req)
	tr.StartedAt = time.Now().UTC()
	resp, err := c.Complete(ctx, req)
	tr.FinishedAt = time.Now().UTC()
	if err != nil && ctx.Err() != nil {
		// An interrupted call is not a judge failure: leave no transcript,
		// so that resuming asks again.
		return nil, ctx.Err()
	}
	if resp != nil {
		tr.Attempts = transcript.AttemptsOf(resp.Attempts)
	}
	if err != nil {
		tr.Error = transcript.CallErrorOf(err)
		if resp != nil && len(resp.RawBody) > 0 {
			tr.Response = transcript.ResponseOf(resp)
		}
		return tr, nil
	}
	tr.Response = transcript.ResponseOf(resp)
	return tr, nil
}

// newTranscript returns the judge transcript of j, before the call.
func newTranscript(j job, p *Prompt, cfg Config, req model.Request) *transcript.Transcript {
	a := j.answer
	return &transcript.Transcript{
		Kind:   transcript.KindJudge,
		RunID:  cmp.Or(cfg.RunID, a.RunID),
		Model:  j.judge,
		TaskID: a.TaskID,
		Class:  task.ClassA,
		Repeat: a.Repeat,
		Judged: &transcript.Ref{Model: a.Model, TaskID: a.TaskID, Repeat: a.Repeat, Hash: a.Hash},
		Hashes: transcript.Hashes{
			Prompt:   a.Hashes.Prompt,
			Task:     p.Hash,
			Document: j.task.Source.Hash,
		},
		Request:  transcript.RequestOf(req),
		Attempts: []transcript.Attempt{},
	}
}
