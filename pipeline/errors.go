package pipeline

import (
	"errors"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/runner"
)

// ErrNoKey is returned when a run needs an online model and no key is set.
var ErrNoKey = errors.New("OPENROUTER_API_KEY is not set: export OPENROUTER_API_KEY=sk-or-... to run the gating models, or run `make demo` for the offline pipeline")

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
type LockedError struct{ RunDir string }

func (e *LockedError) Error() string {
	return fmt.Sprintf("run %s is in use by another harness process (it holds %s); nothing was sent: wait for it to finish, then resume if jobs are left", e.RunDir, LockName)
}

// BudgetError is returned when the run reached its spending cap
// (--max-cost): the jobs not started have no transcript, and Resume, which
// may raise the cap, finishes the run without paying twice.
type BudgetError struct {
	RunDir     string
	Spent, Max float64 // USD
	Resume     string  // the command line that resumes the run
	// Unpriced counts the answers whose cost the cap could not count
	// (runner.Tally.Unpriced): the run stopped at the first.
	Unpriced int
}

func (e *BudgetError) Error() string {
	if e.Unpriced > 0 {
		return fmt.Sprintf("spending cap: %d %s reported no valid cost and no price is known to estimate it, so the cap of $%.4f cannot count %s; no further request was sent and the run is incomplete ($%.4f known cost). Resume where costs are reported or prices listed (without --no-preflight):\n  %s",
			e.Unpriced, report.Plural(e.Unpriced, "answer", "answers"), e.Max, report.Plural(e.Unpriced, "it", "them"), e.Spent, e.Resume)
	}
	return fmt.Sprintf("spending cap reached: $%.4f known cost against the cap of $%.4f; no further request was sent and the run is incomplete. Resume with a higher cap:\n  %s", e.Spent, e.Max, e.Resume)
}

// DownError is returned when every request to a model failed for one
// reason that the next request would meet again (a refused connection, an
// unknown host, a TLS failure, HTTP 400, 401, 402, 403 or 404): the run
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
