// Package scoringtest makes hand-made score sets for the tests of the
// report and its writers (Synthetic, SizeRun, RelayRun), whose golden
// reports change only when the report does. It returns a run's parts
// (Run), which each package's tests make their input from; runs of the
// real offline pipeline are pipelinetest's.
package scoringtest

import (
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// Run is what a report is built from, and what the viewer shows beside
// it.
type Run struct {
	Manifest    *transcript.Manifest
	Config      *config.Config
	Scores      []scoring.Score
	Set         *task.Set
	Transcripts []*transcript.Transcript
	// Answers are what the score phase handed on beside each score
	// (scoring.Output), slot i Scores[i]'s; nil when the run was not
	// scored from transcripts.
	Answers []scoring.Output
}

var (
	T0 = time.Date(2026, 4, 27, 15, 30, 0, 0, time.UTC)
	T1 = time.Date(2026, 4, 27, 16, 45, 12, 0, time.UTC)
)

// Synthetic describes a hand-made run: no metric, no judge, no corpus, so
// that the golden reports change only when the report does.
type Synthetic struct {
	Models  []string
	Repeats int
	// judgeNoise splits some panels and turns some votes into errors.
	JudgeNoise bool
	// answer returns one answer's drift (B, C; 1 makes it invalid), the
	// judges' decision (A) and its status (scored, api_error, missing).
	Answer func(model, taskID string, repeat int) (drift float64, faithful bool, status string)
	// loses, when not nil, says what a valid B/C answer lost beside the
	// drift: its residual component and its unrequested changes.
	Loses func(model, taskID string) (residual float64, unrequested int)
}

// TaskIDs are the 60 task ids of a gating run.
func TaskIDs() []string {
	var ids []string
	for d := 1; d <= 20; d++ {
		for _, c := range []string{"a", "b", "c"} {
			ids = append(ids, fmt.Sprintf("%02d-%s", d, c))
		}
	}
	return ids
}

// Jitter is a deterministic number in [0, 1) from its arguments.
func Jitter(args ...any) float64 {
	h := fnv.New64a()
	fmt.Fprint(h, args...)
	return float64(h.Sum64()%10000) / 10000
}

func (s Synthetic) Run() Run {
	cfg := config.Default()
	cfg.Models, cfg.Repeats = s.Models, s.Repeats
	cfg.Judges = config.Judges{Models: []string{"offline/judge"}}
	fin := T1
	m := &transcript.Manifest{
		Schema: transcript.SchemaVersion, RunID: "synthetic", HarnessVersion: "0.1.0",
		Models: s.Models, Judges: []string{"judge/one", "judge/three", "judge/two"}, Repeats: s.Repeats, Seed: 20260427,
		TaskIDs: TaskIDs(), CorpusHash: "c0ffee" + strings.Repeat("0", 58), PromptHash: "beef" + strings.Repeat("1", 60),
		ConfigHash: cfg.Hash(), Config: cfg.JSON(), StartedAt: T0, FinishedAt: &fin,
		Determinism: map[string]transcript.Determinism{},
	}
	// The real families' controls: Claude lacks seed, GPT-5 lacks
	// temperature, Gemini has both; other models unchecked.
	for _, model := range s.Models {
		d := transcript.Determinism{Honoured: []string{"temperature", "seed"}, Lacking: []string{}, Source: transcript.DeterminismListing}
		switch {
		case strings.HasPrefix(model, "anthropic/"):
			d.Honoured, d.Lacking = []string{"temperature"}, []string{"seed"}
		case strings.HasPrefix(model, "openai/"):
			d.Honoured, d.Lacking = []string{"seed"}, []string{"temperature"}
		case !strings.HasPrefix(model, "google/"):
			d.Source = transcript.DeterminismUnchecked
		}
		m.Determinism[model] = d
	}
	var scores []scoring.Score
	for _, model := range s.Models {
		for _, id := range TaskIDs() {
			for r := range s.Repeats {
				scores = append(scores, s.Score(model, id, r))
			}
		}
	}
	return Run{Manifest: m, Config: cfg, Scores: scores}
}

func (s Synthetic) Score(model, id string, r int) scoring.Score {
	class := strings.ToUpper(id[3:])
	sc := scoring.Score{Model: model, TaskID: id, Class: class, Document: id[:2] + "-doc.bend.json", Repeat: r}
	drift, faithful, status := s.Answer(model, id, r)
	sc.Status = status
	if status == scoring.StatusMissing {
		return sc
	}
	sc.Transcript = fmt.Sprintf("%s/%s.r%d.json", transcript.Slug(model), id, r)
	sc.TranscriptHash = fmt.Sprintf("%064x", int(Jitter(model, id, r)*1e6))
	cost := 0.001 * float64(1+int(Jitter("cost", model, id)*10))
	sc.Usage = transcript.Usage{PromptTokens: 2000 + int64(Jitter("p", model, id)*1000), CompletionTokens: 500 + int64(Jitter("c", model, id, r)*500), Cost: &cost}
	sc.LatencyMS = 800 + int64(Jitter("l", model, id, r)*4000)
	sc.Attempts = 1
	sc.Provider = strings.SplitN(model, "/", 2)[0]
	if strings.HasPrefix(model, "google/") && Jitter("provider", model, id, r) < 0.1 {
		sc.Provider = "google-ai-studio" // a second provider: the report warns
	}
	if Jitter("cutoff", model, id, r) < 0.03 {
		sc.CutOff = scoring.CutOffReasoning
	}
	if status == scoring.StatusAPIError {
		sc.Error = &transcript.CallError{Status: 503, Message: "upstream unavailable"}
		sc.Usage = transcript.Usage{}
		sc.LatencyMS = 0
		return sc
	}
	if class == task.ClassA {
		sc.Answer = &metric.AnswerResult{MetricVersion: metric.Version, Valid: drift < 1, Answer: "…", Evidence: []string{"blk-1"}, Unresolved: []string{}, EvidenceResolved: 1}
		f := faithful
		votes := []judge.Vote{
			{Judge: "judge/one", Faithful: &f, Grounded: true},
			{Judge: "judge/three", Faithful: &f, Grounded: true},
			{Judge: "judge/two", Faithful: &f, Grounded: true},
		}
		if s.JudgeNoise && Jitter("split", model, id, r) < 0.1 {
			g := !f
			votes[1].Faithful = &g
		}
		if s.JudgeNoise && Jitter("err", model, id, r) < 0.05 {
			votes[2] = judge.Vote{Judge: "judge/two", Error: "the judge's reply is not a vote"}
		}
		if s.JudgeNoise && Jitter("ungrounded", model, id, r) < 0.03 {
			votes[0].Grounded = false
			votes[0].UngroundedQuotes = []string{"a quote from nowhere"}
		}
		v := judge.Decide(votes)
		sc.Judge = &v
		return sc
	}
	c := metric.Components{
		BlockStructure: drift, EdgePreservation: drift / 2, SpanCoverage: drift * 1.5, MarkFidelity: 0, VocabularyIntegrity: drift / 4,
	}
	w := metric.DefaultWeights()
	sc.Metric = &metric.Result{
		MetricVersion: metric.Version, Valid: drift < 1, Extraction: "bare", Drift: drift, Components: c, Weights: w,
		EditApplied: drift < 0.1, EditCompliance: 1 - drift, IDStatus: "kept", SchemaValid: true,
		ValidationErrors: []string{}, Diagnostics: []metric.Diagnostic{},
		Lossless: drift == 0, Residual: 1,
	}
	if drift < 1 {
		n := 0
		sc.Metric.Residual, sc.Metric.UnrequestedChanges = 0, &n
		if s.Loses != nil {
			sc.Metric.Residual, n = s.Loses(model, id)
			sc.Metric.Lossless = sc.Metric.Lossless && n == 0 && sc.Metric.Residual == 0
		}
	}
	return sc
}

// PassingRun: three models well inside every Threshold, one repeat.
var PassingRun = Synthetic{
	Models:     []string{"anthropic/claude-opus-4.8", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"},
	Repeats:    1,
	JudgeNoise: true,
	Answer: func(model, id string, r int) (float64, bool, string) {
		return 0.04 * Jitter(model, id, r), Jitter("f", model, id) < 0.97, scoring.StatusScored
	},
}

// FailingRun: three repeats; one model over the class B thresholds and
// below faithfulness, one with missing transcripts and API errors.
var FailingRun = Synthetic{
	Models:     []string{"vendor/steady", "vendor/drifty", "vendor/flaky"},
	Repeats:    3,
	JudgeNoise: true,
	Answer: func(model, id string, r int) (float64, bool, string) {
		d := 0.04 * Jitter(model, id, r)
		faithful := Jitter("f", model, id, r) < 0.95
		status := scoring.StatusScored
		switch model {
		case "vendor/drifty":
			d = 0.3 * Jitter(model, id, r)
			faithful = Jitter("f", model, id, r) < 0.7
			if id == "07-b" && r == 1 {
				d = 1 // an invalid output
			}
		case "vendor/flaky":
			switch {
			case id >= "19" && r == 2:
				status = scoring.StatusMissing
			case id == "04-c" && r == 0:
				status = scoring.StatusAPIError
			}
		}
		return d, faithful, status
	},
}

// SizeRun is a hand-made size-ladder run of two models (4 rungs × 3
// positions × classes B and C): no corpus, so that the pages' plots can be
// looked at without running the suite.
func SizeRun() Run {
	var tasks []placed
	for _, rung := range []string{"8k", "32k", "128k", "512k"} {
		for _, pos := range []string{"start", "middle", "end"} {
			for _, c := range []string{"b", "c"} {
				tasks = append(tasks, placed{id: rung + "-" + pos + "-" + c, class: strings.ToUpper(c), place: func(sc *scoring.Score) {
					sc.Rung, sc.Position = rung, pos
				}})
			}
		}
	}
	return suiteRun(suites.Size, tasks)
}

// RelayRun is a hand-made relay run of two models (20 chains of 8 steps),
// whose drift grows with the step.
func RelayRun() Run {
	var tasks []placed
	for d := 1; d <= 20; d++ {
		for step := 1; step <= 8; step++ {
			tasks = append(tasks, placed{id: fmt.Sprintf("%02d-s%02d", d, step), class: relay.EditAt(step)[:1], place: func(sc *scoring.Score) {
				sc.Chain, sc.Step = fmt.Sprintf("%02d", d), step
			}})
		}
	}
	return suiteRun(suites.Relay, tasks)
}

// placed is a task of a hand-made suite run: its id, class and where it
// stands in its suite.
type placed struct {
	id, class string
	place     func(*scoring.Score)
}

// suiteRun is a hand-made run of two models over tasks of a suite.
func suiteRun(suite string, tasks []placed) Run {
	s := Synthetic{Models: []string{"vendor/steady", "vendor/drifty"}, Repeats: 1,
		Answer: func(model, id string, r int) (float64, bool, string) {
			scale := 0.02
			if _, step, ok := strings.Cut(id, "-s"); ok {
				n, _ := strconv.Atoi(step)
				scale *= float64(n)
			}
			if model == "vendor/drifty" {
				scale *= 6
			}
			return math.Min(0.99, scale*Jitter(model, id, r)), true, scoring.StatusScored
		}}
	in := s.Run()
	in.Manifest.TaskIDs, in.Manifest.Inputs.Suite, in.Scores = nil, suite, nil
	for _, t := range tasks {
		in.Manifest.TaskIDs = append(in.Manifest.TaskIDs, t.id)
	}
	for _, model := range s.Models {
		for _, t := range tasks {
			sc := s.Score(model, t.id, 0)
			sc.Class, sc.Suite = t.class, suite
			t.place(&sc)
			in.Scores = append(in.Scores, sc)
		}
	}
	return in
}
