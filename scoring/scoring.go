// Package scoring is the score phase, the one path from archived
// transcripts to numbers: a fresh run and `harness rescore` both call
// Stream over the archive (Archive, ArchiveKnown; `harness score` calls
// Answer, the same scoring of one answer), so they cannot disagree. It is
// pure: a Score depends only on the task, the transcripts and the metric
// version — no clock, no network.
package scoring

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/safetext"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
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

	// Suite, Chain, Step, Rung and Position are the task's (task.Task):
	// where it stands in its suite, for grouping.
	Suite    string `json:"suite,omitempty"`
	Chain    string `json:"chain,omitempty"`
	Step     int    `json:"step,omitempty"`
	Rung     string `json:"rung,omitempty"`
	Position string `json:"position,omitempty"`
	// Format is the task's answer format ("" for the whole document).
	Format string `json:"format,omitempty"`
	// ApplyFailure, for an answer in a patch format that did not apply,
	// is the failing operation and why (the answer is invalid, drift 1).
	ApplyFailure *formats.Failure `json:"apply_failure,omitempty"`
	// AnswerBytes is the length of the answer's content in bytes.
	AnswerBytes int `json:"answer_bytes,omitempty"`
	// Rounds is how many feedback rounds were asked after the first
	// answer (--feedback): the score is the last round's answer, its
	// usage, latency and attempts those of every round added up. 0 when
	// the first answer is scored.
	Rounds int `json:"rounds,omitempty"`
	// FirstTry is what the first answer alone scored, in a run that asks
	// feedback rounds (Plan.Feedback > 0) for a class B/C answer; nil
	// otherwise.
	FirstTry *FirstTry `json:"first_try,omitempty"`

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

	Metric *metric.Result `json:"metric,omitempty"` // class B and C
	// Delta is, for a step whose task asks for it (task.Task.Delta: a
	// delegate round trip's end), what the output deleted, corrupted and
	// added against the expected document (metric.DeltaOf), the harness's
	// own; nil otherwise, and for an answer that holds no document.
	Delta  *metric.Delta        `json:"delta,omitempty"`
	Answer *metric.AnswerResult `json:"answer,omitempty"` // class A: the deterministic grounding
	Judge  *judge.Verdict       `json:"judge,omitempty"`  // class A: the judge panel

	// NotRun is set on a relay step that was never asked because its chain
	// ended earlier (an answer that held no document to hand on): it is
	// scored as an invalid answer, drift 1 (EndChains).
	NotRun bool `json:"not_run,omitempty"`

	// JudgeAPIErrors counts the judge calls on this answer that failed
	// (class A): the answer's votes are incomplete until a resume asks
	// them again. The report reads judge failures from here alone.
	JudgeAPIErrors int `json:"judge_api_errors,omitempty"`

	// ModelServed is the model the server said answered, set only when it
	// is another model than the one asked for (model.ServedAsAsked): the answer is
	// not evidence about the requested model (issue 32).
	ModelServed string `json:"model_served,omitempty"`
	// StreamChanged is what changed mid-stream in the answer's attempts
	// (transcript.Attempt.Changed): another served model or generation
	// id than the first chunk's (issue 53).
	StreamChanged []string `json:"stream_changed,omitempty"`

	Usage     transcript.Usage `json:"usage"`
	LatencyMS int64            `json:"latency_ms"`
	Attempts  int              `json:"attempts"`
}

// The values of Score.CutOff.
const (
	CutOffReasoning = "reasoning" // ran out of budget while reasoning
	CutOffOutput    = "output"    // the answer itself was truncated
)

// boundedUsage is an archived usage with a cost outside model.ValidCost
// and counts beyond model.MaxTokenCount taken out (named in Unread), as
// the client takes them out of a fresh response: an archive written before
// the client bounded them, or by another tool, cannot make a sum +Inf,
// negative or overflowing (issue 32).
func boundedUsage(u transcript.Usage) transcript.Usage {
	if u.Cost != nil && !model.ValidCost(*u.Cost) {
		u.Unread = append(slices.Clip(u.Unread), fmt.Sprintf("cost: %g", *u.Cost))
		u.Cost = nil
	}
	for _, c := range []struct {
		name string
		n    *int64
	}{{"prompt_tokens", &u.PromptTokens}, {"completion_tokens", &u.CompletionTokens}, {"cached_tokens", &u.CachedTokens}, {"reasoning_tokens", &u.ReasoningTokens}} {
		if *c.n < 0 || *c.n > model.MaxTokenCount {
			u.Unread = append(slices.Clip(u.Unread), fmt.Sprintf("%s: %d", c.name, *c.n))
			*c.n = 0
		}
	}
	return u
}

// servedOther returns served when it names another model than asked
// (model.ServedAsAsked, on the id alone), else "". Stream clears it when
// the plan's canonical slug of the model names it (Plan.Canonical).
func servedOther(asked, served string) string {
	if served == "" || model.ServedAsAsked(asked, "", served) {
		return ""
	}
	return served
}

// servedAsListed clears the served model of s's answer and of each of its
// judge votes (judge.Vote.ModelServed) that the listing's canonical slug
// of the model asked (canonical, Plan.Canonical) names as that model: it
// was served as asked. A model without a slug stays checked on its id
// alone.
func servedAsListed(s *Score, canonical map[string]string) {
	if c := canonical[s.Model]; c != "" && s.ModelServed != "" && model.ServedAsAsked(s.Model, c, s.ModelServed) {
		s.ModelServed = ""
	}
	if s.Judge == nil {
		return
	}
	for i := range s.Judge.Votes {
		v := &s.Judge.Votes[i]
		if c := canonical[v.Judge]; c != "" && v.ModelServed != "" && model.ServedAsAsked(v.Judge, c, v.ModelServed) {
			v.ModelServed = ""
		}
	}
}

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
	// Feedback is the most feedback rounds the run asked after a class
	// B/C answer that was not well-formed (--feedback); 0 is none.
	Feedback int
	// Canonical maps a model id to its listing's canonical_slug, as
	// run.json's policies recorded it: an answer or a judge vote served
	// under that slug is served as asked (model.ServedAsAsked). A model
	// without one is checked on its id alone.
	Canonical map[string]string
}

// Source gives the transcripts of one planned (model, task, repeat): its
// answer (nil when there is none) and the judge transcripts that may judge
// it (VerdictFrom keeps those that do).
type Source func(model, taskID string, repeat int) (answer *transcript.Transcript, votes []*transcript.Transcript, err error)

// Archive is a Source that reads a run directory's transcripts when they
// are asked for, verifying each (transcript.Read) and checking that it
// belongs to run runID and to the slot it sits in (transcript.CheckSlot):
// the answer at its TaskPath and, for each of judges, the vote at its
// JudgePath. A file that does not exist is absent; one that does not read
// back, verify or belong there is an error naming it and the slot.
func Archive(runDir, runID string, judges []string) Source {
	return ArchiveKnown(runDir, runID, judges, nil)
}

// ArchiveKnown is Archive, except that a transcript whose hash known holds
// (the run's runner just wrote or verified it) is not hashed again
// (transcript.ReadKnown); every other one is verified as Archive does.
func ArchiveKnown(runDir, runID string, judges []string, known *transcript.Known) Source {
	judges = slices.Sorted(slices.Values(judges))
	read := func(path string, slot transcript.Slot) (*transcript.Transcript, error) {
		t, err := transcript.ReadKnown(path, slot, known)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return t, err
	}
	return func(model, taskID string, repeat int) (*transcript.Transcript, []*transcript.Transcript, error) {
		slot := transcript.Slot{RunID: runID, Kind: transcript.KindTask, Model: model, TaskID: taskID, Repeat: repeat}
		answer, err := read(transcript.TaskPath(runDir, model, taskID, repeat), slot)
		if err != nil || answer == nil {
			return nil, nil, err
		}
		var votes []*transcript.Transcript
		for _, j := range judges {
			vs := transcript.Slot{RunID: runID, Kind: transcript.KindJudge, Model: j, TaskID: taskID, Repeat: repeat, Answerer: model}
			v, err := read(transcript.JudgePath(runDir, j, taskID, model, repeat), vs)
			if err != nil {
				return nil, nil, err
			}
			if v != nil {
				votes = append(votes, v)
			}
		}
		return answer, votes, nil
	}
}

// Stream scores every (model, task, repeat) of the plan from src, on as
// many cores as Go may use, and returns the scores sorted by model (in
// plan order), task id and repeat. each, when not nil, is called from the
// worker with the slot's index, its score and its Output (the answer
// transcript and the document it made), before they are dropped: only the
// scores are kept, so memory does not grow with the archive. The first error of src
// is returned.
func Stream(set *task.Set, plan Plan, src Source, w metric.Weights, each func(slot int, s *Score, out Output)) ([]Score, error) {
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
				slot := i
				g.Go(func() error {
					answer, votes, err := src(m, id, r)
					if err != nil {
						return err
					}
					var o Output
					out[slot], o = oneOutput(t, m, r, answer, votes, w)
					if plan.Feedback > 0 && t.Class != task.ClassA && answer != nil {
						if out[slot], o, err = scoreRounds(src, t, m, r, plan.Feedback, out[slot], o, w); err != nil {
							return err
						}
					}
					servedAsListed(&out[slot], plan.Canonical)
					if each != nil {
						each(slot, &out[slot], o)
					}
					return nil
				})
				i++
			}
		}
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	EndChains(out, set, w)
	return out, nil
}

// MaxAnswerSize is the largest answer scored: a document's own limit
// (bend.MaxSize, §3). A larger answer is archived whole and scored
// invalid, with the reason, rather than parsed.
const MaxAnswerSize = bend.MaxSize

// Output is what the score phase hands on beside a score (Stream's each):
// the answer transcript it scored and the document that answer made, so
// that a writer shows what the metric scored without applying a patch
// answer a second time (issue 47).
type Output struct {
	// Transcript is the answer transcript scored (the last feedback
	// round's); nil when missing.
	Transcript *transcript.Transcript
	// Document is the document the answer made, as the metric scored it:
	// a patch answer applied to the document the model was given, a
	// whole-document answer's content as it is; "" for a class A answer
	// and for an answer that made none (missing, failed, withheld, too
	// large, or a patch that does not apply).
	Document string
}

// oneOutput scores one answer transcript (nil when missing) with its
// judge transcripts, and says what it scored (Output). A panic while
// scoring the answer (the harness's own failure on a hostile answer) is
// recovered: the answer is scored as the empty answer is, invalid, with
// formats.Crashed's reason, so that one answer never crashes a run, a
// rescore or a resume (issue 45).
func oneOutput(t *task.Task, modelID string, repeat int, tr *transcript.Transcript, judges []*transcript.Transcript, w metric.Weights) (s Score, o Output) {
	defer func() {
		if p := recover(); p != nil {
			s, o = crashed(t, modelID, repeat, tr, w, p), Output{Transcript: tr}
		}
	}()
	return one(t, modelID, repeat, tr, judges, w)
}

// crashed is oneOutput's score of an answer whose scoring panicked with p.
func crashed(t *task.Task, modelID string, repeat int, tr *transcript.Transcript, w metric.Weights, p any) Score {
	s, _ := one(t, modelID, repeat, nil, nil, w)
	s.Status = StatusScored
	if tr != nil {
		s.TranscriptHash, s.Attempts = tr.Hash, len(tr.Attempts)
		s.Transcript = filepath.ToSlash(filepath.Join(transcript.Slug(modelID), filepath.Base(transcript.TaskPath("", modelID, t.ID, repeat))))
		if tr.Response != nil {
			s.Usage, s.LatencyMS, s.FinishReason = boundedUsage(tr.Response.Usage), tr.Response.LatencyMS, tr.Response.FinishReason
			s.AnswerBytes = len(tr.Response.Content)
		}
	}
	if t.Class == task.ClassA {
		a := metric.ScoreAnswer(t.Source.Doc, "")
		a.Reason = formats.Crashed(p)
		s.Answer = &a
		return s
	}
	res := metric.Score(t.Source.Doc, t.Expected, t.GoldEdit, "", w)
	res.Reason = formats.Crashed(p)
	s.Metric = &res
	return s
}

// one is oneOutput without the recovery.
func one(t *task.Task, modelID string, repeat int, tr *transcript.Transcript, judges []*transcript.Transcript, w metric.Weights) (Score, Output) {
	s := Score{Model: modelID, TaskID: t.ID, Class: t.Class, Document: t.DocumentName, Repeat: repeat,
		Suite: t.Suite, Chain: t.Chain, Step: t.Step, Rung: t.Rung, Position: t.Position, Format: t.Format}
	if tr == nil {
		s.Status = StatusMissing
		return s, Output{}
	}
	s.Transcript = filepath.ToSlash(filepath.Join(transcript.Slug(modelID), filepath.Base(transcript.TaskPath("", modelID, t.ID, repeat))))
	s.TranscriptHash = tr.Hash
	s.Attempts = len(tr.Attempts)
	for _, a := range tr.Attempts {
		s.StreamChanged = append(s.StreamChanged, a.Changed...)
	}
	if tr.Response != nil {
		s.Usage = boundedUsage(tr.Response.Usage)
		s.ModelServed = servedOther(tr.Request.Model, tr.Response.ModelServed)
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
		return s, Output{Transcript: tr}
	}
	s.Status = StatusScored
	content := tr.Response.Content
	s.AnswerBytes = len(content)
	// unscored is why the answer cannot be scored, when it says.
	unscored := refusal(tr.Response)
	if content == transcript.Withheld {
		unscored, content = "the answer was withheld: read in its answer format it spelled the API key", ""
	}
	if len(content) > MaxAnswerSize {
		// Archived in full, but no document can be this large (§3): it is
		// scored as the empty answer is, invalid, with the reason.
		unscored = fmt.Sprintf("the answer is %d bytes, over the %d-byte limit of a document (§3): too large to score", len(content), MaxAnswerSize)
		content = ""
	}
	if t.Class == task.ClassA {
		a := metric.ScoreAnswer(t.Source.Doc, content)
		if unscored != "" {
			a.Reason = unscored
		}
		s.Answer = &a
		v := judge.VerdictFrom(t, tr, judges)
		s.Judge = &v
		for _, vote := range v.Votes {
			if vote.APIError {
				s.JudgeAPIErrors++
			}
		}
		return s, Output{Transcript: tr}
	}
	var made string
	s.Metric, s.ApplyFailure, made = metricOf(t, tr, content, unscored, w)
	if t.Delta && unscored == "" && s.Metric.Valid {
		s.Delta = deltaOf(t, made)
	}
	return s, Output{Transcript: tr, Document: made}
}

// refusal says why an empty answer is empty when the response says so:
// the model's refusal (message.refusal, read from the archived body) or
// the provider's content filter; "" otherwise. A refusal showed as "the
// answer is empty" (issue 32).
func refusal(r *transcript.Response) string {
	if strings.TrimSpace(r.Content) != "" {
		return ""
	}
	var w struct {
		Choices []struct {
			Message struct {
				Refusal *string `json:"refusal"`
			} `json:"message"`
		} `json:"choices"`
	}
	if json.Unmarshal(r.RawBody, &w) == nil && len(w.Choices) > 0 {
		if why := w.Choices[0].Message.Refusal; why != nil && strings.TrimSpace(*why) != "" {
			return "the model refused: " + safetext.Cap(*why, 300)
		}
	}
	if r.FinishReason == "content_filter" {
		return "the provider's content filter withheld the answer (finish_reason content_filter)"
	}
	return ""
}

// metricOf scores a class B or C answer's content (Metric), given the
// document the model was given (Given), and returns the document the
// answer made (Output.Document); unscored, when set, is why the content
// was dropped.
func metricOf(t *task.Task, tr *transcript.Transcript, content, unscored string, w metric.Weights) (*metric.Result, *formats.Failure, string) {
	given, err := Given(t, tr)
	res, fail, made := metricMade(t, given, content, w)
	switch {
	case err != nil:
		res, fail, made = document(t, "", w), nil, ""
		res.Reason = "the document the step was given cannot be read back from its transcript: " + err.Error()
	case unscored != "":
		res.Reason, fail = unscored, nil
	}
	return &res, fail, made
}

// Answer scores a raw answer to any task as harness score prints it: a
// class A answer by its deterministic grounding checks (metric.ScoreAnswer:
// the judge's part needs a run), a class B or C answer by Metric.
func Answer(t *task.Task, raw string, w metric.Weights) any {
	if t.Class == task.ClassA {
		return metric.ScoreAnswer(t.Source.Doc, raw)
	}
	res, _ := Metric(t, t.Source.Bytes, raw, w)
	return res
}

// Metric scores a raw answer to a class B or C task of any kind and answer
// format. given is the document the model was given (the task's source,
// or for a relay step the document the step before returned). An answer
// in a patch format (t.Format) is first applied to given
// (formats.Format.Apply); one that does not apply is an invalid answer,
// drift 1, whose failure is returned with the operation and reason
// (metric.Result.Reason says it too). The output document is then scored
// as a whole-document answer is: a natural task's (its gold edit bound to
// the expected document's names, the output's new ids aligned) with
// metric.ScoreAligned, every other with metric.Score. A run, a rescore
// and `harness score` all score through it.
//
// A panic while scoring is recovered into an invalid result whose reason
// is formats.Crashed's, so that Check (a feedback round, in the runner's
// loop) and `harness score` survive one hostile answer as oneOutput does.
func Metric(t *task.Task, given []byte, raw string, w metric.Weights) (metric.Result, *formats.Failure) {
	res, fail, _ := metricMade(t, given, raw, w)
	return res, fail
}

// metricMade is Metric with the document the answer made: raw itself, or
// a patch answer applied to given ("" when it does not apply or scoring
// panicked). A patch is applied here once; the viewer shows this document
// (Output.Document) and the delta reads it.
func metricMade(t *task.Task, given []byte, raw string, w metric.Weights) (res metric.Result, fail *formats.Failure, made string) {
	defer func() {
		if p := recover(); p != nil {
			res, fail, made = metric.Score(t.Source.Doc, t.Expected, t.GoldEdit, "", w), nil, ""
			res.Reason = formats.Crashed(p)
		}
	}()
	if t.Format != "" {
		out, fail := apply(t.Format, given, raw)
		if fail != nil {
			res := document(t, "", w)
			res.Reason = fail.Error()
			return res, fail, ""
		}
		raw = string(out)
	}
	return document(t, raw, w), nil, raw
}

// apply applies an answer in format f to given.
func apply(f string, given []byte, raw string) ([]byte, *formats.Failure) {
	form := formats.Lookup(f)
	if form == nil {
		return nil, &formats.Failure{Kind: "not_format", Op: -1, Reason: fmt.Sprintf("unknown answer format %q", f)}
	}
	return form.Apply(given, raw)
}

// document scores a whole-document answer (Metric).
func document(t *task.Task, raw string, w metric.Weights) metric.Result {
	if len(t.Names) > 0 || len(edit.Placeholders(t.GoldEdit)) > 0 {
		// A natural task: the model names its new content itself.
		if ops, err := edit.Bind(t.GoldEdit, t.Names); err == nil {
			return metric.ScoreAligned(t.Source.Doc, t.Expected, ops, raw, w)
		}
	}
	return metric.Score(t.Source.Doc, t.Expected, t.GoldEdit, raw, w)
}

// Given is the document the model was given for t in answer transcript
// tr: the task's source, or for a relay step after the first in a patch
// format the document the step before returned, read back from the
// request's document part (the first JSON object of the user message)
// and checked against the hash the transcript recorded. Whole-document
// answers need no given document (nil).
func Given(t *task.Task, tr *transcript.Transcript) ([]byte, error) {
	if t.Format == "" || t.Show != nil {
		return nil, nil // a shown document (the projection) is not read back: the answer is the whole document
	}
	if t.Step <= 1 {
		return t.Source.Bytes, nil
	}
	if len(tr.Request.Messages) < 2 {
		return nil, errors.New("the request holds no user message")
	}
	u := tr.Request.Messages[1]
	text := u.Content
	if len(u.Parts) > 0 {
		text = u.Parts[0].Text
	}
	i := strings.IndexByte(text, '{')
	if i < 0 {
		return nil, errors.New("the request holds no document")
	}
	var doc json.RawMessage
	if err := json.NewDecoder(strings.NewReader(text[i:])).Decode(&doc); err != nil {
		return nil, fmt.Errorf("the request's document does not decode: %v", err)
	}
	for _, b := range [][]byte{doc, append(doc, '\n')} {
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) == tr.Hashes.Document {
			return b, nil
		}
	}
	return nil, errors.New("the request's document does not match the hash the transcript recorded")
}

// EndChains scores the steps of relay chains that ended: a chain is the
// steps (Score.Chain, Score.Step) of one model, chain, lane (task.Task.Lane:
// a relay's answer format) and repeat. After the
// first step whose answer held no document (an invalid metric result), the
// chain's later steps that have no transcript were never asked: each
// becomes NotRun, scored as the empty answer is (drift 1, invalid), with
// the reason. A later step that does have a transcript (it cannot, unless
// the archive was edited) is left as it is. Scores of no chain are
// untouched, so Stream calls it for every suite.
func EndChains(scores []Score, set *task.Set, w metric.Weights) {
	type key struct {
		model, chain, lane string
		repeat             int
	}
	lane := func(s *Score) string {
		if t := set.Task(s.TaskID); t != nil {
			return t.Lane
		}
		return s.Format
	}
	ended := map[key]int{} // the step whose answer ended the chain
	for i := range scores {
		s := &scores[i]
		if s.Step > 0 && s.Status == StatusScored && s.Metric != nil && !s.Metric.Valid {
			k := key{s.Model, s.Chain, lane(s), s.Repeat}
			if e, seen := ended[k]; !seen || s.Step < e {
				ended[k] = s.Step
			}
		}
	}
	for i := range scores {
		s := &scores[i]
		if s.Step == 0 {
			continue
		}
		e, seen := ended[key{s.Model, s.Chain, lane(s), s.Repeat}]
		if s.Step == 0 || !seen || s.Step <= e || s.Status != StatusMissing {
			continue
		}
		t := set.Task(s.TaskID)
		res := metric.Score(t.Source.Doc, t.Expected, t.GoldEdit, "", w)
		res.Reason = fmt.Sprintf("not run: the chain ended at step %d, whose answer held no document to hand on", e)
		s.Status, s.NotRun, s.Metric = StatusScored, true, &res
		zero := 0.0
		s.Usage.Cost = &zero
	}
}

// Compact is s holding only what the report is built from (aggregate):
// the numbers, counts and names, without the per-answer evidence that
// only the viewer's detail shows (the metric's operations, validation
// errors, diagnostics, alignment and text statistics; the grounding's
// answer, evidence and diagnostics; the judges' votes and cited ids, but
// for who served a vote another model than its judge served). The
// score phase keeps every score until the report is built, so a run of
// 48,000 answers held 2 KB of evidence for each (issue 55); it spools the
// whole score for the viewer (viewer.Spool.PutScore) and keeps this.
// s itself is not changed.
func (s Score) Compact() Score {
	if m := s.Metric; m != nil {
		c := *m
		c.Aligned, c.Ops, c.ValidationErrors, c.Text, c.Diagnostics = nil, nil, nil, nil, nil
		s.Metric = &c
	}
	if a := s.Answer; a != nil {
		c := *a
		c.Answer, c.Evidence, c.Unresolved, c.Diagnostics = "", nil, nil, nil
		s.Answer = &c
	}
	if j := s.Judge; j != nil {
		c := *j
		c.Votes, c.Grounding.Evidence, c.Grounding.InvalidEvidence = servedVotes(j.Votes), nil, nil
		s.Judge = &c
	}
	return s
}

// servedVotes are the votes of votes another model than their judge
// served (judge.Vote.ModelServed), with their judge and that model alone:
// what the report reads of the votes (aggregate's eligibility and
// warnings); nil when there is none, as there mostly is.
func servedVotes(votes []judge.Vote) []judge.Vote {
	var out []judge.Vote
	for _, v := range votes {
		if v.ModelServed != "" {
			out = append(out, judge.Vote{Judge: v.Judge, ModelServed: v.ModelServed})
		}
	}
	return out
}
