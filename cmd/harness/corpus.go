package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"bendscript.com/round-trip-harness/cmd/harness/internal/suggest"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/sensitivity"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/task"
)

func cmdCorpus(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "ladder" {
		return cmdCorpusLadder(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "sensitivity" {
		return cmdCorpusSensitivity(ctx, args[1:], stdout, stderr)
	}
	if len(args) == 0 || args[0] != "check" {
		return corpusUsage(args, stderr)
	}
	fs := newFlagSet("corpus", "corpus check [--corpus DIR] [--instructions DIR]", `
		harness corpus check
		cp -r corpus my-corpus && harness corpus check --corpus my-corpus --instructions instructions   # a corpus of your own`, stderr)
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if help, err := parseFlags(fs, args[1:]); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return wrongUsage(fs, "corpus check: unexpected arguments %q", fs.Args())
	}
	set, d, probs, err := task.CheckDirs(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	for _, p := range probs {
		fmt.Fprintln(stdout, p)
	}
	if len(probs) > 0 {
		fmt.Fprintf(stderr, "corpus check: %d problems (corpus %s, tasks %s)\n", len(probs), d.CorpusName, d.TasksName)
		return failed()
	}
	fmt.Fprintf(stdout, "ok: %d documents, %d tasks, %d gold edits applied and checked, %d inverse edits restore their sources exactly, %d natural tasks determine their edits, %d pool pairs return their documents byte for byte (corpus %s, tasks %s)\n",
		len(set.Documents), len(set.Tasks), set.Edits(), len(set.Inverse), len(set.Natural), len(set.Pairs), d.CorpusName, d.TasksName)
	return nil
}

// corpusSubcommands are corpus's subcommands, for its usage.
var corpusSubcommands = [][2]string{
	{"check", "the documents, tasks, gold edits and inverses, and the §8.2 table"},
	{"ladder", "build the size ladder: documents of about 8, 32, 128 and 512 KB with placed edits"},
	{"sensitivity", "what each threshold lets through"},
}

// corpusUsage answers "corpus" without a known subcommand: -h lists the
// three (it showed check alone, and exited 2: issue 34); a typo gets the
// nearest name.
func corpusUsage(args []string, stderr io.Writer) error {
	var names []string
	for _, c := range corpusSubcommands {
		names = append(names, c[0])
	}
	if len(args) > 0 && !isHelp(args[0]) {
		// A typo is one line, as a mistyped command or flag is.
		msg := fmt.Sprintf("corpus: no subcommand %q (the subcommands are check, ladder and sensitivity)", args[0])
		if near := suggest.Nearest(args[0], names); near != "" {
			msg = fmt.Sprintf("corpus: no subcommand %q; did you mean %s?", args[0], near)
		}
		return usage.Errorf("%s", msg)
	}
	fmt.Fprintln(stderr, "Usage: harness corpus check|ladder|sensitivity [flags]")
	fmt.Fprintln(stderr)
	for _, c := range corpusSubcommands {
		fmt.Fprintf(stderr, "  %-12s %s\n", c[0], c[1])
	}
	fmt.Fprintln(stderr, "\nRun \"harness corpus <subcommand> -h\" for its flags and examples.")
	fmt.Fprintln(stderr, "\nExamples:\n  harness corpus check\n  harness corpus ladder --out size-ladder\n  harness corpus sensitivity")
	if len(args) == 0 {
		return usage.Errorf("corpus: give a subcommand: check, ladder or sensitivity")
	}
	return nil
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// cmdCorpusLadder writes the size ladder (package ladder): for each size a
// composed document, DIR/<rung>.bend.json, and its placed tasks,
// DIR/<rung>.tasks.json, and prints one line per rung.
func cmdCorpusLadder(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("corpus ladder", "corpus ladder --out DIR [--rungs LIST] [--tasks LIST] [--corpus DIR] [--instructions DIR]", `
		harness corpus ladder --out size-ladder
		harness corpus ladder --out size-ladder && harness id --check size-ladder/*.bend.json
		harness corpus ladder --out size-ladder --rungs 32k,128k --tasks 01-b,01-c,02-b,02-c`, stderr)
	out := fs.String("out", "", "directory to write <rung>.bend.json and <rung>.tasks.json into (created when missing)")
	rungs := fs.String("rungs", ladder.RungList(ladder.DefaultRungs), "the rungs' target sizes, comma-separated: bytes, or a number with k (KiB) or m (MiB); each within ±15%")
	tasks := fs.String("tasks", strings.Join(ladder.DefaultTasks, ","), "corpus class B/C tasks to place at the start, middle and end of every rung, comma-separated")
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		return wrongUsage(fs, "corpus ladder: give --out DIR and no arguments")
	}
	c := ladder.Config{}
	var err error
	if c.Rungs, err = ladder.ParseRungs(*rungs); err != nil {
		return usage.Errorf("corpus ladder: --rungs: %v", err)
	}
	if c.Tasks = splitList(*tasks); len(c.Tasks) == 0 {
		return usage.Errorf("corpus ladder: --tasks: no task given")
	}
	return writeLadder(stdout, *out, c, *corpusDir, *taskDir)
}

// writeLadder builds the size ladder from the corpus in corpusDir and
// taskDir (ladder.Build) and writes each rung's document and tasks into
// out, a line per rung to w.
func writeLadder(w io.Writer, out string, c ladder.Config, corpusDir, taskDir string) error {
	set, _, err := task.LoadDirs(corpusDir, taskDir)
	if err != nil {
		return err
	}
	rungs, err := ladder.Build(set, c)
	if err != nil {
		return usage.Errorf("corpus ladder: %v", err)
	}
	return ladder.Write(out, rungs, w)
}

// cmdCorpusSensitivity prints what the thresholds let through: each
// canonical loss applied to every class B and C expected document, scored,
// with the thresholds it would fail.
func cmdCorpusSensitivity(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("corpus sensitivity", "corpus sensitivity [--oc] [--config FILE] [--corpus DIR] [--instructions DIR]", `
		harness corpus sensitivity
		cp harness.yaml my-thresholds.yaml && harness corpus sensitivity --config my-thresholds.yaml   # edit its thresholds first
		harness corpus sensitivity --oc   # the operating characteristics published in docs/interpretations.md §8.5`, stderr)
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	configFile := configFlag(fs, new(string), "the weights and thresholds the table applies")
	oc := fs.Bool("oc", false, "print the operating characteristics instead: how often each §8.5 threshold, the verdict and the reading come out for models at given distances from the limits (a seeded simulation; docs/interpretations.md)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return wrongUsage(fs, "corpus sensitivity: unexpected arguments %q", fs.Args())
	}
	cfg, err := config.LoadOrDefault(*configFile)
	if err != nil {
		return err
	}
	if *oc {
		return sensitivity.WriteOC(stdout, sensitivity.OC(cfg, sensitivity.OCDistances, sensitivity.OCTrials, sensitivity.OCSeed), sensitivity.OCTrials, sensitivity.OCSeed)
	}
	set, _, err := task.LoadAll(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	return sensitivity.Write(stdout, sensitivity.Table(set, cfg))
}
