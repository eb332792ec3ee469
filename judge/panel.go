package judge

import (
	"slices"
	"strings"
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
		if SameModel(m, answerer) || slices.Contains(out, m) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// SameModel reports whether a and b name the same model. OpenRouter
// variants (a ":" suffix such as ":nitro", ":floor" or ":thinking") route
// to the same weights, so they are ignored: a model may not judge its own
// answer under another variant name.
func SameModel(a, b string) bool {
	return baseModel(a) == baseModel(b)
}

func baseModel(m string) string {
	if i := strings.LastIndexByte(m, ':'); i > strings.LastIndexByte(m, '/') {
		return m[:i]
	}
	return m
}
