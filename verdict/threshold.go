package verdict

import (
	"fmt"
	"strings"
	"sync"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
)

// Threshold is one threshold on one gated statistic of a model's class.
type Threshold struct {
	Metric string // the §8.7 field, or the harness's own metric name
	Class  string
	Label  string // for messages
	Op     string // ">=" or "<="
	Limit  float64
	Own    bool // the harness's own threshold, beside §8.5
	// Stat is the statistic it is on; the report reads its value, its
	// interval and each document's own value from a class's result.
	Stat Stat
}

// Stat names a gated statistic of a class.
type Stat int

// The gated statistics.
const (
	StatFaithfulness Stat = iota // class A: share of judged answers found faithful
	StatMedian                   // median drift
	StatP95                      // P95 drift
	StatApplied                  // share of answers whose edit was applied
	StatResidualP95              // P95 of the residual component
	StatInvalid                  // share of invalid answers
	StatUnchanged                // share of answers without an unrequested change
)

// stat is what the rules need to know of a statistic: whether it is a
// share (a narrow margin in share points) and whether it is a P95 (read
// as a count of documents over its limit).
var stat = map[Stat]struct{ share, p95 bool }{
	StatFaithfulness: {share: true},
	StatMedian:       {},
	StatP95:          {p95: true},
	StatApplied:      {share: true},
	StatResidualP95:  {p95: true},
	StatInvalid:      {share: true},
	StatUnchanged:    {share: true},
}

// SourceHarness marks a threshold that is the harness's own, beside §8.5.
const SourceHarness = "harness"

// SourceCustom marks a threshold whose configured value differs from its
// default (§8.5's, or the harness's own): it is never called §8.5.
const SourceCustom = "custom"

// The harness's own metrics, beside §8.5's (Failure.Metric).
const (
	MetricClassBEditApplied = "class_b_edit_applied"
	MetricClassCEditApplied = "class_c_edit_applied"
	MetricClassBResidualP95 = "class_b_residual_p95"
	MetricClassCResidualP95 = "class_c_residual_p95"
	MetricClassBInvalid     = "class_b_invalid"
	MetricClassCInvalid     = "class_c_invalid"
	MetricClassBUnchanged   = "class_b_unchanged"
	MetricClassCUnchanged   = "class_c_unchanged"
)

// ownGates lists the harness's own thresholds that t configures, in a
// fixed order: per class B then C, edits applied, residual P95, invalid
// share, unchanged share.
func ownGates(t config.Thresholds) []Threshold {
	type gate struct {
		metric, label, op string
		limit             *float64
		share             bool
		stat              Stat
	}
	atLeast := func(v float64) *float64 {
		if v > 0 {
			return &v
		}
		return nil // 0 applies no gate
	}
	var out []Threshold
	for _, class := range []string{task.ClassB, task.ClassC} {
		pick := func(b, c *float64) *float64 {
			if class == task.ClassB {
				return b
			}
			return c
		}
		lc := strings.ToLower(class)
		gates := []gate{
			{"class_" + lc + "_edit_applied", "edits applied", ">=", pick(atLeast(t.ClassBEditAppliedMin), atLeast(t.ClassCEditAppliedMin)), true, StatApplied},
			{"class_" + lc + "_residual_p95", "P95 residual", "<=", pick(t.ClassBResidualP95Max, t.ClassCResidualP95Max), false, StatResidualP95},
			{"class_" + lc + "_invalid", "answers invalid", "<=", pick(t.ClassBInvalidMax, t.ClassCInvalidMax), true, StatInvalid},
			{"class_" + lc + "_unchanged", "answers without unrequested change", ">=", pick(atLeast(t.ClassBUnchangedMin), atLeast(t.ClassCUnchangedMin)), true, StatUnchanged},
		}
		for _, g := range gates {
			if g.limit != nil {
				out = append(out, Threshold{Metric: g.metric, Class: class, Label: "class " + class + " " + g.label, Op: g.op, Limit: *g.limit, Own: true, Stat: g.stat})
			}
		}
	}
	return out
}

// Table lists the thresholds t configures: §8.5's five in the order of
// the §8.7 fields, then the harness's own gates.
func Table(t config.Thresholds) []Threshold {
	out := []Threshold{
		{Metric: "class_a_faithfulness", Class: task.ClassA, Label: "class A faithfulness", Op: ">=", Limit: t.ClassAFaithfulnessMin, Stat: StatFaithfulness},
		{Metric: "class_b_median_drift", Class: task.ClassB, Label: "class B median drift", Op: "<=", Limit: t.ClassBMedianMax, Stat: StatMedian},
		{Metric: "class_b_p95_drift", Class: task.ClassB, Label: "class B P95 drift", Op: "<=", Limit: t.ClassBP95Max, Stat: StatP95},
		{Metric: "class_c_median_drift", Class: task.ClassC, Label: "class C median drift", Op: "<=", Limit: t.ClassCMedianMax, Stat: StatMedian},
		{Metric: "class_c_p95_drift", Class: task.ClassC, Label: "class C P95 drift", Op: "<=", Limit: t.ClassCP95Max, Stat: StatP95},
	}
	// The harness's own gates, where configured: a model that does not
	// edit, loses what §8.4 cannot see, returns documents a processor
	// rejects or changes what it was not asked to must not pass classes B
	// and C on low drift alone.
	return append(out, ownGates(t)...)
}

// Share reports whether the threshold is on a share of answers or
// documents (printed as a percentage) rather than a drift-like number,
// so that its narrow margin is in share points; a drift or residual's is
// a fraction of its limit.
func (t Threshold) Share() bool { return stat[t.Stat].share }

// Count reports whether the threshold is on a P95, read as a count of
// documents over its limit (at most one in 20 may be).
func (t Threshold) Count() bool { return stat[t.Stat].p95 }

// defaultLimits are the limits of the thresholds at their defaults (§8.5,
// and the harness's own gates), by metric; computed once.
var defaultLimits = sync.OnceValue(func() map[string]float64 {
	out := map[string]float64{}
	for _, t := range Table(config.Default().Thresholds) {
		out[t.Metric] = t.Limit
	}
	return out
})

// Custom reports whether the threshold's limit differs from its default:
// such a threshold is labelled custom wherever it shows, never §8.5.
func (t Threshold) Custom() bool {
	d, ok := defaultLimits()[t.Metric]
	return !ok || d != t.Limit
}

// Source is whose threshold it is: custom, the harness's own, or §8.5.
func (t Threshold) Source() string {
	switch {
	case t.Custom():
		return SourceCustom
	case t.Own:
		return SourceHarness
	}
	return "§8.5"
}

// DefaultText says what a custom threshold's default is.
func DefaultText(t Threshold) string {
	d, ok := defaultLimits()[t.Metric]
	switch {
	case !ok:
		return "the harness has no default for it"
	case t.Own:
		return fmt.Sprintf("the harness's default is %s %s", unit.OpSymbol(t.Op), unit.Num(d))
	}
	return fmt.Sprintf("§8.5 says %s %s", unit.OpSymbol(t.Op), unit.Num(d))
}

// Holds reports whether v passes the threshold; a value that was not
// measured does not.
func (t Threshold) Holds(v *float64) bool {
	if v == nil {
		return false
	}
	if t.Op == ">=" {
		return *v >= t.Limit
	}
	return *v <= t.Limit
}

// ThresholdsHeading names the threshold table: §8.5 only when every
// threshold is the spec's.
func ThresholdsHeading(ts []Threshold) string {
	for _, t := range ts {
		if t.Custom() {
			return "Thresholds (custom: not §8.5)"
		}
	}
	// The columns marked † are the harness's own gates, not §8.5's: the
	// heading said §8.5 over all of them (issue 34).
	return "Thresholds (§8.5, and † the harness's own)"
}

// Heading is a threshold's column heading; a custom one says so.
func (t Threshold) Heading() string {
	// A share's limit is a percentage, as its values are (issue 46: "≤
	// 0.05" over "0%").
	limit := unit.Num(t.Limit)
	if t.Share() {
		limit = unit.Percent(t.Limit)
	}
	h := fmt.Sprintf("%s %s %s%s", t.Label, unit.OpSymbol(t.Op), limit, unit.Dagger(t.Own))
	if t.Custom() {
		h += " (custom)"
	}
	return h
}
