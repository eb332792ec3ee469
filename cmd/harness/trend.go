package main

import (
	"context"
	"io"

	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/trend"
)

// cmdTrend follows the headline numbers of any number of JSON reports in
// date order, each change from the previous report marked by compare's
// paired tests.
func cmdTrend(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("trend", "trend [--html FILE] REPORT.json...", `
		harness trend reports/*.json
		harness trend --html reports/trend.html reports/*.json >> "$GITHUB_STEP_SUMMARY"   # in a GitHub workflow: the viewer beside`, stderr)
	htmlOut := fs.String("html", "", "also write the trend as a self-contained HTML page to FILE, one line per model")
	if help, err := parseFlags(fs, args); help || err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return wrongUsage(fs, "trend: give one or more reports")
	}
	tr, err := trend.OfFiles(fs.Args())
	if err != nil {
		return err
	}
	if *htmlOut != "" {
		if err := atomicfile.Write(*htmlOut, tr.WriteHTML); err != nil {
			return err
		}
	}
	return tr.WriteMarkdown(stdout)
}
