package main

import (
	"context"
	"io"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/pipeline"
)

// stdin is what --output - reads; tests replace it.
var stdin io.Reader = os.Stdin

func cmdScore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", "score --task FILE --output FILE", `
		harness score --task instructions/03-b.json --output answer.txt
		harness expect --task instructions/03-b.json | harness score --task instructions/03-b.json --output -
		harness score --task instructions/natural/03-b.json --output answer.txt   (new ids aligned first)
		harness score --task size-ladder/8k.tasks.json --id 8k-start-02-b --output answer.txt
		harness score --task instructions/03-b.json --formats json-patch --output patch.json   (applied to the source, then scored)`, stderr)
	taskFile, taskID := taskFileFlags(fs)
	output := fs.String("output", "", "the model's raw answer (a .bend document, bare or fenced); - reads standard input")
	format := fs.String("formats", "document", "the answer's format, one of "+strings.Join(formats.Names(), ", ")+": a patch is applied to the task's source document, then scored as a document answer")
	corpusDir := corpusFlag(fs, new(string), "corpus")
	configFile := configFlag(fs, new(string), "the drift weights")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *taskFile == "" || *output == "" || fs.NArg() > 0 {
		return wrongUsage(fs, "score: give --task and --output")
	}
	return pipeline.ScoreAnswer(stdout, pipeline.AnswerRequest{TaskFile: *taskFile, TaskID: *taskID, CorpusDir: *corpusDir, ConfigFile: *configFile, Format: *format, Output: *output, Stdin: stdin})
}
