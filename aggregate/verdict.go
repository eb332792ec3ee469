package aggregate

import (
	"fmt"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/verdict"
)

// gateStat reads a gated statistic out of a class's documents: a
// document's own value (whether a document falls short of the limit by
// itself) and the statistic over one repeat's answers alone (its spread
// across repeats). Its value and interval are the class result's fields
// (report.ModelResult.Gated); whether it is a share or a P95 is the
// verdict's (verdict.Stat).
type gateStat struct {
	document func(report.DocumentResult) *float64
	repeat   func(docs []report.DocumentResult, r int) *float64
}

// ofRepeat is a statistic of the values one repeat's answers have (one
// per document that has it), or nil when none has.
func ofRepeat(value func(report.RepeatResult) *float64, statistic func([]float64) float64) func([]report.DocumentResult, int) *float64 {
	return func(docs []report.DocumentResult, r int) *float64 {
		var xs []float64
		for _, d := range docs {
			if r < len(d.Repeats) {
				if v := value(d.Repeats[r]); v != nil {
					xs = append(xs, *v)
				}
			}
		}
		if len(xs) == 0 {
			return nil
		}
		return ptr(statistic(xs))
	}
}

// asShare reads an answer property as 1 or 0 (nil when unknown).
func asShare(has answerProperty) func(report.RepeatResult) *float64 {
	return func(r report.RepeatResult) *float64 {
		h, known := has(r)
		if !known || r.Status != "scored" {
			return nil
		}
		return ptr(float64(b2i(h)))
	}
}

func repeatDrift(r report.RepeatResult) *float64 { return r.Drift }

func repeatResidual(r report.RepeatResult) *float64 { return r.Residual }

func repeatFaithful(r report.RepeatResult) *float64 {
	if r.Faithful == nil {
		return nil
	}
	return ptr(float64(b2i(*r.Faithful)))
}

// gateStats reads each gated statistic of a class's documents.
var gateStats = map[verdict.Stat]gateStat{
	verdict.StatFaithfulness: {func(d report.DocumentResult) *float64 { return d.Faithful }, ofRepeat(repeatFaithful, stats.Mean)},
	verdict.StatMedian:       {func(d report.DocumentResult) *float64 { return d.Drift }, ofRepeat(repeatDrift, stats.Median)},
	verdict.StatP95:          {func(d report.DocumentResult) *float64 { return d.Drift }, ofRepeat(repeatDrift, stats.P95)},
	verdict.StatApplied:      {func(d report.DocumentResult) *float64 { return shareOf(d, applied) }, ofRepeat(asShare(applied), stats.Mean)},
	verdict.StatResidualP95:  {func(d report.DocumentResult) *float64 { return d.Residual }, ofRepeat(repeatResidual, stats.P95)},
	verdict.StatInvalid:      {func(d report.DocumentResult) *float64 { return shareOf(d, invalid) }, ofRepeat(asShare(invalid), stats.Mean)},
	verdict.StatUnchanged:    {func(d report.DocumentResult) *float64 { return shareOf(d, unchanged) }, ofRepeat(asShare(unchanged), stats.Mean)},
}

// failures enumerates every reason the verdict fails (verdict.Failures),
// over the measures of each model; gates is whether the run's suite
// applies the thresholds.
func failures(r *report.Report, gates bool) []verdict.Failure {
	run := verdict.Run{Gates: gates, Tasks: r.Tasks}
	if r.Partial != nil {
		run.Partial, run.Of = fmt.Sprintf("%s", r.Partial), r.Partial.Of
	}
	return verdict.Failures(r.Checks(), run, measuredModels(r))
}

// requestFailures are a model's answers that failed for their own request
// (Scope "request": a refusal, a moderation block), in class, task and
// repeat order: they are why the run is incomplete although the model
// answered its other tasks.
func requestFailures(mr *report.ModelResult) []verdict.FailedCall {
	var out []verdict.FailedCall
	for _, class := range report.Classes {
		if c := mr.Class(class); c != nil {
			for _, f := range c.FailedCalls {
				if f.Scope == "request" {
					out = append(out, verdict.FailedCall{TaskID: f.TaskID, Repeat: f.Repeat, Reason: f.Reason})
				}
			}
		}
	}
	return out
}

// firstAPIError is the first API error of a model's answers, by class.
func firstAPIError(mr *report.ModelResult) string {
	for _, class := range report.Classes {
		if c := mr.Class(class); c != nil && c.FirstAPIError != "" {
			return c.FirstAPIError
		}
	}
	return ""
}
