package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
)

// stdin is what --output - reads; tests replace it.
var stdin io.Reader = os.Stdin

func cmdScore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("score", "score --task FILE --output FILE", `
		harness score --task instructions/03-b.json --output answer.txt
		harness expect --task instructions/03-b.json | harness score --task instructions/03-b.json --output -
		harness score --task instructions/natural/03-b.json --output answer.txt   (new ids aligned first)
		harness score --task ladder/8k.tasks.json --id 8k-start-02-b --output answer.txt`, stderr)
	taskFile, taskID := taskFileFlags(fs)
	output := fs.String("output", "", "the model's raw answer (a .bend document, bare or fenced); - reads standard input")
	corpusDir := corpusFlag(fs, new(string), "corpus")
	configFile := configFlag(fs, new(string), "the drift weights")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if *taskFile == "" || *output == "" || fs.NArg() > 0 {
		fs.Usage()
		return usageError("score: give --task and --output")
	}
	cfg, err := config.LoadOrDefault(*configFile)
	if err != nil {
		return err
	}
	t, err := task.FromFile(*taskFile, *corpusDir, *taskID)
	if err != nil {
		return err
	}
	raw, err := bend.ReadFile(*output, stdin)
	if err != nil {
		return err
	}
	var res any
	if t.Class == task.ClassA {
		res = metric.ScoreAnswer(t.Source.Doc, string(raw))
	} else {
		res = scoring.Metric(t, string(raw), cfg.Weights)
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}
