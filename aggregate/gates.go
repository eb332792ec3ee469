package aggregate

import "bendscript.com/round-trip-harness/report"

// Whether a document's answer has a property (edit applied, invalid,
// unchanged), as the gates' deciding documents and spreads read it.
type answerProperty func(report.RepeatResult) (has, known bool)

func applied(r report.RepeatResult) (bool, bool) {
	return r.EditApplied != nil && *r.EditApplied, r.EditApplied != nil
}

func invalid(r report.RepeatResult) (bool, bool) { return r.Valid != nil && !*r.Valid, r.Valid != nil }

// unchanged: an answer without a document counts as changed, as
// UnchangedRate counts it.
func unchanged(r report.RepeatResult) (bool, bool) {
	return r.Unrequested != nil && *r.Unrequested == 0, r.Status == "scored" && r.Drift != nil
}

// shareOf is 1 when a document's first scored answer (the one its value
// is) has the property, 0 when not; nil when the document has none.
func shareOf(d report.DocumentResult, has answerProperty) *float64 {
	r := gatedRepeat(d)
	if r == nil {
		return nil
	}
	if h, known := has(*r); known {
		return ptr(float64(b2i(h)))
	}
	return nil
}

// gatedRepeat is a document's first scored repeat with a value: the one
// the statistics are over; nil when there is none.
func gatedRepeat(d report.DocumentResult) *report.RepeatResult {
	for i, r := range d.Repeats {
		if r.Status == "scored" && (r.Drift != nil || r.Faithful != nil) {
			return &d.Repeats[i]
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// gateIntervals sets the exact intervals of a class B or C result's gated
// statistics beside the drift: the residual P95's by order statistics,
// the shares' by Clopper–Pearson over the documents' first scored
// answers.
func gateIntervals(c *report.ClassResult, acc *classAcc) {
	f := acc.first
	c.ResidualP95Interval = quantileInterval(acc.residuals, 0.95)
	c.EditAppliedInterval = shareInterval(f.applied, f.scored)
	c.InvalidInterval = shareInterval(f.invalid, f.scored)
	c.UnchangedInterval = shareInterval(f.unchanged, f.scored)
}

// repeatability counts, with two repeats or more, the tasks lossless in
// every scored repeat, some, or none; nil for one repeat.
func repeatability(docs []report.DocumentResult, repeats int) *report.Repeatability {
	if repeats < 2 {
		return nil
	}
	out := &report.Repeatability{Flaky: []string{}}
	for _, d := range docs {
		n, k := 0, 0
		for _, r := range d.Repeats {
			if r.Lossless != nil {
				n++
				if *r.Lossless {
					k++
				}
			}
		}
		switch {
		case n == 0:
			continue
		case k == n:
			out.Every++
		case k == 0:
			out.None++
		default:
			out.Some++
			out.Flaky = append(out.Flaky, d.TaskID)
		}
		out.Tasks++
	}
	return out
}
