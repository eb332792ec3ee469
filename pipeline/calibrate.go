package pipeline

import (
	"context"
	"time"

	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// calibrationConcurrency bounds the calibration calls in flight, per judge
// and in all: a calibration is small, and a judge's provider should not
// see it as a burst.
const calibrationConcurrency = 4

// Calibrate asks each judge about each labelled case (judge.CalibrationCalls)
// as runner jobs, under the runner's limits, job deadline (jobTimeout) and
// fatal-error rule, and scores the votes against the labels
// (judge.Calibration). The runner has no directory: a calibration is not a
// run, has nothing to resume and nothing reads its transcripts back, so
// they are returned and never archived.
//
// Judge failures are votes without a verdict, counted in the report; the
// error is for configuration (no judge, a judge without a client, a case
// that is not a class A task of set) and the end of ctx.
func Calibrate(ctx context.Context, clients map[string]model.Client, set *task.Set, cases []judge.Case, judges []string, jobTimeout time.Duration) (*judge.CalibrationReport, error) {
	calls, err := judge.CalibrationCalls(set, cases, judges)
	if err != nil {
		return nil, err
	}
	jobs := make([]runner.Job, len(calls))
	for i, c := range calls {
		jobs[i] = runner.Job{Model: c.Judge, Request: c.Request, Record: c.Record}
	}
	r := &runner.Runner{Clients: clients, PerModel: calibrationConcurrency, Global: calibrationConcurrency, JobTimeout: jobTimeout}
	results, err := r.Run(ctx, jobs)
	if err != nil {
		return nil, err
	}
	replies := make([]*transcript.Transcript, len(results))
	for i, res := range results {
		replies[i] = res.Transcript
	}
	return judge.Calibration(set, cases, judges, replies), nil
}
