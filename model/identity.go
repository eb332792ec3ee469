package model

import (
	"slices"
	"strings"
)

// A model's identity, in one place: two questions with two answers. Does
// a judge share the weights of the model whose answer it judges
// (SameWeights: any routing variant is the same model)? Is the model a
// server says it served the one asked for (ServedAsAsked: a dated or
// versioned id, the listing's canonical slug and a known variant are;
// "-mini" is not)?

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
// one asked for. canonical is the listing's canonical_slug for the asked
// id ("" when there is no listing): OpenRouter names what served an answer
// by that slug, which for Anthropic puts the version before the family
// (asked "anthropic/claude-opus-4.7", served
// "anthropic/claude-4.7-opus-20260416", as recorded traffic shows). The
// served string is as asked when it is the asked id (its routing variant,
// if any, set aside) or the canonical slug, either with or without its
// "vendor/" prefix (a provider may name its own models without it),
// followed by nothing, by a date or version made of digits ("-20250929",
// "-2025-09-29", "-001"), or by one of OpenRouter's routing variants
// (Variants: ":free", ":nitro", ":batch", ...). Any other suffix names
// another listing, which may be a smaller model ("-mini", "-flash-lite"),
// and another id altogether is a fallback ("x-ai/grok-4" for a Google id):
// not the model asked for (issues 45, 52).
func ServedAsAsked(asked, canonical, served string) bool {
	if servedAs(baseModel(asked), served) {
		return true
	}
	return canonical != "" && servedAs(canonical, served)
}

// servedAs is ServedAsAsked against one name.
func servedAs(name, served string) bool {
	strip := func(s string) string { return s[strings.LastIndexByte(s, '/')+1:] }
	if !strings.Contains(served, "/") {
		name = strip(name)
	}
	rest, ok := strings.CutPrefix(served, name)
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
var Variants = []string{"free", "beta", "extended", "thinking", "online", "nitro", "floor", "exacto", "batch"}

// isVersion reports whether s is "-" and a date or version of digits,
// parts separated by "-" or ".": "-20250929", "-2025-09-29", "-001".
func isVersion(s string) bool {
	return len(s) >= 2 && s[0] == '-' && strings.Trim(s[1:], "0123456789-.") == "" && strings.ContainsAny(s, "0123456789")
}
