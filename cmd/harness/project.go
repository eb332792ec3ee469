package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/projection"
)

// cmdProject renders a .bend file as the harness's text projection
// (docs/projection.md), or with --parse reads a projection back into .bend
// JSON with its id computed. A file that is not what the command reads is
// a negative result (exit 1) named by file, line and rule; a file that
// cannot be read exits 2.
func cmdProject(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("project", "project [--parse] FILE", `
		harness project corpus/17-memory-deployment-preferences.bend.json
		harness project corpus/17-memory-deployment-preferences.bend.json > 17.md
		harness project --parse 17.md
		harness project corpus/01-birdwatching-field-notes.bend.json | harness project --parse -`, stderr)
	parse := fs.Bool("parse", false, "read a projection (FILE) and print the .bend JSON it describes, with its computed id")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return wrongUsage(fs, "project: give one FILE (- reads stdin)")
	}
	name := fs.Arg(0)
	data, err := bend.ReadFile(name, stdin)
	if err != nil {
		return err
	}
	if *parse {
		d, err := projection.Parse(string(data))
		var pe *projection.Error
		if errors.As(err, &pe) {
			fmt.Fprintf(stderr, "%s:%d: %s\n", name, pe.Line, pe.Msg)
			return failed()
		}
		if err != nil {
			return err
		}
		_, err = stdout.Write(bend.Marshal(d))
		return err
	}
	d, err := bend.Parse(data)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return failed()
	}
	text, err := projection.Render(d)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return failed()
	}
	_, err = io.WriteString(stdout, text)
	return err
}
