// Package scoring is the score phase, the one path from archived
// transcripts to numbers: a fresh run and `harness rescore` both call Run,
// so they cannot disagree. It is pure: a Score depends only on the task, the
// transcripts and the metric version — no clock, no network.
package scoring

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"

	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"golang.org/x/sync/errgroup"
)

// Status of a score.
const (
	StatusScored   = "scored"    // the model answered; the answer is scored
	StatusAPIError = "api_error" // the call failed; counted, never scored as drift
	StatusMissing  = "missing"   // no transcript (an interrupted run)
)

// Score is the score of one (model, task, repeat).
type Score struct {
	Model    string `json:"model"`
	TaskID   string `json:"task_id"`
	Class    string `json:"class"`
	Document string `json:"document"`
	Repeat   int    `json:"repeat"`
	Status   string `json:"status"`

	// Transcript is the transcript's path relative to the run directory,
	// and TranscriptHash its content hash.
	Transcript     string `json:"transcript,omitempty"`
	TranscriptHash string `json:"transcript_hash,omitempty"`

	Error        *transcript.CallError `json:"error,omitempty"`         // StatusAPIError
	FinishReason string                `json:"finish_reason,omitempty"` // as the provider reported it
	// Provider is the upstream that served the answer ("" when unknown).
	Provider string `json:"provider,omitempty"`
	// CutOff says why an answer stopped at the output budget
	// (finish_reason "length"): CutOffReasoning when the budget went to
	// reasoning (model.ReasoningExhausted's rule), CutOffOutput when the
	// answer itself was truncated; "" when it was not cut off.
	CutOff string `json:"cut_off,omitempty"`

	Metric *metric.Result       `json:"metric,omitempty"` // class B and C
	Answer *metric.AnswerResult `json:"answer,omitempty"` // class A: the deterministic grounding
	Judge  *judge.Verdict       `json:"judge,omitempty"`  // class A: the judge panel

	// JudgeAPIErrors counts the judge calls on this answer that failed
	// (class A): the answer's votes are incomplete until a resume asks
	// them again. The report reads judge failures from here alone.
	JudgeAPIErrors int `json:"judge_api_errors,omitempty"`

	Usage     transcript.Usage `json:"usage"`
	LatencyMS int64            `json:"latency_ms"`
	Attempts  int              `json:"attempts"`
}

// The values of Score.CutOff.
const (
	CutOffReasoning = "reasoning" // ran out of budget while reasoning
	CutOffOutput    = "output"    // the answer itself was truncated
)

// cutOff applies model.ReasoningExhausted's rule to an archived response.
func cutOff(r *transcript.Response) string {
	if r == nil || r.FinishReason != "length" {
		return ""
	}
	mr := model.Response{FinishReason: r.FinishReason, Content: r.Content,
		Usage: model.Usage{CompletionTokens: r.Usage.CompletionTokens, ReasoningTokens: r.Usage.ReasoningTokens}}
	if mr.ReasoningExhausted() {
		return CutOffReasoning
	}
	return CutOffOutput
}

// Drift returns the drift of a scored class B/C answer.
func (s *Score) Drift() (float64, bool) {
	if s.Status != StatusScored || s.Metric == nil {
		return 0, false
	}
	return s.Metric.Drift, true
}

// Faithful returns the judges' verdict on a scored class A answer.
func (s *Score) Faithful() (bool, bool) {
	if s.Status != StatusScored || s.Judge == nil {
		return false, false
	}
	return s.Judge.Faithful, true
}

// Plan says which scores a run should have.
type Plan struct {
	Models  []string
	TaskIDs []string
	Repeats int
}

// Run scores every (model, task, repeat) of the plan from the transcripts,
// on as many cores as Go may use:
// task transcripts and the judge transcripts of class A answers. The result
// is sorted by model (in plan order), task id and repeat.
func Run(set *task.Set, plan Plan, transcripts []*transcript.Transcript, w metric.Weights) ([]Score, error) {
	type key struct {
		model, task string
		repeat      int
	}
	answers := map[key]*transcript.Transcript{}
	judged := map[key][]*transcript.Transcript{}
	for _, t := range transcripts {
		switch t.Kind {
		case transcript.KindTask:
			answers[key{t.Model, t.TaskID, t.Repeat}] = t
		case transcript.KindJudge:
			if t.Judged != nil {
				k := key{t.Judged.Model, t.Judged.TaskID, t.Judged.Repeat}
				judged[k] = append(judged[k], t)
			}
		}
	}
	for _, js := range judged {
		sort.Slice(js, func(i, j int) bool { return js[i].Model < js[j].Model })
	}
	for _, id := range plan.TaskIDs {
		if set.Task(id) == nil {
			return nil, fmt.Errorf("the run names task %q, which the task set does not have", id)
		}
	}
	// Each score goes into its own slot, so the order is the plan's
	// whatever the order the workers finish in.
	out := make([]Score, len(plan.Models)*len(plan.TaskIDs)*plan.Repeats)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	i := 0
	for _, m := range plan.Models {
		for _, id := range plan.TaskIDs {
			t := set.Task(id)
			for r := 0; r < plan.Repeats; r++ {
				slot, k := i, key{m, id, r}
				g.Go(func() error {
					out[slot] = One(t, m, r, answers[k], judged[k], w)
					return nil
				})
				i++
			}
		}
	}
	g.Wait()
	return out, nil
}

// One scores one answer transcript (nil when missing) with its judge
// transcripts.
func One(t *task.Task, modelID string, repeat int, tr *transcript.Transcript, judges []*transcript.Transcript, w metric.Weights) Score {
	s := Score{Model: modelID, TaskID: t.ID, Class: t.Class, Document: t.DocumentName, Repeat: repeat}
	if tr == nil {
		s.Status = StatusMissing
		return s
	}
	s.Transcript = filepath.ToSlash(filepath.Join(transcript.Slug(modelID), filepath.Base(transcript.TaskPath("", modelID, t.ID, repeat))))
	s.TranscriptHash = tr.Hash
	s.Attempts = len(tr.Attempts)
	if tr.Response != nil {
		s.Usage = tr.Response.Usage
		s.LatencyMS = tr.Response.LatencyMS
		s.FinishReason = tr.Response.FinishReason
		s.Provider = tr.Response.Provider
		s.CutOff = cutOff(tr.Response)
	}
	if !tr.OK() {
		s.Status = StatusAPIError
		s.Error = tr.Error
		if len(tr.Attempts) == 0 && tr.Response == nil {
			// Never sent (skipped after a fatal error of the model): it
			// cost nothing, which is known, not unknown.
			zero := 0.0
			s.Usage.Cost = &zero
		}
		return s
	}
	s.Status = StatusScored
	if t.Class == task.ClassA {
		a := metric.ScoreAnswer(t.Source.Doc, tr.Response.Content)
		s.Answer = &a
		v := judge.VerdictFrom(t, tr, judges)
		s.Judge = &v
		for _, vote := range v.Votes {
			if vote.APIError {
				s.JudgeAPIErrors++
			}
		}
		return s
	}
	res := metric.Score(t.Source.Doc, t.Expected, t.GoldEdit, tr.Response.Content, w)
	s.Metric = &res
	return s
}
