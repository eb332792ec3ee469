package runner

// Progress receives the runner's events: Add when a model's planned jobs
// are counted, Done when a job ends with a transcript. Implementations
// must be safe for concurrent use.
//
// A model's total is its planned jobs, counted before the run (Add, and
// Job.Counted for the follow-ups it planned) or when an uncounted job
// joins the queue; it does not grow while the run goes on. It shrinks
// (Add with n < 0) when planned jobs will not be asked: the later steps
// of a chain that ended. A job beyond the plan (Job.Extra, a feedback
// round) is counted beside the total, never in it, so that done reaches
// the total exactly when the planned jobs have ended (issue 34: the bar's
// total grew as rounds were asked, and a relay ended at 72/80).
type Progress interface {
	Add(model string, n int)
	Done(res Result)
}
