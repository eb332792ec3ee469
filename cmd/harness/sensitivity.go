package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/sensitivity"
	"bendscript.com/round-trip-harness/task"
)

// cmdCorpusSensitivity prints what the thresholds let through: each
// canonical loss applied to every class B and C expected document, scored,
// with the thresholds it would fail.
func cmdCorpusSensitivity(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("corpus sensitivity", "corpus sensitivity [--config FILE] [--corpus DIR] [--instructions DIR]", `
		harness corpus sensitivity
		harness corpus sensitivity --config my-thresholds.yaml`, stderr)
	corpusDir, taskDir := corpusFlag(fs, new(string), "corpus"), instructionsFlag(fs, new(string), "instructions")
	configFile := configFlag(fs, new(string), "the weights and thresholds the table applies")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return usageError("corpus sensitivity: unexpected arguments %q", fs.Args())
	}
	cfg, err := config.LoadOrDefault(*configFile)
	if err != nil {
		return err
	}
	set, _, err := task.LoadAll(*corpusDir, *taskDir)
	if err != nil {
		return err
	}
	return sensitivity.Write(stdout, sensitivity.Table(set, cfg))
}
