package judge

import (
	"slices"

	"bendscript.com/round-trip-harness/model"
)

// Panel returns the judges of an answer given by answerer: the fixed judge
// list when it is non-empty, else the gating models (the cross-vendor
// panel: each answer is judged by the other gating models), in either case
// without the answerer and without repeats, in the order given.
func Panel(answerer string, gating []string, fixed []string) []string {
	from := gating
	if len(fixed) > 0 {
		from = fixed
	}
	out := []string{}
	for _, m := range from {
		if model.SameWeights(m, answerer) || slices.Contains(out, m) {
			continue
		}
		out = append(out, m)
	}
	return out
}
