package main

import (
	"context"
	"flag"
	"io"
	"os"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/pipeline"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/suites/ladder"
)

// sealKey is $HARNESS_SEAL_KEY, the key that seals a run's archive and
// verifies it on rescore (pipeline.Seal); nil when unset.
func sealKey() []byte {
	if k := os.Getenv(pipeline.SealKeyEnv); k != "" {
		return []byte(k)
	}
	return nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	r := runRequest{Options: pipeline.Options{Command: commandName, HarnessVersion: Version, Stdout: stdout, SealKey: sealKey()}, Stderr: stderr}
	fs := newFlagSet("run", "run [--config FILE] [--models a,b,c] [--judges a,b] [--tasks IDS] [--max-cost USD] [--out DIR] [--resume DIR] [--dry-run]", `
		harness run                                   # the gating run (needs OPENROUTER_API_KEY)
		harness run --dry-run --max-cost 20           # preflight: check models, print size and cost against the cap, stop
		harness run --tasks '03-b,17-*' --summary     # task 03-b and document 17's tasks (a partial run), the Markdown printed too
		harness run --models offline/oracle,offline/identity,offline/noisy --judges offline/judge   # make demo's gating run
		harness run --resume runs/demo                # finish an interrupted run (one that finished: its report again)
		OPENROUTER_BASE_URL=http://localhost:8000/v1 OPENROUTER_API_KEY=local harness run --models my-model --judges offline/judge --no-preflight   # a local OpenAI-compatible server: the key goes to it too, so give one it accepts`, stderr)
	configFlag(fs, &r.ConfigFile, "models, judges, parameters, concurrency, timeouts, retries, thresholds, weights")
	fs.StringVar(&r.Models, "models", "", "comma-separated models instead of the configured ones (informational runs)")
	fs.StringVar(&r.Judges, "judges", "", "comma-separated judge models instead of the configured panel")
	fs.IntVar(&r.Repeats, "repeats", 0, "runs per (model, task), at least 1 (default: the configuration's)")
	fs.Int64Var(&r.Seed, "seed", 0, "base seed; repeat r uses seed+r (default: the configuration's)")
	fs.StringVar(&r.OutDir, "out", "runs", "directory of run directories")
	reportsFlag(fs, &r.Inputs.ReportDir, "reports", " (a resume uses the run's, and says so)")
	fs.StringVar(&r.ResumeDir, "resume", "", "resume the run in this directory, requesting only jobs without a successful transcript")
	fs.StringVar(&r.RunID, "run-id", "", "name of the new run directory: letters, digits, '.', '-', '_' (default: the UTC start time to the millisecond and a random suffix)")
	fs.BoolVar(&r.DryRun, "dry-run", false, "check the models and print the run's size and estimated cost, then stop")
	fs.BoolVar(&r.Inputs.NoPreflight, "no-preflight", false, "skip the model-list check (for servers without /models)")
	baseURLFlag(fs, &r.Conn.BaseURL, "; a resume must name the run's own, or is refused")
	corpusFlag(fs, &r.Inputs.CorpusDir, "corpus")
	instructionsFlag(fs, &r.Inputs.InstructionsDir, "instructions")
	fs.IntVar(&r.PerModel, "per-model", 0, "requests in flight per model, at least 1 (default: the configuration's)")
	fs.IntVar(&r.Global, "global", 0, "requests in flight in all, at least 1 (default: the configuration's)")
	fs.StringVar(&r.ProgressMode, "progress", "auto", "progress output: auto (bars on a terminal), bars, lines or none")
	fs.StringVar(&r.Inputs.Suite, "suite", suites.Gating, suites.FlagHelp())
	fs.StringVar(&r.Rungs, "rungs", "", "size suite: the rungs to run, e.g. 8k,32k,128k (default "+ladder.RungList(ladder.DefaultRungs)+")")
	fs.IntVar(&r.Inputs.Steps, "steps", 0, "relay suite: steps per chain, at least 1 (default 8: B, C, C⁻¹, B⁻¹ twice)")
	fs.StringVar(&r.Formats, "formats", "", formats.FlagHelp())
	fs.IntVar(&r.Inputs.RoundTrips, "round-trips", 0, "delegate suite: round trips per chain, 1 to 50 (default 10 = 20 interactions)")
	fs.IntVar(&r.Inputs.Feedback, "feedback", 0, "feedback rounds, 0 to 3: a class B/C answer that does not parse, apply or validate is asked again in the same conversation, told only its mechanical failure, up to N times; the last round is scored, the first try reported beside it")
	fs.StringVar(&r.Tasks, "tasks", "", "run only these tasks: ids and globs, e.g. 03-b,17-* (a partial run: never the gating verdict pass)")
	fs.StringVar(&r.Classes, "classes", "", "run only these classes, e.g. b,c (a partial run)")
	fs.StringVar(&r.Docs, "docs", "", "run only the tasks of these documents: numbers, names or globs, e.g. 03,17 (a partial run)")
	fs.IntVar(&r.Limit, "limit", 0, "run at most N tasks of the selection, in id order; a relay chain counts as one (a partial run)")
	fs.Float64Var(&r.MaxCost, "max-cost", 0, "spending cap in USD: no new request once the known cost plus the estimate of the requests in flight reaches it (default: the configuration's max_cost, else none)")
	fs.BoolVar(&r.Summary, "summary", false, "also print the full Markdown report (it is always written to the reports directory)")
	fs.StringVar(&r.Format, "format", "text", "what to print on stdout: text (progress notes and the verdict) or json (the JSON report; notes go to stderr)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usage.Errorf("run: unexpected arguments %q (flags go before them; run -h for help)", fs.Args())
	}
	r.Given = map[string]string{}
	fs.Visit(func(f *flag.Flag) { r.Given[f.Name] = f.Value.String() })
	_, err := startRun(ctx, r)
	return err
}
