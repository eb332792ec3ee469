package report

import (
	"fmt"

	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/verdict"
)

// gateStat reads a gated statistic of a class: its value, its exact
// interval, a document's own value (whether a document falls short of the
// limit by itself) and the statistic over one repeat's answers alone (its
// spread across repeats). Whether it is a share or a P95 is the verdict's
// (verdict.Stat).
type gateStat struct {
	value    func(*ClassResult) *float64
	interval func(*ClassResult) *Interval
	document func(DocumentResult) *float64
	repeat   func(docs []DocumentResult, r int) *float64
}

// ofRepeat is a statistic of the values one repeat's answers have (one
// per document that has it), or nil when none has.
func ofRepeat(value func(RepeatResult) *float64, statistic func([]float64) float64) func([]DocumentResult, int) *float64 {
	return func(docs []DocumentResult, r int) *float64 {
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
func asShare(has answerProperty) func(RepeatResult) *float64 {
	return func(r RepeatResult) *float64 {
		h, known := has(r)
		if !known || r.Status != "scored" {
			return nil
		}
		return ptr(float64(b2i(h)))
	}
}

func repeatDrift(r RepeatResult) *float64    { return r.Drift }
func repeatResidual(r RepeatResult) *float64 { return r.Residual }
func repeatFaithful(r RepeatResult) *float64 {
	if r.Faithful == nil {
		return nil
	}
	return ptr(float64(b2i(*r.Faithful)))
}

// Gated is the number a threshold is on, of a model's results; nil when
// it was not measured.
func (mr *ModelResult) Gated(t Threshold) *float64 {
	if c := mr.Class(t.Class); c != nil {
		return gateStats[t.Stat].value(c)
	}
	return nil
}

// GatedInterval is the exact interval of the number a threshold is on;
// nil when there is none.
func (mr *ModelResult) GatedInterval(t Threshold) *Interval {
	if c := mr.Class(t.Class); c != nil {
		return gateStats[t.Stat].interval(c)
	}
	return nil
}

// Threshold is one threshold on one gated statistic (verdict.Threshold).
type Threshold = verdict.Threshold

// Checks lists the thresholds of the report's configuration: §8.5's five
// in the order of the §8.7 fields, then the harness's own gates.
func (r *Report) Checks() []Threshold { return verdict.Table(r.Thresholds) }

// The harness's own metrics, beside §8.5's (Failure.Metric).
const (
	MetricClassBEditApplied = verdict.MetricClassBEditApplied
	MetricClassCEditApplied = verdict.MetricClassCEditApplied
	MetricClassBResidualP95 = verdict.MetricClassBResidualP95
	MetricClassCResidualP95 = verdict.MetricClassCResidualP95
	MetricClassBInvalid     = verdict.MetricClassBInvalid
	MetricClassCInvalid     = verdict.MetricClassCInvalid
	MetricClassBUnchanged   = verdict.MetricClassBUnchanged
	MetricClassCUnchanged   = verdict.MetricClassCUnchanged
)

// gated reports whether the report's suite applies the thresholds: the
// gating suite does, and so does "all" (on its gating tasks).
func (r *Report) gated() bool { return suites.Of(r.Suite).Gates }

// gateStats reads each gated statistic of a class.
var gateStats = map[verdict.Stat]gateStat{
	verdict.StatFaithfulness: {func(c *ClassResult) *float64 { return c.Faithfulness },
		func(c *ClassResult) *Interval { return c.FaithfulnessInterval }, func(d DocumentResult) *float64 { return d.Faithful },
		ofRepeat(repeatFaithful, stats.Mean)},
	verdict.StatMedian: {func(c *ClassResult) *float64 { return c.MedianDrift },
		func(c *ClassResult) *Interval { return c.MedianInterval }, func(d DocumentResult) *float64 { return d.Drift },
		ofRepeat(repeatDrift, stats.Median)},
	verdict.StatP95: {func(c *ClassResult) *float64 { return c.P95Drift },
		func(c *ClassResult) *Interval { return c.P95Interval }, func(d DocumentResult) *float64 { return d.Drift },
		ofRepeat(repeatDrift, stats.P95)},
	verdict.StatApplied: {func(c *ClassResult) *float64 { return c.EditsApplied },
		func(c *ClassResult) *Interval { return c.EditAppliedInterval }, func(d DocumentResult) *float64 { return shareOf(d, applied) },
		ofRepeat(asShare(applied), stats.Mean)},
	verdict.StatResidualP95: {func(c *ClassResult) *float64 { return c.ResidualP95 },
		func(c *ClassResult) *Interval { return c.ResidualP95Interval }, func(d DocumentResult) *float64 { return d.Residual },
		ofRepeat(repeatResidual, stats.P95)},
	verdict.StatInvalid: {func(c *ClassResult) *float64 { return c.InvalidShare },
		func(c *ClassResult) *Interval { return c.InvalidInterval }, func(d DocumentResult) *float64 { return shareOf(d, invalid) },
		ofRepeat(asShare(invalid), stats.Mean)},
	verdict.StatUnchanged: {func(c *ClassResult) *float64 { return c.Unchanged },
		func(c *ClassResult) *Interval { return c.UnchangedInterval }, func(d DocumentResult) *float64 { return shareOf(d, unchanged) },
		ofRepeat(asShare(unchanged), stats.Mean)},
}

// failures enumerates every reason the verdict fails (verdict.Failures),
// over the measures of each model.
func failures(r *Report) []Failure {
	run := verdict.Run{Gates: r.gated(), Tasks: r.Tasks}
	if r.Partial != nil {
		run.Partial, run.Of = fmt.Sprintf("%s", r.Partial), r.Partial.Of
	}
	return verdict.Failures(r.Checks(), run, measuredModels(r))
}

// requestFailures are a model's answers that failed for their own request
// (Scope "request": a refusal, a moderation block), in class, task and
// repeat order: they are why the run is incomplete although the model
// answered its other tasks.
func requestFailures(mr *ModelResult) []verdict.FailedCall {
	var out []verdict.FailedCall
	for _, class := range Classes {
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
func firstAPIError(mr *ModelResult) string {
	for _, class := range Classes {
		if c := mr.Class(class); c != nil && c.FirstAPIError != "" {
			return c.FirstAPIError
		}
	}
	return ""
}

// Incomplete counts what makes a model's run incomplete, over every
// answer the run planned in every part and answer format (Calls) and the
// judges' votes.
func (r *Report) Incomplete(model string) verdict.Incomplete {
	var n verdict.Incomplete
	for _, c := range r.Calls {
		if c.Model == model {
			n.Missing += c.Missing
			n.APIErrors += c.APIErrors
		}
	}
	if mr := r.Results[model]; mr != nil && mr.ClassA != nil && mr.ClassA.Judging != nil {
		n.Undecided += mr.ClassA.Judging.Undecided
		n.JudgeAPIErrors += mr.ClassA.Judging.JudgeAPIErrors
	}
	return n
}

// Planned counts the answers the run planned of a model, in every part and
// answer format.
func (r *Report) Planned(model string) int {
	n := 0
	for _, c := range r.Calls {
		if c.Model == model {
			n += c.Planned
		}
	}
	return n
}
