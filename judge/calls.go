package judge

import (
	"cmp"
	"slices"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Config is how the judges of a run are asked.
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
	// MaxTokens caps each judge reply; 0 leaves it to the provider.
	MaxTokens int `json:"max_tokens,omitempty"`
	// Unstructured lists judges whose provider rejects structured output:
	// they get the prompt alone, and ParseVote reads whatever they reply.
	Unstructured []string `json:"unstructured,omitempty"`
	// Lacking lists, per judge, the determinism controls ("temperature",
	// "seed") it does not support: they are not sent.
	Lacking map[string][]string `json:"lacking,omitempty"`
	// Prompt is the judge template; nil means DefaultPrompt.
	Prompt *Prompt `json:"-"`
	// Policies are, per judge, its request policy (temperature, seed,
	// reasoning, provider pin, the votes' budget JudgeMaxTokens), applied
	// to every vote; a judge without one is asked with MaxTokens and the
	// prompt's own temperature and seed.
	Policies map[string]model.Policy `json:"-"`
}

func (c Config) prompt() *Prompt {
	if c.Prompt != nil {
		return c.Prompt
	}
	return DefaultPrompt()
}

// Call is one judge's vote to ask for: the request, and the judge
// transcript's record before the call. The caller sends it (the runner) and
// archives the transcript; VerdictFrom reads the votes back.
type Call struct {
	Judge   string
	Request model.Request
	Record  transcript.Transcript
}

// Voters are the judges to ask about answer, a transcript of task t: the
// judges of Panel(answer.Model, c.Gating, c.Fixed), sorted. An answer that
// is not a class A answer with a response needs no vote, and neither does
// a response that is not the requested answer object (VerdictFrom decides
// it unfaithful without judges): nil.
func (c Config) Voters(t *task.Task, answer *transcript.Transcript) []string {
	if t.Class != task.ClassA || answer.Kind != transcript.KindTask || !answer.OK() {
		return nil
	}
	if !metric.ScoreAnswer(t.Source.Doc, answer.Response.Content).Valid {
		return nil
	}
	return slices.Sorted(slices.Values(Panel(answer.Model, c.Gating, c.Fixed)))
}

// CallOn is judgeModel's vote on answer, one of its Voters. It reads of
// answer only its ids, hashes and response content.
func (c Config) CallOn(t *task.Task, answer *transcript.Transcript, judgeModel string) Call {
	p := c.prompt()
	req := BuildRequest(t, answer.Response.Content, judgeModel, c.Seed+int64(answer.Repeat), p)
	req.MaxTokens = c.MaxTokens
	if pol, ok := c.Policies[judgeModel]; ok {
		pol.Apply(&req, answer.Repeat)
		req.MaxTokens = pol.JudgeMaxTokens
		// A judge's votes on one document share a session, as a model's
		// answers do: they share the document's prefix.
		req.SessionID = model.SessionID(cmp.Or(c.RunID, answer.RunID), judgeModel, t.DocumentName)
	}
	if slices.Contains(c.Unstructured, judgeModel) {
		req.JSONSchema, req.SchemaName = nil, ""
	}
	if slices.Contains(c.Lacking[judgeModel], "temperature") {
		req.Temperature = nil
	}
	if slices.Contains(c.Lacking[judgeModel], "seed") {
		req.Seed = nil
	}
	rec := c.Record(t, answer, judgeModel)
	rec.Request = transcript.RequestOf(req)
	return Call{Judge: judgeModel, Request: req, Record: rec}
}

// Record is the judge transcript of judgeModel's vote on answer before
// the call, without its request (CallOn adds it): what names the vote and
// its inputs.
func (c Config) Record(t *task.Task, answer *transcript.Transcript, judgeModel string) transcript.Transcript {
	return transcript.Transcript{
		Kind:   transcript.KindJudge,
		RunID:  cmp.Or(c.RunID, answer.RunID),
		Model:  judgeModel,
		TaskID: answer.TaskID,
		Class:  task.ClassA,
		Repeat: answer.Repeat,
		Judged: &transcript.Ref{Model: answer.Model, TaskID: answer.TaskID, Repeat: answer.Repeat, Hash: answer.Hash},
		Hashes: transcript.Hashes{
			Prompt:   answer.Hashes.Prompt,
			Task:     c.prompt().Hash,
			Document: t.Source.Hash,
		},
		Attempts: []transcript.Attempt{},
	}
}

// Current reports whether an archived judge transcript may stand for a
// vote on answer (resume): it judges the same answer (same hash) with the
// same template. A vote on an answer that changed is asked again.
func (c Config) Current(archived, answer *transcript.Transcript) bool {
	r := archived.Judged
	return archived.Kind == transcript.KindJudge && r != nil &&
		r.Model == answer.Model && r.Hash == answer.Hash && archived.Hashes.Task == c.prompt().Hash
}
