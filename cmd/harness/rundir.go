package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/internal/usage"
	"bendscript.com/round-trip-harness/transcript"
)

// runsDir is where harness run writes run directories by default, and
// where a bare run id is looked up.
const runsDir = "runs"

// runDirOf is the run directory an argument names, for every command that
// takes a run (show, rescore, run --resume): a directory holding run.json,
// or the id of a run in runs/ (issue 46: rescore and --resume refused the
// bare id that show took). Anything else is refused with what a run is and
// how to list them (rescore reports printed only "open
// reports/run.json: no such file or directory", and rescore
// runs/x/run.json ".../run.json/run.json: not a directory").
func runDirOf(cmd, arg string) (string, error) {
	if isRunDir(arg) {
		return arg, nil
	}
	if !strings.ContainsRune(arg, filepath.Separator) && transcript.ValidRunID(arg) && isRunDir(filepath.Join(runsDir, arg)) {
		return filepath.Join(runsDir, arg), nil
	}
	const what = "a run is a directory holding " + transcript.ManifestName + " (runs/<run-id>/, as harness run writes it), or its run id in runs/; harness runs lists the runs in runs/"
	st, err := os.Stat(arg)
	switch {
	case filepath.Base(arg) == transcript.ManifestName && err == nil && !st.IsDir():
		return "", usage.Errorf("%s: %s is a run's manifest; give its directory: %s", cmd, arg, filepath.Dir(arg))
	case errors.Is(err, fs.ErrNotExist):
		return "", usage.Errorf("%s: no run %s: %s", cmd, arg, what)
	case err == nil && st.IsDir():
		return "", usage.Errorf("%s: %s is not a run (it holds no %s): %s", cmd, arg, transcript.ManifestName, what)
	case err == nil:
		return "", usage.Errorf("%s: %s is a file, not a run: %s", cmd, arg, what)
	}
	return "", usage.Errorf("%s: %s: %v: %s", cmd, arg, err, what)
}

// isRunDir reports whether dir is a directory holding a run.json (which
// ReadRun then reads and checks).
func isRunDir(dir string) bool {
	st, err := os.Lstat(filepath.Join(dir, transcript.ManifestName))
	return err == nil && !st.IsDir()
}
