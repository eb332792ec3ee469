package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/compare"
	"bendscript.com/round-trip-harness/internal/usage"
)

// cmdCompare compares two JSON reports in the manner of benchstat.
func cmdCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("compare", "compare [--format text|md|json] OLD.json NEW.json", `
		harness compare reports/demo-size.json reports/demo-formats.json   # two of make demo's size ladders: they share the 8k rung only, which it says first
		harness compare --format md reports/demo-size.json reports/demo-formats.json >> "$GITHUB_STEP_SUMMARY"   # in a GitHub workflow`, stderr)
	format := fs.String("format", "text", "text (aligned columns), md (Markdown tables, for pull requests) or json (the compare.Comparison struct, for scripts)")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return wrongUsage(fs, "compare: give two reports")
	}
	if *format != "text" && *format != "md" && *format != "json" {
		return usage.Errorf("compare: --format is text, md or json, not %q", *format)
	}
	c, err := compare.CompareFiles(fs.Arg(0), fs.Arg(1))
	if err != nil {
		return err
	}
	return c.Write(stdout, *format)
}
