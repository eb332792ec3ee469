package main

import (
	"context"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/bend"
)

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
