package main

import (
	"context"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/bend"
)

func cmdValidate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("validate", "validate FILE...", `
		harness validate corpus/*.bend.json
		harness expect --task instructions/16-c.json | harness validate - && echo valid`, stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return wrongUsage(fs, "validate: no files given")
	}
	bad, err := eachDocument(fs.Args(), stdout, stderr, func(name string, _ *bend.Document) (bool, error) {
		fmt.Fprintf(stdout, "%s: ok\n", name)
		return true, nil
	})
	if bad > 0 {
		fmt.Fprintf(stderr, "%d of %d files invalid\n", bad, fs.NArg())
	}
	return err
}

// eachDocument checks each file (bend.CheckFile), printing an invalid
// document's problems to problems, and hands each valid document to use,
// which says whether it passes. It returns how many did not, and the
// command's end: a file that could not be read is an I/O failure (exit 2,
// reported on stderr), else one that did not pass exits 1. An error from
// use ends the loop.
func eachDocument(names []string, problems, stderr io.Writer, use func(name string, d *bend.Document) (bool, error)) (bad int, err error) {
	unread := 0
	for _, name := range names {
		d, probs, err := bend.CheckFile(name, stdin)
		if err != nil {
			fmt.Fprintln(stderr, err)
			unread++
			continue
		}
		for _, p := range probs {
			fmt.Fprintln(problems, p)
		}
		ok := d != nil
		if ok {
			if ok, err = use(name, d); err != nil {
				return bad, err
			}
		}
		if !ok {
			bad++
		}
	}
	if unread > 0 {
		return bad, &exitError{exitCantRun, fmt.Errorf("%d of %d files could not be read", unread, len(names))}
	}
	if bad > 0 {
		return bad, failed()
	}
	return 0, nil
}
