package aggregate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/transcript"
)

// warnings lists what qualifies the verdict without deciding it.
func warnings(r *report.Report, in Input) []report.Warning {
	out := []report.Warning{}
	if in.Manifest.FinishedAt == nil {
		out = append(out, report.Warning{Kind: report.WarnInterrupted})
	}
	// An informational suite gates nothing: §8.5's counts of models and
	// documents qualify no verdict of it (issue 34: its warnings said so
	// anyway).
	if n := len(r.Models); n > 0 && n < 3 && !r.Informational() {
		out = append(out, report.Warning{Kind: report.WarnFewModels, N: n})
	}
	if len(r.Custom) > 0 {
		w := report.Warning{Kind: report.WarnCustom}
		for _, c := range r.Custom {
			w.Items = append(w.Items, c.String())
		}
		out = append(out, w)
	}
	if r.Partial != nil {
		out = append(out, report.Warning{Kind: report.WarnPartial, Items: []string{r.Partial.String()}, N: r.Tasks, Of: r.Partial.Of})
	}
	if r.Informational() {
		out = append(out, report.Warning{Kind: report.WarnInformational, Items: []string{r.Suite}})
	}
	if r.Repeats < 2 {
		out = append(out, report.Warning{Kind: report.WarnOneRepeat})
	}
	for _, s := range in.Scores {
		if s.Metric != nil && s.Metric.MetricVersion != metric.Version {
			out = append(out, report.Warning{Kind: report.WarnMetricVersion, Items: []string{s.Metric.MetricVersion, metric.Version}})
			break
		}
	}
	for _, model := range r.Models {
		out = append(out, modelWarnings(model, r.Results[model], !r.Informational() && r.Partial == nil, !r.Informational())...)
	}
	out = append(out, servedWarnings(in.Scores, in.Manifest.CanonicalSlugs())...)
	out = append(out, judgeServedWarnings(in.Scores, in.Manifest.CanonicalSlugs())...)
	out = append(out, streamWarnings(in.Scores)...)
	out = append(out, costWarnings(r)...)
	return append(out, unpricedWarnings(in.Unpriced)...)
}

// maxWarningItems bounds the items one warning names; N counts them all.
const maxWarningItems = 10

// streamWarnings say, per model in order of first appearance, which
// answers' streams changed served model or generation id mid-stream
// (scoring.Score.StreamChanged), and what changed.
func streamWarnings(scores []scoring.Score) []report.Warning {
	var order []string
	byModel := map[string]*report.Warning{}
	for _, s := range scores {
		if len(s.StreamChanged) == 0 {
			continue
		}
		w := byModel[s.Model]
		if w == nil {
			order = append(order, s.Model)
			w = &report.Warning{Kind: report.WarnStreamChanged, Model: s.Model}
			byModel[s.Model] = w
		}
		w.N++
		if len(w.Items) < maxWarningItems {
			w.Items = append(w.Items, fmt.Sprintf("%s r%d", s.TaskID, s.Repeat))
			w.Notes = append(w.Notes, strings.Join(s.StreamChanged, ", "))
		}
	}
	out := make([]report.Warning, 0, len(order))
	for _, m := range order {
		out = append(out, *byModel[m])
	}
	return out
}

// unpricedWarnings say which attempts of unknown cost a reconcile left
// unpriced, and why.
func unpricedWarnings(unpriced []Unpriced) []report.Warning {
	if len(unpriced) == 0 {
		return nil
	}
	w := report.Warning{Kind: report.WarnUnpriced, N: len(unpriced)}
	for _, u := range unpriced[:min(len(unpriced), maxWarningItems)] {
		w.Items = append(w.Items, fmt.Sprintf("%s (%s)", u.Transcript, u.ID))
		w.Notes = append(w.Notes, u.Why)
	}
	return []report.Warning{w}
}

// modelWarnings qualify one model's numbers: determinism it lacks, more
// than one provider, and per class too few documents, cut-off answers,
// unknown costs and ungrounded judge votes.
// gates says whether every class must be there (a whole gating suite);
// gating, whether §8.5's counts qualify the numbers at all.
func modelWarnings(model string, mr *report.ModelResult, gates, gating bool) []report.Warning {
	var out []report.Warning
	if d := mr.Determinism; d != nil && len(d.Lacking) > 0 {
		w := report.Warning{Kind: report.WarnNotReproducible, Model: model, Items: d.Lacking}
		for _, c := range d.Lacking {
			w.Notes = append(w.Notes, d.Notes[c])
		}
		out = append(out, w)
	}
	if d := mr.Determinism; d != nil {
		for _, c := range slices.Sorted(maps.Keys(d.Notes)) {
			if slices.Contains(d.Honoured, c) {
				out = append(out, report.Warning{Kind: report.WarnControlNote, Model: model, Items: []string{c}, Notes: []string{d.Notes[c]}})
			}
		}
	}
	if d := mr.Determinism; d != nil && d.Source == transcript.DeterminismUnchecked {
		out = append(out, report.Warning{Kind: report.WarnNoPreflight, Model: model})
	}
	if len(mr.Providers) > 1 {
		out = append(out, report.Warning{Kind: report.WarnProviders, Model: model, N: len(mr.Providers), Items: slices.Sorted(maps.Keys(mr.Providers))})
	}
	for _, class := range report.Classes {
		if c := mr.Class(class); c != nil || gates {
			out = append(out, classWarnings(model, class, c, gating)...)
		}
	}
	return out
}

// classWarnings qualify one (model, class).
func classWarnings(model, class string, c *report.ClassResult, gating bool) []report.Warning {
	if c == nil {
		return []report.Warning{{Kind: report.WarnNoClass, Model: model, Class: class}}
	}
	var out []report.Warning
	if c.Tasks > 0 && c.Tasks < 20 && gating {
		out = append(out, report.Warning{Kind: report.WarnFewDocuments, Model: model, Class: class, N: c.Tasks})
	}
	if c.CutOffReasoning > 0 {
		out = append(out, report.Warning{Kind: report.WarnCutOffReasoning, Model: model, Class: class, N: c.CutOffReasoning})
	}
	if c.CutOffOutput > 0 {
		out = append(out, report.Warning{Kind: report.WarnCutOffOutput, Model: model, Class: class, N: c.CutOffOutput})
	}
	if rp := c.Repeatability; rp != nil && rp.Some > 0 {
		out = append(out, report.Warning{Kind: report.WarnFlaky, Model: model, Class: class, N: rp.Some, Of: rp.Tasks, Items: rp.Flaky})
	}
	if j := c.Judging; j != nil && j.Votes.Ungrounded > 0 {
		out = append(out, report.Warning{Kind: report.WarnUngrounded, Model: model, Class: class, N: j.Votes.Ungrounded})
	}
	return out
}

// servedWarnings say, per model in order of first appearance, how many
// of its scored answers the server said another model served
// (scoring.Score.ModelServed), and which: those answers are not evidence
// about the model asked for, so a run holding one cannot gate v0.1 (§8.6).
// A model without a canonical slug in canonical (no listing was read)
// was checked on its id alone: each of its items has the note IDAlone.
func servedWarnings(scores []scoring.Score, canonical map[string]string) []report.Warning {
	var t servedTally
	for _, s := range scores {
		if s.ModelServed != "" {
			t.add(s.Model, s.ModelServed)
		}
	}
	return t.warnings(report.WarnServed, canonical)
}

// judgeServedWarnings say, per judge in order of first appearance, how
// many of its class A votes the server said another model served
// (judge.Vote.ModelServed), and which: they count as the judge's votes,
// though the judge asked for did not give them, so a run holding one
// cannot gate v0.1 (§8.4, §8.6). A judge without a canonical slug in
// canonical was checked on its id alone: each of its items has the note
// IDAlone.
func judgeServedWarnings(scores []scoring.Score, canonical map[string]string) []report.Warning {
	var t servedTally
	for _, s := range scores {
		if s.Judge == nil {
			continue
		}
		for _, v := range s.Judge.Votes {
			if v.ModelServed != "" {
				t.add(v.Judge, v.ModelServed)
			}
		}
	}
	return t.warnings(report.WarnJudgeServed, canonical)
}

// servedTally counts, per model asked for (an answering model or a
// judge) in order of first appearance, the calls each other model served.
type servedTally struct {
	order  []string
	others map[string]map[string]int
}

func (t *servedTally) add(asked, served string) {
	if t.others[asked] == nil {
		if t.others == nil {
			t.others = map[string]map[string]int{}
		}
		t.order = append(t.order, asked)
		t.others[asked] = map[string]int{}
	}
	t.others[asked][served]++
}

// warnings are the tally's warnings of kind, one per model asked for:
// the models that served its calls, sorted, with their counts, and the
// note IDAlone on each when canonical has no slug for it.
func (t *servedTally) warnings(kind string, canonical map[string]string) []report.Warning {
	out := make([]report.Warning, 0, len(t.order))
	for _, m := range t.order {
		w := report.Warning{Kind: kind, Model: m, Items: slices.Sorted(maps.Keys(t.others[m]))}
		for _, served := range w.Items {
			w.Counts = append(w.Counts, t.others[m][served])
			w.N += t.others[m][served]
			if canonical[m] == "" {
				w.Notes = append(w.Notes, report.IDAlone)
			}
		}
		out = append(out, w)
	}
	return out
}

// costWarnings say, per model, how many calls of every part and format
// have no reported cost.
func costWarnings(r *report.Report) []report.Warning {
	var out []report.Warning
	for _, model := range r.Models {
		unknown, calls := 0, 0
		for _, c := range r.Calls {
			if c.Model == model {
				unknown += c.Cost.Unknown
				calls += c.Scored + c.APIErrors
			}
		}
		if unknown > 0 {
			out = append(out, report.Warning{Kind: report.WarnCostUnknown, Model: model, N: unknown, Of: calls})
		}
	}
	return out
}
