package report

import (
	"maps"
	"slices"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/transcript"
)

// Warning is one finding that qualifies the verdict without deciding it,
// as data: its kind and what the kind is about. render words each kind
// (its warnings table) and prints them as footnotes; the report holds no
// sentence of them.
type Warning struct {
	// Kind is one of the Warn constants.
	Kind string `json:"kind"`
	// Model and Class are whom it is about, when it is about one.
	Model string `json:"model,omitempty"`
	Class string `json:"class,omitempty"`
	// N and Of are its count and, when it has one, what the count is of.
	N  int `json:"n,omitempty"`
	Of int `json:"of,omitempty"`
	// Items are the kind's names (tasks, providers, controls, values), in
	// order; Notes, when set, go with Items one for one ("" for none), and
	// Counts too.
	Items  []string `json:"items,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Counts []int    `json:"counts,omitempty"`
}

// The kinds of warning.
const (
	WarnInterrupted     = "interrupted"             // the manifest records no finish
	WarnFewModels       = "few_models"              // N answering models of a gating suite, fewer than 3
	WarnCustom          = "custom"                  // Items: the custom configured values (verdict.Custom)
	WarnPartial         = "partial"                 // Items[0]: the selection; N of Of tasks
	WarnInformational   = "informational"           // Items[0]: the suite
	WarnOneRepeat       = "one_repeat"              // noise is not measured
	WarnMetricVersion   = "metric_version"          // Items: the scores' version and the current one
	WarnNotReproducible = "not_reproducible"        // Items: the controls Model lacks; Notes: why
	WarnControlNote     = "control_note"            // Items[0]: a control Model honours; Notes[0]: its note
	WarnNoPreflight     = "no_preflight"            // Model's controls were sent unchecked
	WarnProviders       = "providers"               // Items: the providers that served Model
	WarnNoClass         = "no_class"                // Model has no task of Class
	WarnFewDocuments    = "few_documents"           // N documents of a gating class, fewer than 20
	WarnCutOffReasoning = "cut_off_reasoning"       // N answers out of budget while reasoning
	WarnCutOffOutput    = "cut_off_output"          // N answers cut off at the output budget
	WarnFlaky           = "flaky"                   // N of Of tasks flaky; Items: which
	WarnUngrounded      = "ungrounded_votes"        // N judge votes quote text the document lacks
	WarnServed          = "served_by_another_model" // N answers of Model served by Items (Counts each)
	WarnCostUnknown     = "cost_unknown"            // N of Of calls of Model without a cost
	// WarnWritten is a warning of a schema 2 or 3 report, which wrote
	// its warnings as sentences: Items[0] is the sentence as written.
	WarnWritten = "written"
)

// warnings lists what qualifies the verdict without deciding it.
func warnings(r *Report, in Input) []Warning {
	out := []Warning{}
	if in.Manifest.FinishedAt == nil {
		out = append(out, Warning{Kind: WarnInterrupted})
	}
	// An informational suite gates nothing: §8.5's counts of models and
	// documents qualify no verdict of it (issue 34: its warnings said so
	// anyway).
	if n := len(r.Models); n > 0 && n < 3 && r.gated() {
		out = append(out, Warning{Kind: WarnFewModels, N: n})
	}
	if len(r.Custom) > 0 {
		w := Warning{Kind: WarnCustom}
		for _, c := range r.Custom {
			w.Items = append(w.Items, c.String())
		}
		out = append(out, w)
	}
	if r.Partial != nil {
		out = append(out, Warning{Kind: WarnPartial, Items: []string{r.Partial.String()}, N: r.Tasks, Of: r.Partial.Of})
	}
	if !r.gated() {
		out = append(out, Warning{Kind: WarnInformational, Items: []string{r.Suite}})
	}
	if r.Repeats < 2 {
		out = append(out, Warning{Kind: WarnOneRepeat})
	}
	for _, s := range in.Scores {
		if s.Metric != nil && s.Metric.MetricVersion != metric.Version {
			out = append(out, Warning{Kind: WarnMetricVersion, Items: []string{s.Metric.MetricVersion, metric.Version}})
			break
		}
	}
	for _, model := range r.Models {
		out = append(out, modelWarnings(model, r.Results[model], r.gated() && r.Partial == nil, r.gated())...)
	}
	out = append(out, servedWarnings(in.Scores)...)
	return append(out, costWarnings(r)...)
}

// modelWarnings qualify one model's numbers: determinism it lacks, more
// than one provider, and per class too few documents, cut-off answers,
// unknown costs and ungrounded judge votes.
// gates says whether every class must be there (a whole gating suite);
// gating, whether §8.5's counts qualify the numbers at all.
func modelWarnings(model string, mr *ModelResult, gates, gating bool) []Warning {
	var out []Warning
	if d := mr.Determinism; d != nil && len(d.Lacking) > 0 {
		w := Warning{Kind: WarnNotReproducible, Model: model, Items: d.Lacking}
		for _, c := range d.Lacking {
			w.Notes = append(w.Notes, d.Notes[c])
		}
		out = append(out, w)
	}
	if d := mr.Determinism; d != nil {
		for _, c := range slices.Sorted(maps.Keys(d.Notes)) {
			if slices.Contains(d.Honoured, c) {
				out = append(out, Warning{Kind: WarnControlNote, Model: model, Items: []string{c}, Notes: []string{d.Notes[c]}})
			}
		}
	}
	if d := mr.Determinism; d != nil && d.Source == transcript.DeterminismUnchecked {
		out = append(out, Warning{Kind: WarnNoPreflight, Model: model})
	}
	if len(mr.Providers) > 1 {
		out = append(out, Warning{Kind: WarnProviders, Model: model, N: len(mr.Providers), Items: slices.Sorted(maps.Keys(mr.Providers))})
	}
	for _, class := range Classes {
		if c := mr.Class(class); c != nil || gates {
			out = append(out, classWarnings(model, class, c, gating)...)
		}
	}
	return out
}

// classWarnings qualify one (model, class).
func classWarnings(model, class string, c *ClassResult, gating bool) []Warning {
	if c == nil {
		return []Warning{{Kind: WarnNoClass, Model: model, Class: class}}
	}
	var out []Warning
	if c.Tasks > 0 && c.Tasks < 20 && gating {
		out = append(out, Warning{Kind: WarnFewDocuments, Model: model, Class: class, N: c.Tasks})
	}
	if c.CutOffReasoning > 0 {
		out = append(out, Warning{Kind: WarnCutOffReasoning, Model: model, Class: class, N: c.CutOffReasoning})
	}
	if c.CutOffOutput > 0 {
		out = append(out, Warning{Kind: WarnCutOffOutput, Model: model, Class: class, N: c.CutOffOutput})
	}
	if rp := c.Repeatability; rp != nil && rp.Some > 0 {
		out = append(out, Warning{Kind: WarnFlaky, Model: model, Class: class, N: rp.Some, Of: rp.Tasks, Items: rp.Flaky})
	}
	if j := c.Judging; j != nil && j.Votes.Ungrounded > 0 {
		out = append(out, Warning{Kind: WarnUngrounded, Model: model, Class: class, N: j.Votes.Ungrounded})
	}
	return out
}

// servedWarnings say, per model in order of first appearance, how many
// of its scored answers the server said another model served
// (scoring.Score.ModelServed), and which: those answers are not evidence
// about the model asked for, so a run holding one cannot gate v0.1 (§8.6).
func servedWarnings(scores []scoring.Score) []Warning {
	var order []string
	others := map[string]map[string]int{}
	for _, s := range scores {
		if s.ModelServed == "" {
			continue
		}
		if others[s.Model] == nil {
			order = append(order, s.Model)
			others[s.Model] = map[string]int{}
		}
		others[s.Model][s.ModelServed]++
	}
	out := make([]Warning, 0, len(order))
	for _, m := range order {
		w := Warning{Kind: WarnServed, Model: m, Items: slices.Sorted(maps.Keys(others[m]))}
		for _, served := range w.Items {
			w.Counts = append(w.Counts, others[m][served])
			w.N += others[m][served]
		}
		out = append(out, w)
	}
	return out
}

// costWarnings say, per model, how many calls of every part and format
// have no reported cost.
func costWarnings(r *Report) []Warning {
	var out []Warning
	for _, model := range r.Models {
		unknown, calls := 0, 0
		for _, c := range r.Calls {
			if c.Model == model {
				unknown += c.Cost.Unknown
				calls += c.Scored + c.APIErrors
			}
		}
		if unknown > 0 {
			out = append(out, Warning{Kind: WarnCostUnknown, Model: model, N: unknown, Of: calls})
		}
	}
	return out
}
