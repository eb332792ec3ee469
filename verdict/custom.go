package verdict

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/unit"
)

// Custom is one configured value that differs from its default.
type Custom struct {
	// Key is the configuration key, e.g. "thresholds.class_a_faithfulness_min".
	Key string `json:"key"`
	// Value is the configured value; Default is the spec's (or the
	// harness's own default, for its own gates).
	Value   float64 `json:"value"`
	Default float64 `json:"default"`
	// List and DefaultList are the configured and default values of a
	// list (gating.vendors, gating.tier_down); Value and Default are then
	// 0.
	List        []string `json:"list,omitempty"`
	DefaultList []string `json:"default_list,omitempty"`
}

// CustomValues lists every threshold and weight whose configured value
// differs from its default, by configuration key. It compares the JSON
// forms, so a threshold or a weight added later is covered without a
// change here; a key absent from one side (omitted as zero) counts as 0.
func CustomValues(cfg *config.Config) []Custom {
	def := config.Default()
	out := []Custom{}
	out = append(out, differing("thresholds.", cfg.Thresholds, def.Thresholds)...)
	out = append(out, differing("weights.", cfg.Weights, def.Weights)...)
	// The rules of who gates and of the reading are compared like the
	// thresholds (issue 45): an edited vendor or tier-down list let a
	// tier-down triple gate, and a wider narrow margin turned a protocol
	// failure into a model-specific weakness, unmarked.
	out = append(out, differing("reading.", cfg.Reading, def.Reading)...)
	out = append(out, differingLists("gating.", cfg.Gating, def.Gating)...)
	if len(out) == 0 {
		return nil
	}
	return out
}

func differing(prefix string, got, want any) []Custom {
	g, w := floatFields(got), floatFields(want)
	keys := map[string]bool{}
	for k := range g {
		keys[k] = true
	}
	for k := range w {
		keys[k] = true
	}
	var out []Custom
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if g[k] != w[k] {
			out = append(out, Custom{Key: prefix + k, Value: g[k], Default: w[k]})
		}
	}
	return out
}

// String is the custom value as reports print it: "key value (default
// value)", a list written [a, b].
func (c Custom) String() string {
	if c.List != nil || c.DefaultList != nil {
		return fmt.Sprintf("%s [%s] (default [%s])", c.Key, strings.Join(c.List, ", "), strings.Join(c.DefaultList, ", "))
	}
	return fmt.Sprintf("%s %s (default %s)", c.Key, unit.Num(c.Value), unit.Num(c.Default))
}

// differingLists is differing for a struct of string lists (the gating
// rules): a list differs when its members differ, in any order or case.
func differingLists(prefix string, got, want any) []Custom {
	g, w := listFields(got), listFields(want)
	var out []Custom
	for _, k := range slices.Sorted(maps.Keys(w)) {
		if !slices.Equal(normalList(g[k]), normalList(w[k])) {
			out = append(out, Custom{Key: prefix + k, List: append([]string{}, g[k]...), DefaultList: w[k]})
		}
	}
	return out
}

// normalList is a list of names lower-cased and sorted, for comparing.
func normalList(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = strings.ToLower(strings.TrimSpace(s))
	}
	slices.Sort(out)
	return out
}

// listFields is a struct's JSON form as string lists by key.
func listFields(v any) map[string][]string {
	b, _ := json.Marshal(v)
	out := map[string][]string{}
	_ = json.Unmarshal(b, &out)
	return out
}

// floatFields is a struct's JSON form as numbers by key.
func floatFields(v any) map[string]float64 {
	b, _ := json.Marshal(v)
	out := map[string]float64{}
	_ = json.Unmarshal(b, &out)
	return out
}
