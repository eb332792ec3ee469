package render

import (
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
)

// The words of the report as people read them: the verdict's line and a
// number beside its interval. Numbers themselves are worded by package
// unit, so that the report's own messages (a failure, a warning) and its
// writers print a number alike.

// VerdictWord is the verdict as a person reads it: PASS or FAIL for a run
// that can gate v0.1; "thresholds met" or "thresholds not met" and
// informational for a gating suite's run that cannot (§8.6), so that it
// never reads as a gating pass; "complete (informational)" or "incomplete
// (informational)" for a suite that decides none.
func VerdictWord(r *report.Report) string {
	switch {
	case r.Informational():
		return r.Verdict + " (informational)"
	case !r.Eligibility.Gates && r.Verdict == report.Pass:
		return "thresholds met (informational: cannot gate v0.1)"
	case !r.Eligibility.Gates:
		return "thresholds not met (informational: cannot gate v0.1)"
	case r.Verdict == report.Pass:
		return "✅ PASS"
	}
	return "❌ FAIL"
}

// VerdictLine is the verdict in one line, for the end of a run: the
// verdict, why, and for a failure how many there are; then §8.5's
// reading.
func VerdictLine(r *report.Report) string {
	line := fmt.Sprintf("Verdict: %s: %s", VerdictWord(r), VerdictReason(r))
	if r.Partial != nil {
		line += fmt.Sprintf(" (partial run: %d of %d tasks)", r.Tasks, r.Partial.Of)
	}
	return line + "."
}

// VerdictPlain is VerdictWord without its mark.
func VerdictPlain(r *report.Report) string {
	return strings.TrimSpace(strings.NewReplacer("✅", "", "❌", "").Replace(VerdictWord(r)))
}

// VerdictReason says in a phrase why the verdict is what it is, and what
// §8.5 (or §8.6) concludes.
func VerdictReason(r *report.Report) string {
	var why string
	switch {
	case !r.Passed():
		why = fmt.Sprintf("%d %s", len(r.Failures), unit.Plural(len(r.Failures), "failure", "failures"))
	case r.Informational():
		return fmt.Sprintf("the run is complete; suite %s decides no verdict", r.Suite)
	case len(r.Custom) > 0:
		why = "every threshold holds for every model, under a custom configuration (not §8.5)"
	default:
		why = "every §8.5 threshold and every harness gate † holds for every model"
	}
	if r.Informational() {
		return why
	}
	return why + "; " + ReadingLine(r)
}

// ReadingLine is §8.5's reading in a phrase: the outcome and what it
// means, and for a run that cannot gate, how many reasons say so.
func ReadingLine(r *report.Report) string {
	rd := r.Reading
	if rd.Outcome == "" {
		return "§8.5 reading: not recorded (a report from before readings)"
	}
	if n := len(r.Eligibility.Reasons); n > 0 {
		first, _, _ := strings.Cut(r.Eligibility.Reasons[0], " (")
		return fmt.Sprintf("§8.5 reading: %s (cannot gate v0.1: %d %s, first: %s)", rd.Outcome, n, unit.Plural(n, "reason", "reasons"), first)
	}
	line := fmt.Sprintf("§8.5 reading: %s, %s", rd.Outcome, rd.Says)
	return line
}

func WithInterval(v *float64, iv *verdict.Interval) string {
	if v == nil {
		return "n/a"
	}
	if iv == nil {
		return unit.Num(*v)
	}
	return unit.Num(*v) + " " + verdict.IntervalText(iv, unit.Num)
}

// WithIntervalShort is WithInterval for a narrow table cell
// (IntervalShort).
func WithIntervalShort(v *float64, iv *verdict.Interval) string {
	if v == nil {
		return "n/a"
	}
	if iv == nil {
		return unit.Num(*v)
	}
	return unit.Num(*v) + " " + verdict.IntervalShort(iv, unit.Num)
}

func NoiseText(n *report.Noise) string {
	if n == nil {
		return "n/a"
	}
	return unit.Num(n.Range)
}
