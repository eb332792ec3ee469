package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/unit"
)

// ErrNoKey is returned when a run needs an online model and no key is set;
// errNoKeyAt begins the error of a run against another API root than
// OpenRouter's.
var ErrNoKey = errors.New("OPENROUTER_API_KEY is not set: export OPENROUTER_API_KEY=sk-or-... to run the gating models, or run `make demo` for the offline pipeline")
var errNoKeyAt = errors.New("OPENROUTER_API_KEY is not set")

// ErrVerdictFail is returned when a run or rescore completed and its
// verdict is fail; the report says why.
var ErrVerdictFail = errors.New("the verdict is fail")

// InterruptedError is returned when the run was cancelled: the finished
// transcripts are kept, and Resume is the command that finishes the run.
type InterruptedError struct {
	RunDir string
	Resume string // the command line that resumes the run
}

func (e *InterruptedError) Error() string {
	return "interrupted: finished transcripts are kept; resume with\n  " + e.Resume
}

// LockName is the lock file of a run directory: the process running or
// resuming the run holds an exclusive lock on it for the whole run.
const LockName = "run.lock"

// LockedError is returned when another process is running or resuming
// the same run: one run directory has one writer, or two processes would
// pay for the same jobs and move each other's transcripts aside.
type LockedError struct {
	RunDir string
	// Rescore is set when a rescore was refused: it would have reported
	// every job not yet answered as missing (issue 56: 17543 missing
	// transcripts, rc 1), or written the reports the running process
	// writes when it ends.
	Rescore bool
}

func (e *LockedError) Error() string {
	if e.Rescore {
		return fmt.Sprintf("run %s is in use by another harness process (it holds %s): it is still running, and writes its reports when it ends; a rescore now would count every job not yet answered as missing: wait for it to finish, then rescore", e.RunDir, filepath.Join(e.RunDir, LockName))
	}
	return fmt.Sprintf("run %s is in use by another harness process (it holds %s); nothing was sent: wait for it to finish, then resume if jobs are left", e.RunDir, LockName)
}

// BudgetError is returned when the run reached its spending cap
// (--max-cost): the jobs not started have no transcript, and Resume, which
// may raise the cap, finishes the run without paying twice.
type BudgetError struct {
	RunDir     string
	Spent, Max float64 // USD
	// Left is the estimate of the work left at the listed prices (0 when
	// no price is listed): the resume's cap is Spent plus Left.
	Left   float64
	Resume string // the command line that resumes the run
	// Unpriced counts the answers whose cost the cap could not count
	// (runner.Tally.Unpriced): the run stopped at the first.
	Unpriced int
}

func (e *BudgetError) Error() string {
	if e.Unpriced > 0 {
		return fmt.Sprintf("spending cap: %d %s reported no valid cost and no price is known to estimate it, so the cap of $%.4f cannot count %s; no further request was sent and the run is incomplete ($%.4f known cost). Resume where costs are reported or prices listed (without --no-preflight):\n  %s",
			e.Unpriced, unit.Plural(e.Unpriced, "answer", "answers"), e.Max, unit.Plural(e.Unpriced, "it", "them"), e.Spent, e.Resume)
	}
	left := ""
	if e.Left > 0 {
		left = fmt.Sprintf(" The work left is estimated at $%.4f: the cap below is the known cost plus that estimate.", e.Left)
	}
	return fmt.Sprintf("spending cap reached: $%.4f known cost against the cap of $%.4f; no further request was sent and the run is incomplete.%s Resume with a higher cap:\n  %s", e.Spent, e.Max, left, e.Resume)
}

// StoppedError is returned when jobs were left unanswered for a cause a
// resume cures once it is gone: the account ran out of credit mid-run
// (HTTP 402, not the reservation of one request's max_tokens), or rate
// limits outlasted the retries. No report is written (it would read as a
// failing model); the transcripts are kept, and Resume asks again exactly
// the jobs without an answer.
type StoppedError struct {
	RunDir string
	Causes []runner.Resumable
	Resume string // the command line that resumes the run
}

// advice says what to do about each cause before resuming.
var advice = map[string]string{
	"out of credit": "add credit (https://openrouter.ai/settings/credits)",
	"rate limited":  "wait, or lower concurrency.per_model",
}

func (e *StoppedError) Error() string {
	var b strings.Builder
	for _, c := range e.Causes {
		fmt.Fprintf(&b, "stopped: %d %s unanswered: %s (the first: %s); %s, then resume\n",
			c.Jobs, unit.Plural(c.Jobs, "job", "jobs"), c.Cause, c.First, advice[c.Cause])
	}
	fmt.Fprintf(&b, "no report was written; the transcripts are kept in %s. Resume with\n  %s", e.RunDir, e.Resume)
	return b.String()
}

// DownError is returned when every request to a model failed for one
// reason that the next request would meet again (a refused connection, an
// unknown host, a TLS failure, a bad key, no credit, an unknown model:
// model.ErrFatal): the run
// measured nothing of that model, so it has no verdict to give. The
// transcripts written are kept, and Resume asks again exactly the jobs
// that failed.
type DownError struct {
	RunDir string
	Down   []runner.Down
	Resume string // the command line that resumes the run
}

func (e *DownError) Error() string {
	var b strings.Builder
	for _, d := range e.Down {
		// The client's error already names the model: said once.
		fmt.Fprintf(&b, "could not run: %s: %s\n", d.Model, strings.TrimPrefix(d.Err, "model "+d.Model+": "))
	}
	fmt.Fprintf(&b, "no report was written; the transcripts are kept in %s. When the problem is fixed, resume with\n  %s", e.RunDir, e.Resume)
	return b.String()
}
