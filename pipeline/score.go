package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/viewer"
)

// ScoreOptions is one pass of the score phase over a run directory.
type ScoreOptions struct {
	RunDir string
	// Manifest is the run's; the reports go to its Inputs.ReportDir (a
	// rescore's --out is set there, on its copy: run.json is not
	// rewritten).
	Manifest *transcript.Manifest
	Config   *config.Config // the run's (thresholds, weights)
	Set      *task.Set
	// RescoredAt is set by rescore and recorded in the report; nil for a
	// fresh run.
	RescoredAt *time.Time
	// Stdout receives the paths written and, last, the verdict line and
	// the paths of the HTML and JSON reports (so that a terminal shows
	// them whatever scrolled before); with Summary the whole Markdown
	// report comes first. nil prints nothing.
	Stdout  io.Writer
	Summary bool
	// Known, when not nil, are the hashes of the transcripts the run's
	// runner wrote or verified: those are read back without hashing them
	// again (scoring.ArchiveKnown). Every other transcript is read from
	// RunDir and verified, a slot at a time, as rescore does.
	Known *transcript.Known
	// Ctx ends the score phase at a signal, which then returns an
	// *InterruptedError whose command is Again; nil never ends it.
	Ctx context.Context
	// Again is the command that finishes the run after an interruption (a
	// resume, or RescoreCommand).
	Again string
	// Integrity is what protects the archive, as the report says it
	// (Seal, CheckSeal).
	Integrity string
	// Recorded is the report the run wrote before this rescore, when it
	// can be read, as far as a rescore reads it (its run id, integrity,
	// verdict, reading's outcome and failures; recorded): a verdict or a
	// reading that differs from it is said in the first line printed.
	Recorded *report.Report
	// Command is how the user runs the harness, for the rescore command
	// printed when the reports cannot be written (RescoreCommand).
	Command string
}

// Score is the score phase, shared by run and rescore: read the archived
// transcripts (verifying their hashes) a (model, task, repeat) at a time on
// every core, score each and keep only its score, spooling what the viewer
// shows of it to a temporary file (viewer.Spool), then build the report
// from the scores alone and write it. No transcript and no diff is held
// past its slot. A failing verdict returns the result with ErrVerdictFail.
func Score(o ScoreOptions) (*Result, error) {
	m := o.Manifest
	ctx := o.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	defer softMemoryLimit()()
	src := untilDone(ctx, o.source())
	plan := scoring.Plan{Models: m.Models, TaskIDs: m.TaskIDs, Repeats: m.Repeats, Feedback: m.Inputs.Feedback, Canonical: m.CanonicalSlugs()}
	outputs, err := viewer.NewSpool(len(m.Models) * len(m.TaskIDs) * m.Repeats)
	if err != nil {
		return nil, err
	}
	defer outputs.Close()
	scores, err := whileNotDone(ctx, func() ([]scoring.Score, error) {
		return scoring.Stream(o.Set, plan, src, o.Config.Weights, func(slot int, s *scoring.Score, out scoring.Output) {
			outputs.Put(slot, viewer.OutputOf(*s, o.Set.Task(s.TaskID), out))
			// The viewer reads the whole score back; the report is built
			// from the numbers alone (issue 55: the evidence of every
			// score held grew memory with the archive).
			// A missing score holds no evidence, and may yet become a
			// step not run (scoring.EndChains), which the viewer shows
			// as it is then.
			if s.Status != scoring.StatusMissing {
				outputs.PutScore(slot, *s)
				*s = s.Compact()
			}
		})
	})
	if ctx.Err() != nil {
		return nil, &InterruptedError{RunDir: o.RunDir, Resume: o.Again}
	}
	if err != nil {
		return nil, err
	}
	return o.report(ctx, scores, outputs)
}

// source is where the score phase reads the transcripts: the archive,
// the jobs o.Known lists not hashed again.
func (o ScoreOptions) source() scoring.Source {
	m := o.Manifest
	return scoring.ArchiveKnown(o.RunDir, m.RunID, m.Judges, o.Known)
}

// report builds the report of scores, writes it, prints its end, and
// returns the result: ErrVerdictFail beside it when the verdict fails.
func (o ScoreOptions) report(ctx context.Context, scores []scoring.Score, outputs *viewer.Spool) (*Result, error) {
	in := aggregate.Input{Manifest: o.Manifest, Config: o.Config, Scores: scores, Set: o.Set, RescoredAt: o.RescoredAt, Integrity: o.Integrity,
		Unpriced: unpricedOf(o.RunDir)}
	rep := aggregate.Build(in)
	if o.Manifest.Inputs.BaseURL != "" {
		// What the whole night cost, as harness runs counts it: the one
		// figure the report does not build from the scores.
		rep.Cost = new(NightCost(o.RunDir))
	}
	rep.FormatsCompared = compare.Formats(rep)
	if line := differsFrom(o.Recorded, rep); line != "" && o.Stdout != nil {
		fmt.Fprintln(o.Stdout, line)
	}
	paths, err := writeReports(ctx, o, rep, viewer.Input{Input: in, Outputs: outputs})
	if err != nil {
		return nil, err
	}
	if o.Stdout != nil {
		if err := printEnd(o.Stdout, rep, paths, o.Summary); err != nil {
			return nil, err
		}
	}
	res := &Result{RunDir: o.RunDir, Passed: rep.Passed(), Reports: paths, Report: rep}
	if !res.Passed {
		return res, ErrVerdictFail
	}
	return res, nil
}

// whileNotDone returns what stream returns, or ctx's error as soon as ctx
// ends: untilDone stops the score phase between answers, but scoring one
// answer in hand (a 16 MiB answer applied and compared) took seconds, and
// SIGTERM waited for it (issue 45: 9.9 s). The answer's scoring is left
// to finish unread; the process is ending, and nothing it would write is
// kept (the spool is closed).
func whileNotDone(ctx context.Context, stream func() ([]scoring.Score, error)) ([]scoring.Score, error) {
	type result struct {
		scores []scoring.Score
		err    error
	}
	done := make(chan result, 1)
	go func() {
		s, err := stream()
		done <- result{s, err}
	}()
	select {
	case r := <-done:
		return r.scores, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// untilDone is src failing with ctx's error once ctx ends: the score
// phase stops at a signal (it ignored SIGTERM and SIGINT for 40 s and
// exited 1 with its reports, issue 32).
func untilDone(ctx context.Context, src scoring.Source) scoring.Source {
	return func(model, taskID string, repeat int) (*transcript.Transcript, []*transcript.Transcript, error) {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		return src(model, taskID, repeat)
	}
}

// writeReports writes the reports under their lock (lockReports). When
// they cannot be written (the folder is a file, read-only or full) the
// error says that every transcript is archived and which command writes
// the reports once the problem is fixed; an interruption is an
// *InterruptedError.
func writeReports(ctx context.Context, o ScoreOptions, rep *report.Report, in viewer.Input) ([]string, error) {
	dir := reportDir(o.Manifest.Inputs)
	release, err := lockReports(ctx, dir, o.Manifest.RunID)
	if err == nil {
		defer release()
		var paths []string
		if paths, err = writeAll(dir, rep, in); err == nil {
			return paths, nil
		}
	}
	if ctx.Err() != nil {
		return nil, &InterruptedError{RunDir: o.RunDir, Resume: o.Again}
	}
	return nil, fmt.Errorf("writing the reports in %s: %w\nevery transcript is archived in %s; when the problem is fixed, write the reports with\n  %s",
		dir, err, o.RunDir, RescoreCommand(o.Command, o.RunDir, dir))
}

// printEnd prints the end of a run or rescore: the Markdown report when
// asked, the other files written, then always the same last three lines:
// the verdict with its failure count, and the HTML and JSON reports.
func printEnd(w io.Writer, rep *report.Report, paths []string, summary bool) error {
	if summary {
		if err := render.WriteMarkdown(w, rep); err != nil {
			return err
		}
	}
	byExt := map[string]string{}
	for _, p := range paths {
		byExt[filepath.Ext(p)] = p
	}
	for _, p := range paths {
		if ext := filepath.Ext(p); ext != ".html" && ext != ".json" {
			fmt.Fprintf(w, "wrote %s\n", p)
		}
	}
	fmt.Fprintf(w, "%s\n", render.VerdictLine(rep))
	fmt.Fprintf(w, "HTML report: %s\n", byExt[".html"])
	_, err := fmt.Fprintf(w, "JSON report: %s\n", byExt[".json"])
	return err
}

// ReadRun reads a run's manifest and its configuration, checking the
// configuration against the hash the run recorded.
func ReadRun(runDir string) (*transcript.Manifest, *config.Config, error) {
	m, err := transcript.ReadManifest(runDir)
	if err != nil {
		return nil, nil, err
	}
	path := filepath.Join(runDir, transcript.ManifestName)
	var cfg config.Config
	if err := json.Unmarshal(m.Config, &cfg); err != nil {
		return nil, nil, fmt.Errorf("%s: /config: %w", path, err)
	}
	if h := cfg.Hash(); h != m.ConfigHash {
		return nil, nil, fmt.Errorf("%s: /config: the configuration does not match config_hash (computed %s, recorded %s)",
			path, shortHash(h), shortHash(m.ConfigHash))
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, fmt.Errorf("%s: /config: %w", path, err)
	}
	// The manifest's own counts size the score phase's allocations: check
	// them before anything is allocated by them.
	if m.Repeats != cfg.Repeats {
		return nil, nil, fmt.Errorf("%s: /repeats: %d, but the run's configuration says %d", path, m.Repeats, cfg.Repeats)
	}
	if err := checkSize(len(m.Models), len(m.TaskIDs), m.Repeats); err != nil {
		return nil, nil, fmt.Errorf("%s: /repeats: %w", path, err)
	}
	return m, &cfg, nil
}

// CheckInputs refuses to score a run with a corpus, task set or prompt
// templates other than the ones it ran with.
func CheckInputs(m *transcript.Manifest, set *task.Set, prompts *task.Prompts) error {
	switch {
	case set.Hash() != m.CorpusHash:
		return fmt.Errorf("the corpus or tasks differ from the run's (corpus hash %s, run %s): rescore with the run's --corpus and --instructions", shortHash(set.Hash()), shortHash(m.CorpusHash))
	case prompts.HashFor(m.Inputs.Formats) != m.PromptHash:
		return fmt.Errorf("the prompt templates differ from the run's (prompt hash %s, run %s)", shortHash(prompts.HashFor(m.Inputs.Formats)), shortHash(m.PromptHash))
	}
	return nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// RescoreOptions is one rescore of an archived run.
type RescoreOptions struct {
	RunDir, ReportDir string
	// CorpusDir and TaskDir are the data directories (task.LoadAll); the
	// run's hashes must match them (CheckInputs).
	CorpusDir, TaskDir string
	// Summary prints the whole Markdown report before the verdict, as
	// run --summary does.
	Summary bool
	// Stdout receives the verdict and the reports' paths (Score); nil
	// prints nothing.
	Stdout io.Writer
	// Ctx ends the rescore at a signal; nil never ends it.
	Ctx context.Context
	// Command is how the user runs the harness, for the rescore command
	// printed when the reports cannot be written.
	Command string
	// Now is the clock rescored_at is read from; nil is time.Now.
	Now func() time.Time
	// SealKey is $HARNESS_SEAL_KEY: a sealed run's seal is verified with
	// it (CheckSeal); a seal that does not verify stops the rescore.
	SealKey []byte
}

// Rescore is the score phase over an archived run: the same Score that a
// run ends with, so a fresh report and a rescored one cannot disagree
// except in rescored_at. A run that another process is still running or
// resuming is refused, as a second resume is: its report would count
// every job not yet answered as missing, and, written where the process
// will write, say "incomplete" until the run overwrote it (issue 46; issue
// 56 refused --out elsewhere too): a *LockedError. While the
// rescore lasts, no run or resume of the directory can start.
func Rescore(r RescoreOptions) (*Result, error) {
	m, cfg, err := ReadRun(r.RunDir)
	if err != nil {
		return nil, fmt.Errorf("rescore: %w", err)
	}
	release, held := shareRun(r.RunDir)
	defer release()
	if held {
		return nil, fmt.Errorf("rescore: %w", &LockedError{RunDir: r.RunDir, Rescore: true})
	}
	corpusSet, prompts, err := task.LoadAll(r.CorpusDir, r.TaskDir)
	if err != nil {
		return nil, err
	}
	set, err := SuiteSet(corpusSet, m.Inputs)
	if err != nil {
		return nil, err
	}
	if err := CheckInputs(m, set, prompts); err != nil {
		return nil, fmt.Errorf("rescore: %w", err)
	}
	integrity, err := CheckSeal(r.RunDir, r.SealKey)
	if err != nil {
		return nil, fmt.Errorf("rescore: %w", err)
	}
	now, before := clock(r.Now), recorded(m)
	if integrity == Unsealed && before != nil && strings.HasPrefix(before.Integrity, "sealed") {
		// run.json says nothing of a seal, yet the report the run wrote
		// says it was sealed: the seal and run.json's word of it are
		// gone (issue 53).
		if len(r.SealKey) > 0 {
			return nil, fmt.Errorf("rescore: %s: %w: the report the run recorded (%s.json) says it was sealed, and neither %s nor run.json's sealed_at is left", r.RunDir, ErrSealRemoved, m.RunID, SealName)
		}
		integrity = SealRemoved
	}
	if integrity == SealRemoved && r.Stdout != nil {
		fmt.Fprintf(r.Stdout, "rescore: WARNING: %s\n", SealRemoved)
	}
	m.Inputs.ReportDir = r.ReportDir // where this rescore writes (--out); run.json is not rewritten
	return Score(ScoreOptions{RunDir: r.RunDir, Manifest: m, Config: cfg, Set: set, RescoredAt: &now, Stdout: r.Stdout, Summary: r.Summary,
		Ctx: r.Ctx, Again: RescoreCommand(r.Command, r.RunDir, r.ReportDir), Command: r.Command,
		Integrity: integrity, Recorded: before})
}

// ScoreMemoryLimit is the soft memory limit of a run and of the score
// phase (runtime/debug.SetMemoryLimit), unless the user set one
// ($GOMEMLIMIT). Without it the collector lets the heap grow to twice
// what is live, and what is live grows with the archive (each answer's
// compact score and report record, about 1.5 KB; a run's collector
// keeps its tally): a rescore of 48,000 transcripts peaked at 226 MB RSS,
// of 24,000 at 138 MB (issue 55). With it the collector
// works harder as the heap nears the limit instead, and the peak stays
// near the limit while what is live stays under it (up to about 100,000
// transcripts); past that the collector takes up to half the CPU and the
// heap exceeds the limit as it must, since the limit is soft.
const ScoreMemoryLimit = 100 << 20

// softMemoryLimit sets ScoreMemoryLimit when no limit is set, neither by
// the program nor by $GOMEMLIMIT (whose "off" is the user's choice too),
// and returns what puts the limit back.
func softMemoryLimit() (restore func()) {
	if prev := debug.SetMemoryLimit(-1); prev != math.MaxInt64 || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	debug.SetMemoryLimit(ScoreMemoryLimit)
	return func() { debug.SetMemoryLimit(math.MaxInt64) }
}
