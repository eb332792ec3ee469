package model

import (
	"slices"
	"strings"
)

// A model's identity, in one place: two questions with two answers. Does
// a judge share the weights of the model whose answer it judges
// (SameWeights: any routing variant is the same model)? Is the model a
// server says it served the one asked for (ServedAsAsked: a dated or
// versioned id and a known variant are; "-mini" is not)?

// SameWeights reports whether a and b name the same model, whatever its
// routing: OpenRouter variants (a ":" suffix such as ":nitro", ":floor" or
// ":thinking") route to the same weights, so they are ignored. A model may
// not judge its own answer under another variant name (package judge).
func SameWeights(a, b string) bool {
	return baseModel(a) == baseModel(b)
}

func baseModel(m string) string {
	if i := strings.LastIndexByte(m, ':'); i > strings.LastIndexByte(m, '/') {
		return m[:i]
	}
	return m
}

// ServedAsAsked reports whether the model a server said it served is the
// one asked for: the same id, either with or without its "vendor/" prefix (a
// provider may name its own models without it), followed by nothing, by
// a date or version made of digits ("-20250929", "-2025-09-29", "-001"),
// or by one of OpenRouter's routing variants (Variants: ":free",
// ":nitro", ...). Any other suffix names another listing, which may be a
// smaller model ("-mini", "-flash-lite"): not the model asked for (issue
// 45).
func ServedAsAsked(asked, served string) bool {
	strip := func(s string) string { return s[strings.LastIndexByte(s, '/')+1:] }
	if !strings.Contains(served, "/") {
		asked = strip(asked)
	}
	rest, ok := strings.CutPrefix(served, asked)
	if !ok {
		return false
	}
	rest, variant, _ := strings.Cut(rest, ":")
	if variant != "" && !slices.Contains(Variants, variant) {
		return false
	}
	return rest == "" || isVersion(rest)
}

// Variants are OpenRouter's routing variants of a listing (the id's
// ":suffix"): the same model, routed or priced differently.
var Variants = []string{"free", "beta", "extended", "thinking", "online", "nitro", "floor", "exacto"}

// isVersion reports whether s is "-" and a date or version of digits,
// parts separated by "-" or ".": "-20250929", "-2025-09-29", "-001".
func isVersion(s string) bool {
	return len(s) >= 2 && s[0] == '-' && strings.Trim(s[1:], "0123456789-.") == "" && strings.ContainsAny(s, "0123456789")
}
