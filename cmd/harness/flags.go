package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/pipeline"
)

// The flags several commands share are defined here, once each, so that a
// name has one default and one help text everywhere.

// corpusFlag defines --corpus; def "" means the run's directory.
func corpusFlag(fs *flag.FlagSet, def string) *string {
	return fs.String("corpus", def, "directory of corpus documents"+dataDefault("corpus", def))
}

// instructionsFlag defines --instructions; def "" means the run's
// directory.
func instructionsFlag(fs *flag.FlagSet, def string) *string {
	return fs.String("instructions", def, "directory of tasks and prompts/"+dataDefault("tasks", def))
}

func dataDefault(what, def string) string {
	if def == "" {
		return " (default: the run's)"
	}
	return fmt.Sprintf(" (the embedded %s when ./%s does not exist; any other directory must exist)", what, def)
}

// configFlag defines --config; uses says what the command reads from it.
func configFlag(fs *flag.FlagSet, uses string) *string {
	return fs.String("config", "harness.yaml", "configuration file: "+uses+" (built-in defaults when ./harness.yaml does not exist)")
}

// reportsFlag defines the directory of reports: --reports of run, --out of
// rescore (its name since rescore was written).
func reportsFlag(fs *flag.FlagSet, name, note string) *string {
	return fs.String(name, pipeline.DefaultReportDir, "directory of reports: <run-id>.json, .md, .html and .csv"+note)
}

// baseURLFlag defines --base-url; note adds what the command does with it.
func baseURLFlag(fs *flag.FlagSet, note string) *string {
	return fs.String("base-url", "", "OpenAI-compatible API root (default $OPENROUTER_BASE_URL, else OpenRouter)"+note)
}

// taskFileFlags defines --task and --id, the task file of expect and score.
func taskFileFlags(fs *flag.FlagSet) (file, id *string) {
	file = fs.String("task", "", "the task file: a gating, natural (natural/NN-x.json), inverse (inverse/NN-x.json) or size-ladder (<rung>.tasks.json) task")
	id = fs.String("id", "", "the task of a size-ladder tasks file (<rung>.tasks.json) holding several")
	return file, id
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// loadConfig reads the configuration file, or the defaults when the file
// does not exist and was not asked for explicitly.
func loadConfig(path string) (*config.Config, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && path == "harness.yaml" {
		return config.Default(), nil
	}
	return config.Load(path)
}

// commandName is how the user ran the harness, for commands it prints
// (the --resume line): main sets it from os.Args[0].
var commandName = "harness"

// selfName is the command that runs this binary again from the same
// directory: the path as typed (bin/harness, ./harness, a name on PATH),
// or "go run ./cmd/harness" for a binary go run built in a temporary
// directory.
func selfName(arg0 string) string {
	switch {
	case arg0 == "":
		return "harness"
	case strings.Contains(arg0, "go-build"):
		return "go run ./cmd/harness"
	}
	return arg0
}
