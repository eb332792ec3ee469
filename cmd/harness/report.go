package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/transcript"
)

// cmdRescore is the score phase over an archived run: the same
// scoreAndReport that harness run ends with, so a fresh report and a
// rescored one cannot disagree except in rescored_at.
func cmdRescore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("rescore", "rescore [--out DIR] [--format md|json] RUN_DIR", `
		harness rescore runs/20261122T101500Z
		harness rescore --out /tmp/re runs/demo && diff <(grep -v '^  "rescored_at"' /tmp/re/demo.json) reports/demo.json
		harness rescore --format json runs/demo | jq .verdict`, stderr)
	out := fs.String("out", "reports", "directory of reports: writes <run-id>.json, .md and .html there")
	format := fs.String("format", "md", "what to print: md (the Markdown summary) or json (the JSON report)")
	corpusDir := fs.String("corpus", "corpus", "corpus directory (the embedded corpus when it does not exist)")
	taskDir := fs.String("instructions", "instructions", "task directory (the embedded tasks when it does not exist)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("rescore: give one run directory")
	}
	if *format != "md" && *format != "json" {
		return usageError("rescore: --format is md or json, not %q", *format)
	}
	runDir := fs.Arg(0)
	m, cfg, err := readRun(runDir)
	if err != nil {
		return err
	}
	set, prompts, err := loadTasks(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	switch {
	case set.Hash() != m.CorpusHash:
		return &exitError{exitCantRun, fmt.Errorf("rescore: the corpus or tasks differ from the run's (corpus hash %s, run %s): rescore with the run's --corpus and --instructions", shortHash(set.Hash()), shortHash(m.CorpusHash))}
	case prompts.Hash != m.PromptHash:
		return &exitError{exitCantRun, fmt.Errorf("rescore: the prompt templates differ from the run's (prompt hash %s, run %s)", shortHash(prompts.Hash), shortHash(m.PromptHash))}
	}
	now := time.Now().UTC()
	summary := stdout
	if *format == "json" {
		summary = io.Discard
	}
	err = scoreAndReport(runDir, m, cfg, set, *out, &now, summary)
	if *format == "json" && exitCode(err) != exitCantRun {
		b, rerr := os.ReadFile(filepath.Join(*out, m.RunID+".json"))
		if rerr != nil {
			return &exitError{exitCantRun, rerr}
		}
		if _, werr := stdout.Write(b); werr != nil {
			return werr
		}
	}
	return err
}

// readRun reads a run's manifest and its configuration, checking the
// configuration against the hash the run recorded.
func readRun(runDir string) (*transcript.Manifest, *config.Config, error) {
	m, err := transcript.ReadManifest(runDir)
	if err != nil {
		return nil, nil, &exitError{exitCantRun, fmt.Errorf("rescore: %w", err)}
	}
	var cfg config.Config
	if err := json.Unmarshal(m.Config, &cfg); err != nil {
		return nil, nil, &exitError{exitCantRun, fmt.Errorf("rescore: %s: /config: %w", filepath.Join(runDir, transcript.ManifestName), err)}
	}
	if h := cfg.Hash(); h != m.ConfigHash {
		return nil, nil, &exitError{exitCantRun, fmt.Errorf("rescore: %s: /config: the configuration does not match config_hash (computed %s, recorded %s)",
			filepath.Join(runDir, transcript.ManifestName), shortHash(h), shortHash(m.ConfigHash))}
	}
	if err := cfg.Validate(); err != nil {
		return nil, nil, &exitError{exitCantRun, fmt.Errorf("rescore: the run's configuration: %w", err)}
	}
	return m, &cfg, nil
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// cmdCompare compares two JSON reports in the manner of benchstat.
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "compare [--format text|md] OLD.json NEW.json", `
		harness compare reports/20261101T000000Z.json reports/20261122T101500Z.json
		harness compare --format md reports/old.json reports/new.json >> "$GITHUB_STEP_SUMMARY"`, stderr)
	format := fs.String("format", "text", "text (aligned columns) or md (Markdown tables, for pull requests)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return usageError("compare: give two reports")
	}
	if *format != "text" && *format != "md" {
		return usageError("compare: --format is text or md, not %q", *format)
	}
	var reps [2]*report.Report
	for i, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return &exitError{exitCantRun, err}
		}
		reps[i], err = report.ReadJSON(f, name)
		f.Close()
		if err != nil {
			return &exitError{exitCantRun, err}
		}
	}
	c := report.Compare(reps[0], reps[1], fs.Arg(0), fs.Arg(1))
	if *format == "md" {
		return c.WriteMarkdown(stdout)
	}
	return c.WriteText(stdout)
}
