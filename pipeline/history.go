package pipeline

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// The estimate learned from the archive: what earlier runs in the runs
// directory measured per model and task (docs/running.md, "How the
// estimate is made"). An earlier run counts for a model when it asked the
// same prompts or the same suite, and the model's recorded request policy
// asked for the same reasoning and output budget as now: a run at another
// effort measures another spend. Only answers with a response count, and
// only tokens a provider counted (an offline model's estimates do not).

// HistoryRuns is how many earlier runs, the most recent first, the
// estimate reads per model: enough to average a night's draw of reasoning
// lengths, few enough that a runs directory of a hundred nights is not
// read whole before every run.
const HistoryRuns = 3

// HistoryRepeats is how many repeats of each task an earlier run's
// measure reads: an edited run.json cannot make the preflight read
// without end.
const HistoryRepeats = 10

// measure sums what n earlier answers (or votes) used.
type measure struct {
	n                                              int
	prompt, cached, written, completion, reasoning int64
}

// add counts one answer's usage.
func (m *measure) add(u transcript.Usage) {
	m.n++
	m.prompt += u.PromptTokens
	m.cached += u.CachedTokens
	m.written += u.CacheWriteTokens
	m.completion += u.CompletionTokens
	m.reasoning += u.ReasoningTokens
}

// mean is one answer's usage on average: the sums divided by n.
func (m measure) mean() measure {
	n := int64(max(m.n, 1))
	return measure{n: m.n, prompt: m.prompt / n, cached: m.cached / n, written: m.written / n, completion: m.completion / n, reasoning: m.reasoning / n}
}

// history is what earlier runs measured: per answering model and task id
// its answers' usage, per judge its votes' usage, and per model the runs
// they were read from (most recent first).
type history struct {
	answers map[string]map[string]*measure
	votes   map[string]*measure
	runs    map[string][]string
}

// answer is the measure of job j's model and task, nil when no earlier
// run measured it: a judge vote's is its judge's over every vote.
func (h *history) answer(j runner.Job) *measure {
	if h == nil {
		return nil
	}
	if j.Record.Kind == transcript.KindJudge {
		return h.vote(j.Model)
	}
	return h.answers[j.Model][j.Record.TaskID]
}

// vote is judge jm's measure over its earlier votes, nil when none.
func (h *history) vote(jm string) *measure {
	if h == nil {
		return nil
	}
	return h.votes[jm]
}

// runsOf are the earlier runs model m was measured in, most recent first.
func (h *history) runsOf(m string) []string {
	if h == nil {
		return nil
	}
	return h.runs[m]
}

// readHistory reads the runs in o.OutDir (the run being resumed aside)
// that asked the same prompts or the same suite, most recent first, and
// keeps per online model the measures of at most HistoryRuns of them whose
// recorded policy for it matches policies. A run directory that does not
// read is passed over: the history only sharpens an estimate.
func readHistory(o Options, p *plan, policies map[string]model.Policy) *history {
	h := &history{answers: map[string]map[string]*measure{}, votes: map[string]*measure{}, runs: map[string][]string{}}
	entries, err := os.ReadDir(o.OutDir)
	if err != nil {
		return h
	}
	promptHash := o.Prompts.HashFor(o.Inputs.Formats)
	type earlier struct {
		dir string
		m   *transcript.Manifest
	}
	var runs []earlier
	for _, e := range entries {
		dir := filepath.Join(o.OutDir, e.Name())
		if !e.IsDir() || o.ResumeDir != "" && sameDir(dir, o.ResumeDir) {
			continue
		}
		m, err := transcript.ReadManifest(dir)
		if err != nil || m.PromptHash != promptHash && suites.Of(m.Inputs.Suite).Name != p.suite.Name {
			continue
		}
		runs = append(runs, earlier{dir, m})
	}
	slices.SortFunc(runs, func(a, b earlier) int {
		return cmp.Or(b.m.StartedAt.Compare(a.m.StartedAt), cmp.Compare(b.m.RunID, a.m.RunID))
	})
	for _, r := range runs {
		for mod, pol := range policies {
			if len(h.runs[mod]) >= HistoryRuns {
				continue
			}
			rec, ok := r.m.Policies[mod]
			if !ok {
				continue
			}
			n := 0
			if slices.Contains(r.m.Models, mod) && sameSpend(rec.Sent, pol, false) {
				n += h.readAnswers(r.dir, r.m, mod, p)
			}
			if slices.Contains(p.judges, mod) && slices.Contains(r.m.Judges, mod) && sameSpend(rec.Sent, pol, true) {
				n += h.readVotes(r.dir, r.m, mod, p, o.Config.Models)
			}
			if n > 0 {
				h.runs[mod] = append(h.runs[mod], r.m.RunID)
			}
		}
	}
	return h
}

// readAnswers adds model mod's answers in the run at dir, and returns how
// many it read.
func (h *history) readAnswers(dir string, m *transcript.Manifest, mod string, p *plan) int {
	n := 0
	for _, id := range wanted(m, p, false) {
		for r := range min(m.Repeats, HistoryRepeats) {
			u, ok := measured(transcript.TaskPath(dir, mod, id, r))
			if !ok {
				continue
			}
			if h.answers[mod] == nil {
				h.answers[mod] = map[string]*measure{}
			}
			if h.answers[mod][id] == nil {
				h.answers[mod][id] = &measure{}
			}
			h.answers[mod][id].add(u)
			n++
		}
	}
	return n
}

// readVotes adds judge jm's votes in the run at dir, and returns how many
// it read.
func (h *history) readVotes(dir string, m *transcript.Manifest, jm string, p *plan, answering []string) int {
	n := 0
	for _, id := range wanted(m, p, true) {
		for _, a := range m.Models {
			if !slices.Contains(answering, a) {
				continue
			}
			for r := range min(m.Repeats, HistoryRepeats) {
				u, ok := measured(transcript.JudgePath(dir, jm, id, a, r))
				if !ok {
					continue
				}
				if h.votes[jm] == nil {
					h.votes[jm] = &measure{}
				}
				h.votes[jm].add(u)
				n++
			}
		}
	}
	return n
}

// wanted are the tasks of an earlier run's manifest m that this run plans
// (p), class A only for votes: the files read are bounded by this run's
// plan, whatever an edited run.json lists.
func wanted(m *transcript.Manifest, p *plan, votes bool) []string {
	asked := make(map[string]bool, len(m.TaskIDs))
	for _, id := range m.TaskIDs {
		asked[id] = true
	}
	var ids []string
	for _, t := range p.tasks {
		if (!votes || t.Class == task.ClassA) && asked[t.ID] {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// measured is the usage of the answer at path, when it has a response,
// no error, and tokens a provider counted. Only the usage is decoded and
// the transcript's hash is not checked: an estimate needs no
// tamper-evidence, and reading three earlier nights whole (hashing every
// transcript) took seconds before every run (BenchmarkReadHistory).
func measured(path string) (transcript.Usage, bool) {
	b, err := regularfile.Read(path, transcript.MaxSize)
	if err != nil {
		return transcript.Usage{}, false
	}
	var t struct {
		Error    json.RawMessage `json:"error"`
		Response *struct {
			Usage transcript.Usage `json:"usage"`
		} `json:"response"`
	}
	if json.Unmarshal(b, &t) != nil || t.Response == nil || len(t.Error) > 0 && string(t.Error) != "null" {
		return transcript.Usage{}, false
	}
	u := t.Response.Usage
	if u.Estimated || u.PromptTokens <= 0 || u.CompletionTokens < 0 || u.ReasoningTokens < 0 || u.CachedTokens < 0 || u.CacheWriteTokens < 0 {
		return transcript.Usage{}, false
	}
	return u, true
}

// sameSpend reports whether two policies ask a model to spend alike: the
// same reasoning object and the same output budget (the votes' for a
// judge).
func sameSpend(a, b model.Policy, vote bool) bool {
	ra, _ := json.Marshal(a.Reasoning)
	rb, _ := json.Marshal(b.Reasoning)
	if vote {
		return string(ra) == string(rb) && a.JudgeMaxTokens == b.JudgeMaxTokens
	}
	return string(ra) == string(rb) && a.MaxTokens == b.MaxTokens
}

// basis says what an estimate of planned jobs of which learned were
// estimated from from earlier answers (or votes: noun) stands on, and the
// runs they were read from.
func basis(planned, learned, from int, noun string, runs []string) string {
	if learned == 0 {
		return "listing assumption"
	}
	s := fmt.Sprintf("from %d earlier %s (%s %s)", from, noun, unitRuns(len(runs)), strings.Join(runs, ", "))
	if learned < planned {
		s += fmt.Sprintf(" for %d of %d jobs, the listing assumption for the rest", learned, planned)
	}
	return s
}

// unitRuns is "run" or "runs".
func unitRuns(n int) string {
	if n == 1 {
		return "run"
	}
	return "runs"
}

// sameDir reports whether two directory names are one directory, as
// their absolute, cleaned paths.
func sameDir(a, b string) bool {
	a, errA := filepath.Abs(a)
	b, errB := filepath.Abs(b)
	return errA == nil && errB == nil && a == b
}
