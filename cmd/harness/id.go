package main

import (
	"context"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/transcript"
)

func cmdID(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("id", "id [--check | --write] FILE...", `
		harness id doc.bend.json
		harness id --check corpus/*.bend.json
		harness id --write corpus/07-go-retry.bend.json`, stderr)
	check := fs.Bool("check", false, "exit 1 when a file's declared id differs from its computed id")
	write := fs.Bool("write", false, "rewrite the id field (and self-references that used the old id) in place")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageError("id: no files given")
	}
	if *check && *write {
		return usageError("id: --check and --write exclude each other")
	}
	bad, unread := 0, 0
	for _, name := range fs.Args() {
		d, data, err := bend.LoadFile(name, stdin)
		if err != nil {
			fmt.Fprintln(stderr, err)
			if data == nil {
				unread++ // I/O, not a negative result: exit 2
			} else {
				bad++
			}
			continue
		}
		if errs := bend.Validate(d); len(errs) > 0 {
			// An invalid document has no id worth printing, and --write
			// must not rewrite it.
			for _, e := range errs.WithFile(name) {
				fmt.Fprintln(stderr, e)
			}
			bad++
			continue
		}
		id, err := bend.ID(d)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			bad++
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", name, id)
		switch {
		case *check && d.ID != id:
			fmt.Fprintf(stderr, "%s: /id: declared %q, computed %q (§5.1)\n", name, d.ID, id)
			bad++
		case *write && d.ID != id:
			bend.SetID(d, id)
			if err := transcript.WriteFileAtomic(name, bend.Marshal(d)); err != nil {
				return err
			}
		}
	}
	if unread > 0 {
		return &exitError{exitCantRun, fmt.Errorf("%d of %d files could not be read", unread, fs.NArg())}
	}
	if bad > 0 {
		return failed()
	}
	return nil
}
