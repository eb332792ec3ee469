package main

import (
	"context"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/usage"
)

func cmdID(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("id", "id [--check | --write] FILE...", `
		harness id corpus/01-birdwatching-field-notes.bend.json
		harness id --check corpus/*.bend.json
		harness id --write corpus/07-go-retry-loop.bend.json`, stderr)
	check := fs.Bool("check", false, "exit 1 when a file's declared id differs from its computed id")
	write := fs.Bool("write", false, "rewrite the id field (and self-references that used the old id) in place")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return wrongUsage(fs, "id: no files given")
	}
	if *check && *write {
		return usage.Errorf("id: --check and --write exclude each other")
	}
	_, err := eachDocument(fs.Args(), stderr, stderr, func(name string, d *bend.Document) (bool, error) {
		id, err := bend.ID(d)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return false, nil
		}
		fmt.Fprintf(stdout, "%s\t%s\n", name, id)
		switch {
		case *check && d.ID != id:
			fmt.Fprintf(stderr, "%s: /id: declared %q, computed %q (§5.1)\n", name, d.ID, id)
			return false, nil
		case *write && d.ID != id:
			bend.SetID(d, id)
			return true, atomicfile.WriteFile(name, bend.Marshal(d))
		}
		return true, nil
	})
	return err
}
