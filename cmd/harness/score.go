package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
)

// stdin is what --output - reads; tests replace it.
var stdin io.Reader = os.Stdin

func cmdScore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", "score --task FILE --output FILE", `
		harness expect --task instructions/03-b.json > answer.txt   # an answer to score (here the expected document)
		harness score --task instructions/03-b.json --output answer.txt
		harness expect --task instructions/03-b.json | harness score --task instructions/03-b.json --output -
		harness score --task instructions/natural/03-b.json --output answer.txt   (new ids aligned first)
		harness score --task size-ladder/8k.tasks.json --id 8k-start-02-b --output answer.txt   # after harness corpus ladder --out size-ladder
		echo '[]' | harness score --task instructions/03-b.json --formats json-patch --output -   # a patch, applied to the source, then scored`, stderr)
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
	return scoreAnswer(stdout, answerRequest{TaskFile: *taskFile, TaskID: *taskID, CorpusDir: *corpusDir, ConfigFile: *configFile, Format: *format, Output: *output, Stdin: stdin})
}

// answerRequest is harness score's command line: one model answer to one
// task.
type answerRequest struct {
	// TaskFile and TaskID name the task (task.FromFile), CorpusDir its
	// documents.
	TaskFile, TaskID, CorpusDir string
	// ConfigFile gives the drift weights (config.LoadOrDefault).
	ConfigFile string
	// Format is the answer's format (package formats; "" or "document"
	// for a whole document).
	Format string
	// Output is the file of the raw answer; "-" reads Stdin.
	Output string
	Stdin  io.Reader
}

// scoreAnswer scores one answer as a run scores it (scoring.Answer) and
// writes the score to w as indented JSON.
func scoreAnswer(w io.Writer, r answerRequest) error {
	cfg, err := config.LoadOrDefault(r.ConfigFile)
	if err != nil {
		return err
	}
	t, err := task.FromFile(r.TaskFile, r.CorpusDir, r.TaskID)
	if err != nil {
		return err
	}
	if formats.Lookup(r.Format) == nil {
		return usage.Errorf("score: --formats takes one of %s, not %q", strings.Join(formats.Names(), ", "), r.Format)
	}
	if !formats.Of(r.Format).Whole && t.Class != task.ClassA {
		t = t.InFormat(r.Format)
	}
	raw, err := bend.ReadFile(r.Output, r.Stdin)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(scoring.Answer(t, string(raw), cfg.Weights), "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
