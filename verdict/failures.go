package verdict

import (
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/unit"
)

// MetricPartial is the Failure.Metric of a gating run that ran only a
// selection of its suite (--tasks, --classes, --docs, --limit): a partial
// run can never give the gating verdict pass.
const MetricPartial = "partial"

// MetricIncomplete is the Failure.Metric of a model whose run is incomplete:
// a missing transcript, an API error (of an answer or of a judge), or a
// class A answer without a valid judge vote.
const MetricIncomplete = "incomplete"

// Incomplete counts what makes a model's run incomplete, over every answer
// the run planned in every part and answer format and the judges' votes.
type Incomplete struct {
	Missing, APIErrors, JudgeAPIErrors int
	// Undecided counts the class A answers without a valid judge vote.
	Undecided int
}

// Count is how many answers and votes are missing or failed: 0 for a
// complete run.
func (n Incomplete) Count() int { return n.Missing + n.APIErrors + n.JudgeAPIErrors + n.Undecided }

// String says what is missing, e.g. "2 missing transcripts, 1 API error";
// "" for a complete run.
func (n Incomplete) String() string {
	var parts []string
	add := func(k int, one, many string) {
		if k > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", k, unit.Plural(k, one, many)))
		}
	}
	add(n.Missing, "missing transcript", "missing transcripts")
	add(n.APIErrors, "API error", "API errors")
	add(n.JudgeAPIErrors, "judge API error", "judge API errors")
	add(n.Undecided, "class A answer without a valid judge vote", "class A answers without a valid judge vote")
	return strings.Join(parts, ", ")
}

// FailedCall is one answer that failed for its own request (a refusal, a
// moderation block): its task, repeat and why.
type FailedCall struct {
	TaskID string
	Repeat int
	Reason string
}

// Run is what Failures reads of a run beside its models' measures.
type Run struct {
	// Gates is whether the run's suite applies the thresholds.
	Gates bool
	// Partial is the selection of a partial run ("" for the whole suite);
	// Tasks the tasks it ran of the suite's Of.
	Partial   string
	Tasks, Of int
}

// maxNamedFailures bounds the failed answers a verdict line names; the
// rest are counted ("and N more"), and all are in the JSON.
const maxNamedFailures = 8

// Failures enumerates every reason the verdict fails: a run without
// models, a partial gating run, each incomplete model, then each
// threshold of ts that a model's measure (in ts's order) does not hold.
// An informational suite is judged on completeness alone, and a class a
// selection left out is no failure.
func Failures(ts []Threshold, run Run, models []Measured) []Failure {
	out := []Failure{}
	if len(models) == 0 {
		out = append(out, Failure{Metric: MetricIncomplete, Op: "<=", Message: "the run has no models"})
	}
	if run.Partial != "" && run.Gates {
		out = append(out, Failure{Metric: MetricPartial, Op: "<=", Message: fmt.Sprintf(
			"partial run (%s: %d of the suite's %d tasks): a selection can never give the gating verdict pass", run.Partial, run.Tasks, run.Of)})
	}
	for _, ms := range models {
		if f, ok := incompleteFailure(ms); ok {
			out = append(out, f)
		}
	}
	if !run.Gates {
		return out
	}
	for _, ms := range models {
		for i, t := range ts {
			out = append(out, misses(ms.Model, t, ms.Measures[i])...)
		}
	}
	return out
}

// misses is the failure of threshold t on measure m, if it fails.
func misses(model string, t Threshold, m Measure) []Failure {
	if t.Holds(m.Value) || m.NotSelected {
		return nil // held, or not selected: a class a selection left out is no failure
	}
	unmeasured := "no answer was scored"
	if m.NoClass {
		unmeasured = "the run has no task of this class"
	}
	f := Miss(model, t, m.Value, unmeasured)
	if m.Value != nil && t.Class == "A" && m.Invalid > 0 {
		// Faithfulness 0 read as 20 unfaithful answers when no answer
		// was valid to judge (issue 46).
		f.Message += fmt.Sprintf(" (%d of %d answers invalid: %s)", m.Invalid, m.Scored, unit.Plural(m.Invalid, "it could not be judged", "they could not be judged"))
	}
	f.Message += CustomNote(t)
	return []Failure{f}
}

// incompleteFailure is a model's incomplete run, quoting the answers that
// failed for their own request or else its first API error: they lead the
// verdict, since an API failure is why thresholds read "not measured"
// (issue 34: "60 API errors" came fourteenth, after thirteen such lines,
// with no error text).
func incompleteFailure(ms Measured) (Failure, bool) {
	n := ms.Incomplete.Count()
	if n == 0 {
		return Failure{}, false
	}
	why := ms.Incomplete.String()
	if failed := namedCalls(ms.FailedCalls); failed != "" {
		why += ": " + failed
	} else if ms.FirstAPIError != "" {
		why += fmt.Sprintf(" (the first: %s)", ms.FirstAPIError)
	}
	v := float64(n)
	return Failure{
		Model: ms.Model, Metric: MetricIncomplete, Value: &v, Op: "<=", Limit: 0,
		Message: fmt.Sprintf("%s: incomplete run: %s; an incomplete run cannot pass", ms.Model, why),
	}, true
}

// namedCalls names failed answers by task and reason, the first
// maxNamedFailures of them; "" when there is none.
func namedCalls(calls []FailedCall) string {
	var named []string
	for _, f := range calls {
		if len(named) < maxNamedFailures {
			named = append(named, fmt.Sprintf("%s r%d: %s", f.TaskID, f.Repeat, f.Reason))
		}
	}
	if n := len(calls); n > len(named) {
		named = append(named, fmt.Sprintf("and %d more", n-len(named)))
	}
	return strings.Join(named, "; ")
}
