package main

import (
	"flag"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/pipeline"
)

// The flags several commands share are defined here, once each, so that a
// name has one default and one help text everywhere. Each binds its flag
// to p and returns p: a command passes new(string), or the field of the
// request it fills (run).

// corpusFlag defines --corpus; def "" means the run's directory.
func corpusFlag(fs *flag.FlagSet, p *string, def string) *string {
	fs.StringVar(p, "corpus", def, "directory of corpus documents"+dataDefault("corpus", def))
	return p
}

// instructionsFlag defines --instructions; def "" means the run's
// directory.
func instructionsFlag(fs *flag.FlagSet, p *string, def string) *string {
	fs.StringVar(p, "instructions", def, "directory of tasks and prompts/"+dataDefault("tasks", def))
	return p
}

func dataDefault(what, def string) string {
	if def == "" {
		return " (default: the run's)"
	}
	return fmt.Sprintf(" (the embedded %s when ./%s does not exist; any other directory must exist)", what, def)
}

// configFlag defines --config; uses says what the command reads from it.
func configFlag(fs *flag.FlagSet, p *string, uses string) *string {
	fs.StringVar(p, "config", config.DefaultFile, "configuration file: "+uses+" (built-in defaults when ./harness.yaml does not exist)")
	return p
}

// reportsFlag defines the directory of reports: --reports of run, --out of
// rescore (its name since rescore was written).
func reportsFlag(fs *flag.FlagSet, p *string, name, note string) *string {
	fs.StringVar(p, name, pipeline.DefaultReportDir, "directory of reports: <run-id>.json, .md, .html and .csv"+note)
	return p
}

// baseURLFlag defines --base-url; note adds what the command does with it.
func baseURLFlag(fs *flag.FlagSet, p *string, note string) *string {
	fs.StringVar(p, "base-url", "", "OpenAI-compatible API root (default $OPENROUTER_BASE_URL, else OpenRouter)"+note)
	return p
}

// taskFileFlags defines --task and --id, the task file of expect and score.
func taskFileFlags(fs *flag.FlagSet) (file, id *string) {
	file = fs.String("task", "", "the task file: a gating, natural (natural/NN-x.json), inverse (inverse/NN-x.json) or size-ladder (<rung>.tasks.json) task, or a .bend.json document for its produce task (--id p or r)")
	id = fs.String("id", "", "the task of a size-ladder tasks file (<rung>.tasks.json) holding several; p or r for a document's produce task")
	return file, id
}

// commandName is how the user ran the harness, for commands it prints
// (the --resume line): main sets it from os.Args[0]
// (pipeline.SelfCommand).
var commandName = "harness"

// splitList splits a comma-separated flag value, dropping empty items:
// every list flag is split here, at the edge, and the pipeline takes
// []string.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
