package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/transcript"
)

// ValidRunID reports whether id can name a run directory and its reports
// (transcript.ValidRunID: the one rule, for flags and files alike).
func ValidRunID(id string) bool { return transcript.ValidRunID(id) }

// NewRunID is the default run id: the UTC start time to the millisecond
// and four random hex digits, so that runs started in the same second do
// not collide and ids still sort by start time.
func NewRunID(now time.Time) string {
	return fmt.Sprintf("%s-%04x", now.UTC().Format("20060102T150405.000Z"), rand.IntN(1<<16))
}

// freeRunID draws default run ids until one names no existing run: two
// runs started in the same millisecond get different ids.
func freeRunID(outDir string, now time.Time) string {
	id := NewRunID(now)
	for range 16 {
		if _, err := os.Stat(filepath.Join(outDir, id)); errors.Is(err, fs.ErrNotExist) {
			break
		}
		id = NewRunID(now)
	}
	return id
}

// ResumeCommand is the command line that resumes the run in runDir. A
// resume sends requests (and the key) only to the API root its own
// command line or environment names: run.json's record of it is checked
// against that, never trusted alone. So the command names the run's API
// root when it is not OpenRouter's.
func ResumeCommand(command, runDir string, in transcript.Inputs) string {
	cmd := cmp.Or(command, "harness") + " run --resume " + runDir
	if in.BaseURL != "" && in.BaseURL != model.DefaultBaseURL {
		cmd += " --base-url " + in.BaseURL
	}
	return cmd
}

// RescoreCommand is the command line that scores the run in runDir again
// and writes its reports into reportDir.
func RescoreCommand(command, runDir, reportDir string) string {
	cmd := cmp.Or(command, "harness") + " rescore " + runDir
	if reportDir != "" && reportDir != DefaultReportDir {
		cmd = cmp.Or(command, "harness") + " rescore --out " + reportDir + " " + runDir
	}
	return cmd
}

// SelfCommand is the command that runs this binary again from the same
// directory, given its os.Args[0]: the path as typed (bin/harness,
// ./harness, a name on PATH), or "go run ./cmd/harness" for a binary go
// run built in a temporary directory (deleted when it exits).
func SelfCommand(arg0 string) string {
	switch {
	case arg0 == "":
		return "harness"
	case strings.Contains(arg0, "go-build"):
		return "go run ./cmd/harness"
	}
	return arg0
}

// suggestCap is the cap a resume after a capped run suggests: the known
// cost plus the estimate of the work left, rounded up to the cent; when
// nothing left has a listed price (no preflight), twice the old cap.
func suggestCap(spent, left, old float64) string {
	if left <= 0 {
		return strconv.FormatFloat(2*old, 'f', -1, 64)
	}
	return strconv.FormatFloat(math.Ceil((spent+left)*100)/100, 'f', -1, 64)
}
