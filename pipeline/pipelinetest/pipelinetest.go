// Package pipelinetest runs the real offline pipeline for the tests of the
// report and its writers (Pipeline, OracleNoisyRun): the runner with
// offline models (and extra clients such as Evil) on the schedule
// pipeline.Run sets (jobs.Answers, then jobs.JudgeVotes), the offline
// judge, and the score phase's scoring (scoring.Stream over
// scoring.Archive, as rescore reads a run). There is no second way to make
// a run or to score one. It returns the run's parts as scoringtest.Run.
package pipelinetest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/transcript/transcripttest"
)

// Run is scoringtest's: what a report is built from.
type Run = scoringtest.Run

// Pipeline runs the real offline Pipeline on the embedded corpus: the
// runner with offline models (and extra clients), the offline judge, and
// the score phase. It returns the Input harness run would build, and the
// run directory.
func Pipeline(t testing.TB, models []string, extra map[string]model.Client, repeats int, seed int64) (Run, string) {
	t.Helper()
	set, probs := task.Load(corpus.FS, instructions.FS)
	if len(probs) > 0 {
		t.Fatalf("corpus problems: %v", probs)
	}
	prompts, err := task.LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Models, cfg.Repeats, cfg.Request.Seed = models, repeats, seed
	cfg.Judges = config.Judges{Models: []string{judge.OfflineJudge}}
	clients := map[string]model.Client{judge.OfflineJudge: judge.NewOffline(set)}
	for _, m := range models {
		if c, ok := extra[m]; ok {
			clients[m] = c
			continue
		}
		c, err := offline.New(m, set)
		if err != nil {
			t.Fatal(err)
		}
		clients[m] = c
	}
	dir := filepath.Join(t.TempDir(), "runs", "pipeline")
	m := &transcript.Manifest{
		RunID: "pipeline", HarnessVersion: "0.1.0", Models: models, Judges: []string{judge.OfflineJudge},
		Repeats: repeats, Seed: seed, TaskIDs: IDs(set.Tasks), CorpusHash: set.Hash(), PromptHash: prompts.Hash,
		ConfigHash: cfg.Hash(), Config: cfg.JSON(), StartedAt: scoringtest.T0,
	}
	if err := transcript.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	// The run's schedule, as pipeline.Run sets it: each document's leading
	// answer first, its other tasks after it (Answers.Then), a judge vote
	// per class A answer as it is archived.
	jcfg := judge.Config{RunID: m.RunID, Gating: models, Fixed: []string{judge.OfflineJudge}, Seed: seed}
	answers := jobs.NewAnswers(cfg, prompts, set.Tasks, nil, m.RunID)
	r := &runner.Runner{Clients: clients, Dir: dir, PerModel: 4, Global: 8, JobTimeout: time.Minute,
		Then: jobs.Chain(answers.Then, jobs.JudgeVotes(set, jcfg, nil))}
	if _, err := r.Drain(context.Background(), answers.First()); err != nil {
		t.Fatal(err)
	}
	fin := scoringtest.T1
	m.FinishedAt = &fin
	if err := transcript.WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	// The score phase's scoring, as rescore reads the archive: a slot at
	// a time, each transcript verified.
	plan := scoring.Plan{Models: m.Models, TaskIDs: m.TaskIDs, Repeats: m.Repeats, Feedback: m.Inputs.Feedback, Canonical: m.CanonicalSlugs()}
	outputs := make([]scoring.Output, len(m.Models)*len(m.TaskIDs)*m.Repeats)
	scores, err := scoring.Stream(set, plan, scoring.Archive(dir, m.RunID, m.Judges), cfg.Weights,
		func(slot int, _ *scoring.Score, o scoring.Output) { outputs[slot] = o })
	if err != nil {
		t.Fatal(err)
	}
	// The viewer shows the transcripts beside the report.
	trs, err := transcripttest.ReadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Run{Manifest: m, Config: cfg, Scores: scores, Set: set, Transcripts: trs, Answers: outputs}, dir
}

// oracleNoisy is Pipeline's run of offline/oracle and offline/noisy, one
// repeat, seed 20260427, made once for the tests that only read it.
var oracleNoisy struct {
	once sync.Once
	in   Run
}

// OracleNoisyRun returns the shared run of offline/oracle and
// offline/noisy. Tests must not change it: one that changes the manifest
// copies it first.
func OracleNoisyRun(t testing.TB) Run {
	t.Helper()
	oracleNoisy.once.Do(func() {
		oracleNoisy.in, _ = Pipeline(t, []string{offline.Oracle, offline.Noisy}, nil, 1, 20260427)
	})
	if oracleNoisy.in.Manifest == nil {
		t.Fatal("the shared run of offline/oracle and offline/noisy failed (see the test that made it)")
	}
	return oracleNoisy.in
}

func IDs(ts []*task.Task) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// Evil is a model whose outputs hold markup that must never run in the
// viewer: a script element and an onerror handler, inside the document
// (class B), as the answer (class A) and as raw text (class C).
type Evil struct{ Set *task.Set }

// Evil is the markup Evil injects. Running it would set window.__pwned.
const EvilMarkup = `<script>window.__pwned=1</script><img src=x onerror='window.__pwned=2'><svg onload='window.__pwned=3'>`

func (e Evil) Complete(ctx context.Context, req model.Request) (*model.Response, error) {
	t := e.Set.Task(req.TaskID)
	var content string
	switch t.Class {
	case task.ClassA:
		b, _ := json.Marshal(map[string]any{"answer": EvilMarkup, "evidence": []string{EvilMarkup}})
		content = string(b)
	case task.ClassB:
		doc := t.Expected.Clone()
		title := EvilMarkup
		doc.Title = &title
		b, _ := json.Marshal(string(EvilMarkup))
		content = strings.Replace(string(bend.Marshal(doc)), `"text": "`, `"text": `+string(b[:len(b)-1]), 1)
	default:
		content = "Sure! " + EvilMarkup + "\n```json\n{ not json " + EvilMarkup + "\n```"
	}
	zero := 0.0
	return &model.Response{Content: content, FinishReason: "stop", Usage: model.Usage{Cost: &zero}, RawBody: json.RawMessage(`{}`),
		Attempts: []model.Attempt{{Number: 1, Status: 200}}}, nil
}
