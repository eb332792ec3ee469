package main

import (
	"cmp"
	"context"
	"io"
	"os"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites"
)

// cmdCompare compares two JSON reports in the manner of benchstat.
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "compare [--format text|md|json] OLD.json NEW.json", `
		harness compare reports/20261101T000000Z.json reports/20261122T101500Z.json
		harness compare --format md reports/old.json reports/new.json >> "$GITHUB_STEP_SUMMARY"`, stderr)
	format := fs.String("format", "text", "text (aligned columns), md (Markdown tables, for pull requests) or json (the report.Comparison struct, for scripts)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return usageError("compare: give two reports")
	}
	if *format != "text" && *format != "md" && *format != "json" {
		return usageError("compare: --format is text, md or json, not %q", *format)
	}
	reps, err := readReports(fs.Args())
	if err != nil {
		return err
	}
	// Reports of different suites measure different tasks: their numbers
	// pair by model and class but mean different things.
	if a, b := cmp.Or(reps[0].Suite, suites.Gating), cmp.Or(reps[1].Suite, suites.Gating); a != b {
		return usageError("compare: %s is a %s report and %s a %s report; compare two reports of one suite", fs.Arg(0), a, fs.Arg(1), b)
	}
	c := report.Compare(reps[0], reps[1], fs.Arg(0), fs.Arg(1))
	switch *format {
	case "md":
		return c.WriteMarkdown(stdout)
	case "json":
		return c.WriteJSON(stdout)
	}
	return c.WriteText(stdout)
}

// readReports reads JSON reports, in the order named.
func readReports(names []string) ([]*report.Report, error) {
	reps := make([]*report.Report, len(names))
	for i, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		reps[i], err = report.ReadJSON(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return reps, nil
}
