package aggregate

import (
	"cmp"
	"slices"
	"strconv"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/task"
)

// breaks says, per model and answer format, where the chains of a part
// first broke.
func (b *builder) breaks(part string) []report.Break {
	type chain struct {
		model, format, doc string
		repeat             int
	}
	steps := map[chain]map[int]*scoring.Score{}
	var order []chain
	maxStep := 0
	for i := range b.scores {
		s := &b.scores[i]
		if s.Step == 0 || b.partOf(s) != part {
			continue
		}
		c := chain{s.Model, formatName(s), s.Chain, s.Repeat}
		if steps[c] == nil {
			steps[c] = map[int]*scoring.Score{}
			order = append(order, c)
		}
		steps[c][s.Step] = s
		maxStep = max(maxStep, s.Step)
	}
	var out []report.Break
	at := map[[2]string]int{}
	for _, c := range order {
		k := [2]string{c.model, c.format}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, report.Break{Model: c.model, Format: c.format, FirstExceed: map[string]int{}})
		}
		out[i].FirstExceed[firstExceed(steps[c], maxStep, b.thresholds)]++
	}
	slices.SortStableFunc(out, func(x, y report.Break) int {
		return cmp.Or(cmp.Compare(b.modelIndex[x.Model], b.modelIndex[y.Model]), cmp.Compare(b.formatIndex[x.Format], b.formatIndex[y.Format]))
	})
	return out
}

// firstExceed is the first step ("1", "2", ...) at which a chain's drift
// exceeds its class's §8.5 P95 threshold, or "never". A step the chain
// lacks (a selection, an unfinished run) is passed over.
func firstExceed(bySteps map[int]*scoring.Score, maxStep int, t config.Thresholds) string {
	for step := 1; step <= maxStep; step++ {
		s := bySteps[step]
		if s == nil {
			continue
		}
		d, ok := s.Drift()
		if !ok {
			continue
		}
		limit := t.ClassBP95Max
		if s.Class == task.ClassC {
			limit = t.ClassCP95Max
		}
		if d > limit {
			return strconv.Itoa(step)
		}
	}
	return "never"
}
