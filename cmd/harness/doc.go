package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/transcript"
)

// readBounded reads a file ("-" is standard input) of at most
// bend.MaxSize bytes. A larger file is refused before it is read: a
// regular file by its size, anything else (a pipe) after MaxSize+1 bytes,
// so that memory stays bounded whatever the input.
func readBounded(name string) ([]byte, error) {
	var r io.Reader = stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > bend.MaxSize {
			return nil, tooLarge(name, st.Size())
		}
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, bend.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > bend.MaxSize {
		return nil, tooLarge(name, -1)
	}
	return data, nil
}

func tooLarge(name string, size int64) error {
	msg := fmt.Sprintf("over the %d-byte limit", bend.MaxSize)
	if size >= 0 {
		msg = fmt.Sprintf("file is %d bytes, over the %d-byte limit", size, bend.MaxSize)
	}
	return &bend.Error{File: name, Msg: msg, Section: "3"}
}

// loadDocument reads and parses a .bend file; errors name the file.
func loadDocument(name string) (*bend.Document, []byte, error) {
	data, err := readBounded(name)
	if err != nil {
		return nil, nil, err
	}
	d, err := bend.Parse(data)
	if err != nil {
		if be, ok := err.(*bend.Error); ok {
			c := *be
			c.File = name
			return nil, data, &c
		}
		return nil, data, fmt.Errorf("%s: %w", name, err)
	}
	return d, data, nil
}

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
		d, data, err := loadDocument(name)
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
		d, data, err := loadDocument(name)
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
				return &exitError{exitCantRun, err}
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

func cmdVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", "version", "harness version", stderr)
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	fmt.Fprintf(stdout, "harness %s (BendScript %s)\n", Version, bend.Version)
	return nil
}

// Version is the harness version recorded in transcripts and reports.
const Version = "0.1.0"
