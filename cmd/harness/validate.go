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
	bad, unread := 0, 0
	for _, name := range fs.Args() {
		d, data, err := bend.LoadFile(name, stdin)
		switch {
		case err != nil && data == nil:
			// Not a document that is invalid: a file that could not be
			// read (missing, a directory) is an I/O failure, exit 2.
			fmt.Fprintln(stderr, err)
			unread++
			continue
		case err != nil:
			fmt.Fprintln(stdout, err)
			bad++
			continue
		}
		if errs := bend.Validate(d); len(errs) > 0 {
			for _, e := range errs.WithFile(name) {
				fmt.Fprintln(stdout, e)
			}
			bad++
			continue
		}
		fmt.Fprintf(stdout, "%s: ok\n", name)
	}
	if bad > 0 {
		fmt.Fprintf(stderr, "%d of %d files invalid\n", bad, fs.NArg())
	}
	if unread > 0 {
		return &exitError{exitCantRun, fmt.Errorf("%d of %d files could not be read", unread, fs.NArg())}
	}
	if bad > 0 {
		return failed()
	}
	return nil
}
