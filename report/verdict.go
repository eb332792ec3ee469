package report

import "bendscript.com/round-trip-harness/verdict"

// gatedField is where a class result holds a gated statistic
// (verdict.Stat): its value and its exact interval.
type gatedField struct {
	value    func(*ClassResult) *float64
	interval func(*ClassResult) *verdict.Interval
}

// gatedFields are the fields of each gated statistic.
var gatedFields = map[verdict.Stat]gatedField{
	verdict.StatFaithfulness: {func(c *ClassResult) *float64 { return c.Faithfulness }, func(c *ClassResult) *verdict.Interval { return c.FaithfulnessInterval }},
	verdict.StatMedian:       {func(c *ClassResult) *float64 { return c.MedianDrift }, func(c *ClassResult) *verdict.Interval { return c.MedianInterval }},
	verdict.StatP95:          {func(c *ClassResult) *float64 { return c.P95Drift }, func(c *ClassResult) *verdict.Interval { return c.P95Interval }},
	verdict.StatApplied:      {func(c *ClassResult) *float64 { return c.EditsApplied }, func(c *ClassResult) *verdict.Interval { return c.EditAppliedInterval }},
	verdict.StatResidualP95:  {func(c *ClassResult) *float64 { return c.ResidualP95 }, func(c *ClassResult) *verdict.Interval { return c.ResidualP95Interval }},
	verdict.StatInvalid:      {func(c *ClassResult) *float64 { return c.InvalidShare }, func(c *ClassResult) *verdict.Interval { return c.InvalidInterval }},
	verdict.StatUnchanged:    {func(c *ClassResult) *float64 { return c.Unchanged }, func(c *ClassResult) *verdict.Interval { return c.UnchangedInterval }},
}

// Gated is the number a threshold is on, of a model's results; nil when
// it was not measured.
func (mr *ModelResult) Gated(t verdict.Threshold) *float64 {
	if c := mr.Class(t.Class); c != nil {
		return gatedFields[t.Stat].value(c)
	}
	return nil
}

// GatedInterval is the exact interval of the number a threshold is on;
// nil when there is none.
func (mr *ModelResult) GatedInterval(t verdict.Threshold) *verdict.Interval {
	if c := mr.Class(t.Class); c != nil {
		return gatedFields[t.Stat].interval(c)
	}
	return nil
}

// Checks lists the thresholds of the report's configuration: §8.5's five
// in the order of the §8.7 fields, then the harness's own gates.
func (r *Report) Checks() []verdict.Threshold { return verdict.Table(r.Thresholds) }

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
