package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/offline"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// ErrNoKey is returned when a run needs OpenRouter and no key is set.
var ErrNoKey = errors.New("OPENROUTER_API_KEY is not set: export OPENROUTER_API_KEY=sk-or-... to run the gating models, or run `make demo` for the offline pipeline")

// runOptions are the flags of harness run.
type runOptions struct {
	configFile   string
	models       string
	judges       string
	repeats      int
	seed         int64
	out          string
	reports      string
	resume       string
	runID        string
	dryRun       bool
	noPreflight  bool
	baseURL      string
	corpusDir    string
	taskDir      string
	perModel     int
	global       int
	progressMode string
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o runOptions
	fs := newFlagSet("run", "run [--config FILE] [--models a,b,c] [--judges a,b] [--repeats N] [--out DIR] [--resume DIR] [--dry-run]", `
		harness run                                   # the gating run (needs OPENROUTER_API_KEY)
		harness run --dry-run                         # preflight: check models, print size and cost, stop
		harness run --models offline/oracle,offline/identity,offline/noisy --judges offline/judge
		harness run --resume runs/20261122T101500Z    # finish an interrupted run
		OPENROUTER_BASE_URL=http://localhost:8000/v1 harness run --models my-model --no-preflight`, stderr)
	fs.StringVar(&o.configFile, "config", "harness.yaml", "configuration file (built-in defaults when it does not exist)")
	fs.StringVar(&o.models, "models", "", "comma-separated models instead of the configured ones (informational runs)")
	fs.StringVar(&o.judges, "judges", "", "comma-separated judge models instead of the configured panel")
	fs.IntVar(&o.repeats, "repeats", 0, "runs per (model, task); 0 uses the configuration")
	fs.Int64Var(&o.seed, "seed", math.MinInt64, "base seed; repeat r uses seed+r (default: the configuration's)")
	fs.StringVar(&o.out, "out", "runs", "directory of run directories")
	fs.StringVar(&o.reports, "reports", "reports", "directory of reports")
	fs.StringVar(&o.resume, "resume", "", "resume the run in this directory, requesting only jobs without a successful transcript")
	fs.StringVar(&o.runID, "run-id", "", "name of the new run directory (default: the UTC start time)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check the models and print the run's size and estimated cost, then stop")
	fs.BoolVar(&o.noPreflight, "no-preflight", false, "skip the model-list check (for servers without /models)")
	fs.StringVar(&o.baseURL, "base-url", "", "OpenAI-compatible API root (default $OPENROUTER_BASE_URL, else OpenRouter)")
	fs.StringVar(&o.corpusDir, "corpus", "corpus", "corpus directory (embedded corpus when it does not exist)")
	fs.StringVar(&o.taskDir, "instructions", "instructions", "task directory (embedded tasks when it does not exist)")
	fs.IntVar(&o.perModel, "per-model", 0, "requests in flight per model; 0 uses the configuration")
	fs.IntVar(&o.global, "global", 0, "requests in flight in all; 0 uses the configuration")
	fs.StringVar(&o.progressMode, "progress", "auto", "progress output: auto (bars on a terminal), bars, lines or none")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return usageError("run: unexpected arguments %q", fs.Args())
	}
	return runHarness(ctx, o, stdout, stderr)
}

// loadConfig reads the configuration file, or the defaults when the file
// does not exist and was not asked for explicitly.
func loadConfig(path string) (*config.Config, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && path == "harness.yaml" {
		return config.Default(), nil
	}
	c, err := config.Load(path)
	if err != nil {
		return nil, &exitError{exitCantRun, err}
	}
	return c, nil
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func runHarness(ctx context.Context, o runOptions, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(o.configFile)
	if err != nil {
		return err
	}
	var manifest *transcript.Manifest
	runDir := o.resume
	if o.resume != "" {
		manifest, err = transcript.ReadManifest(o.resume)
		if err != nil {
			return &exitError{exitCantRun, fmt.Errorf("resume: %w", err)}
		}
		if err := jsonInto(manifest.Config, cfg); err != nil {
			return &exitError{exitCantRun, fmt.Errorf("resume: the manifest's configuration: %w", err)}
		}
		if o.models != "" || o.judges != "" || o.repeats != 0 {
			fmt.Fprintln(stderr, "resume: --models, --judges and --repeats are taken from the run's manifest")
		}
	} else {
		if o.models != "" {
			cfg.Models = splitList(o.models)
		}
		if o.judges != "" {
			cfg.Judges = config.Judges{Models: splitList(o.judges)}
		}
		if o.repeats > 0 {
			cfg.Repeats = o.repeats
		}
		if o.seed != math.MinInt64 {
			cfg.Request.Seed = o.seed
		}
	}
	if o.perModel > 0 {
		cfg.Concurrency.PerModel = o.perModel
	}
	if o.global > 0 {
		cfg.Concurrency.Global = o.global
	}
	if err := cfg.Validate(); err != nil {
		return &exitError{exitCantRun, err}
	}
	set, prompts, err := loadTasks(o.corpusDir, o.taskDir)
	if err != nil {
		return err
	}
	judges := judgeModels(cfg)
	if err := checkJudges(judges); err != nil {
		return err
	}
	all := append(slices.Clone(cfg.Models), judges...)
	clients, online, err := makeClients(all, set, cfg, o.baseURL)
	if err != nil {
		return err
	}
	tasks := set.Tasks
	if manifest != nil {
		tasks = nil
		for _, id := range manifest.TaskIDs {
			if t := set.Task(id); t != nil {
				tasks = append(tasks, t)
			}
		}
		if manifest.CorpusHash != set.Hash() || manifest.PromptHash != prompts.Hash {
			return &exitError{exitCantRun, fmt.Errorf("resume: the corpus, tasks or prompts changed since the run started (hashes differ); start a new run")}
		}
	}
	jobs := runner.Jobs(cfg.Models, tasks, cfg.Repeats, cfg.Request.Seed)
	var unstructured []string
	if len(online) > 0 && !o.noPreflight {
		if unstructured, err = preflight(ctx, online, clients, jobs, prompts, stdout); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(stdout, "run: %d models × %d tasks × %d repeats = %d jobs\n", len(cfg.Models), len(tasks), cfg.Repeats, len(jobs))
	}
	if o.dryRun {
		return nil
	}

	now := time.Now().UTC()
	if manifest == nil {
		id := o.runID
		if id == "" {
			id = now.Format("20060102T150405Z")
		}
		runDir = filepath.Join(o.out, id)
		if _, err := os.Stat(runDir); err == nil {
			return usageError("run: %s exists; use --resume %s or another --run-id", runDir, runDir)
		}
		manifest = &transcript.Manifest{
			RunID: id, HarnessVersion: Version, GitCommit: gitCommit(),
			Models: cfg.Models, Judges: judges, Repeats: cfg.Repeats, Seed: cfg.Request.Seed,
			TaskIDs: taskIDs(tasks), CorpusHash: set.Hash(), PromptHash: prompts.Hash,
			ConfigHash: cfg.Hash(), Config: cfg.JSON(), StartedAt: now,
		}
	}
	previousFinish := manifest.FinishedAt
	if o.resume != "" {
		manifest.ResumedAt = append(manifest.ResumedAt, now)
		manifest.FinishedAt = nil
	}
	if err := transcript.WriteManifest(runDir, manifest); err != nil {
		return &exitError{exitCantRun, err}
	}
	fmt.Fprintf(stdout, "run: %s\n", runDir)

	r := &runner.Runner{
		Clients: clients, Prompts: prompts, Dir: runDir, RunID: manifest.RunID,
		PerModel: cfg.Concurrency.PerModel, Global: cfg.Concurrency.Global, JobTimeout: cfg.Timeouts.Job.Duration,
		Temperature: cfg.Request.Temperature, MaxTokens: cfg.Request.MaxTokens,
		Progress: progressFor(o.progressMode, stderr),
	}
	results, err := r.Run(ctx, jobs)
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "\ninterrupted: finished transcripts are kept; resume with\n  harness run --resume %s\n", runDir)
		return &exitError{exitCantRun, errSilent}
	}
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	var answers []*transcript.Transcript
	for _, res := range results {
		if res.Transcript != nil {
			answers = append(answers, res.Transcript)
		}
	}
	if len(judges) > 0 {
		jcfg := judge.Config{RunID: manifest.RunID, Gating: cfg.Models, Fixed: cfg.Judges.Models,
			Seed: cfg.Request.Seed, Concurrency: cfg.Concurrency.Global, Unstructured: unstructured}
		if _, err := judge.Run(ctx, clients, set, answers, runDir, jcfg); err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(stderr, "\ninterrupted while judging; resume with\n  harness run --resume %s\n", runDir)
				return &exitError{exitCantRun, errSilent}
			}
			return &exitError{exitCantRun, fmt.Errorf("judging: %w", err)}
		}
	}
	fin := time.Now().UTC()
	manifest.FinishedAt = &fin
	if previousFinish != nil && allReused(results) {
		// Resuming a finished run asked nothing new: the run finished when
		// it first did, and its report stays byte-identical.
		manifest.FinishedAt = previousFinish
	}
	if err := transcript.WriteManifest(runDir, manifest); err != nil {
		return &exitError{exitCantRun, err}
	}
	return scoreAndReport(runDir, manifest, cfg, set, o.reports, nil, stdout)
}

// scoreAndReport is the score phase over a run directory, shared by run and
// rescore: read the archived transcripts (verifying their hashes), score,
// build and write the report, and map the verdict to the exit code.
func scoreAndReport(runDir string, m *transcript.Manifest, cfg *config.Config, set *task.Set, reportDir string, rescoredAt *time.Time, stdout io.Writer) error {
	trs, err := transcript.ReadAll(runDir)
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	scores, err := scoring.Run(set, scoring.Plan{Models: m.Models, TaskIDs: m.TaskIDs, Repeats: m.Repeats}, trs, cfg.Weights.Metric())
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	in := report.Input{Manifest: m, Config: cfg, Scores: scores, Set: set, RescoredAt: rescoredAt, Transcripts: trs}
	rep := report.Build(in)
	paths, err := report.WriteAll(reportDir, rep, in)
	if err != nil {
		return &exitError{exitCantRun, err}
	}
	if err := report.WriteMarkdown(stdout, rep); err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintf(stdout, "wrote %s\n", p)
	}
	if !rep.Passed() {
		return &exitError{exitFail, errSilent}
	}
	return nil
}

// judgeModels returns the class A judges: the fixed list, or with a panel
// the gating models themselves (each judging the others' answers).
func judgeModels(cfg *config.Config) []string {
	if len(cfg.Judges.Models) > 0 {
		return cfg.Judges.Models
	}
	if cfg.Judges.Panel {
		return slices.Clone(cfg.Models)
	}
	return nil
}

// checkJudges refuses judges that cannot judge: the offline task models
// answer tasks, not judge requests.
func checkJudges(judges []string) error {
	for _, j := range judges {
		if offline.IsOffline(j) && j != judge.OfflineJudge {
			return usageError("%s cannot judge class A answers; with offline models pass --judges %s", j, judge.OfflineJudge)
		}
	}
	return nil
}

// makeClients builds a client per model: offline models from the task set,
// every other model through OpenRouter (which needs the key).
func makeClients(models []string, set *task.Set, cfg *config.Config, baseURL string) (map[string]model.Client, []string, error) {
	clients := map[string]model.Client{}
	var online []string
	var or *model.OpenRouter
	for _, m := range models {
		if clients[m] != nil {
			continue
		}
		switch {
		case m == judge.OfflineJudge:
			clients[m] = judge.NewOffline(set)
		case offline.IsOffline(m):
			c, err := offline.New(m, set)
			if err != nil {
				return nil, nil, usageError("%v", err)
			}
			clients[m] = c
		default:
			if or == nil {
				key := os.Getenv(model.EnvAPIKey)
				if key == "" {
					return nil, nil, &exitError{exitCantRun, ErrNoKey}
				}
				if baseURL == "" {
					baseURL = model.BaseURLFromEnv()
				}
				or = model.NewOpenRouter(model.WithAPIKey(key), model.WithBaseURL(baseURL),
					model.WithMaxRetries(cfg.Retries.Max), model.WithAttemptTimeout(cfg.Timeouts.Attempt.Duration),
					model.WithBackoff(cfg.Retries.BackoffBase.Duration, cfg.Retries.BackoffMax.Duration))
			}
			clients[m] = or
			online = append(online, m)
		}
	}
	return clients, online, nil
}

func taskIDs(ts []*task.Task) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

func progressFor(mode string, w io.Writer) runner.Progress {
	switch mode {
	case "none":
		return nil
	case "bars":
		return &runner.Bars{W: w}
	case "lines":
		return &runner.Lines{W: w}
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("CI") == "" {
			return &runner.Bars{W: w}
		}
	}
	return &runner.Lines{W: w}
}

// gitCommit returns the checked-out commit, or "" outside a git checkout.
func gitCommit() string {
	out, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func jsonInto(raw []byte, v any) error { return json.Unmarshal(raw, v) }

func allReused(rs []runner.Result) bool {
	for _, r := range rs {
		if r.Outcome != runner.Reused {
			return false
		}
	}
	return true
}
