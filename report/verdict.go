package report

import (
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/unit"
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

// failures enumerates every reason the verdict fails: each threshold that
// does not hold, and each incomplete model.
func failures(r *Report) []Failure {
	out := []Failure{}
	if len(r.Models) == 0 {
		out = append(out, Failure{Metric: MetricIncomplete, Op: "<=", Message: "the run has no models"})
	}
	if r.Partial != nil && r.gated() {
		out = append(out, Failure{Metric: MetricPartial, Op: "<=", Message: fmt.Sprintf(
			"partial run (%s: %d of the suite's %d tasks): a selection can never give the gating verdict pass", r.Partial, r.Tasks, r.Partial.Of)})
	}
	out = append(out, incomplete(r)...)
	for _, model := range r.Models {
		mr := r.Results[model]
		for _, t := range r.Checks() {
			if !r.gated() {
				break // an informational suite is judged on completeness alone
			}
			v := mr.Gated(t)
			if t.Holds(v) || (v == nil && mr.Class(t.Class) == nil && r.Partial != nil) {
				continue // held, or not selected: a class a selection left out is no failure
			}
			f := verdict.Miss(model, t, v, unmeasured(mr.Class(t.Class)))
			if c := mr.Class(t.Class); v != nil && t.Class == "A" && c != nil && c.Invalid > 0 {
				// Faithfulness 0 read as 20 unfaithful answers when no answer
				// was valid to judge (issue 46).
				f.Message += fmt.Sprintf(" (%d of %d answers invalid: %s)", c.Invalid, c.Scored, unit.Plural(c.Invalid, "it could not be judged", "they could not be judged"))
			}
			f.Message += verdict.CustomNote(t)
			out = append(out, f)
		}
	}
	return out
}

// incomplete lists each model's incomplete run, quoting its first API
// error: they lead the verdict, since an API failure is why thresholds
// read "not measured" (issue 34: "60 API errors" came fourteenth, after
// thirteen such lines, with no error text).
func incomplete(r *Report) []Failure {
	var out []Failure
	for _, model := range r.Models {
		n, why := r.Incomplete(model)
		if n == 0 {
			continue
		}
		if failed := r.failedCalls(model); failed != "" {
			why += ": " + failed
		} else if first := r.firstAPIError(model); first != "" {
			why += fmt.Sprintf(" (the first: %s)", first)
		}
		out = append(out, Failure{
			Model: model, Metric: MetricIncomplete, Value: ptr(float64(n)), Op: "<=", Limit: 0,
			Message: fmt.Sprintf("%s: incomplete run: %s; an incomplete run cannot pass", model, why),
		})
	}
	return out
}

// firstAPIError is the first API error of a model's answers, by class.
func (r *Report) firstAPIError(model string) string {
	mr := r.Results[model]
	if mr == nil {
		return ""
	}
	for _, class := range []string{"A", "B", "C"} {
		if c := mr.Class(class); c != nil && c.FirstAPIError != "" {
			return c.FirstAPIError
		}
	}
	return ""
}

// maxNamedFailures bounds the failed answers a verdict line names; the
// rest are counted ("and N more"), and all are in the JSON.
const maxNamedFailures = 8

// failedCalls names a model's answers that failed for their own request
// (Scope "request": a refusal, a moderation block), by task and reason, in
// class, task and repeat order: they are why the run is incomplete
// although the model answered its other tasks. "" when there is none.
func (r *Report) failedCalls(model string) string {
	mr := r.Results[model]
	if mr == nil {
		return ""
	}
	var named []string
	n := 0
	for _, class := range []string{"A", "B", "C"} {
		c := mr.Class(class)
		if c == nil {
			continue
		}
		for _, f := range c.FailedCalls {
			if f.Scope != "request" {
				continue
			}
			n++
			if len(named) < maxNamedFailures {
				named = append(named, fmt.Sprintf("%s r%d: %s", f.TaskID, f.Repeat, f.Reason))
			}
		}
	}
	if n > len(named) {
		named = append(named, fmt.Sprintf("and %d more", n-len(named)))
	}
	return strings.Join(named, "; ")
}

// unmeasured says why a class has no headline number.
func unmeasured(c *ClassResult) string {
	if c == nil {
		return "the run has no task of this class"
	}
	return "no answer was scored"
}

// Incomplete counts what makes a model's run incomplete, over every
// answer the run planned in every part and answer format (Calls) and the
// judges' votes, and says what.
func (r *Report) Incomplete(model string) (int, string) {
	var missing, apiErrors, undecided, judgeErrors int
	for _, c := range r.Calls {
		if c.Model == model {
			missing += c.Missing
			apiErrors += c.APIErrors
		}
	}
	if mr := r.Results[model]; mr != nil && mr.ClassA != nil && mr.ClassA.Judging != nil {
		undecided += mr.ClassA.Judging.Undecided
		judgeErrors += mr.ClassA.Judging.JudgeAPIErrors
	}
	var parts []string
	add := func(n int, one, many string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, unit.Plural(n, one, many)))
		}
	}
	add(missing, "missing transcript", "missing transcripts")
	add(apiErrors, "API error", "API errors")
	add(judgeErrors, "judge API error", "judge API errors")
	add(undecided, "class A answer without a valid judge vote", "class A answers without a valid judge vote")
	return missing + apiErrors + judgeErrors + undecided, strings.Join(parts, ", ")
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
