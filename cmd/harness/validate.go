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
		harness validate out.bend.json && echo valid`, stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageError("validate: no files given")
	}
	bad, err := eachDocument(fs.Args(), stdout, stderr, func(name string, _ *bend.Document) (bool, error) {
		fmt.Fprintf(stdout, "%s: ok\n", name)
		return true, nil
	})
	if bad > 0 {
		fmt.Fprintf(stderr, "%d of %d files invalid\n", bad, fs.NArg())
	}
	return filesResult(bad, err)
}

// filesResult is the end of a command over files: the I/O error when a
// file could not be read (exit 2), else exit 1 when one was bad.
func filesResult(bad int, err error) error {
	if err == nil && bad > 0 {
		return failed()
	}
	return err
}

// eachDocument reads and validates each file, printing a document's
// problems to problems, and hands each valid document to use, which says
// whether it passes; it returns how many did not. A file that could not
// be read (missing, a directory) is no invalid document but an I/O
// failure: it is reported on stderr and makes the error (exit 2). An
// error from use stops the loop.
func eachDocument(names []string, problems, stderr io.Writer, use func(name string, d *bend.Document) (bool, error)) (bad int, err error) {
	unread := 0
	for _, name := range names {
		d, data, err := bend.LoadFile(name, stdin)
		ok := err == nil
		switch {
		case err != nil && data == nil:
			fmt.Fprintln(stderr, err)
			unread++
			continue
		case err != nil:
			fmt.Fprintln(problems, err)
		default:
			for _, e := range bend.Validate(d).WithFile(name) {
				fmt.Fprintln(problems, e)
				ok = false
			}
		}
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
	return bad, nil
}
