package render

import (
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
)

// warningTexts word each kind of warning (report.Warning) as the reports
// print it.
var warningTexts = map[string]func(w report.Warning) string{
	report.WarnInterrupted: func(report.Warning) string {
		return "the manifest records no finish: the run was interrupted or is still running"
	},
	report.WarnFewModels: func(w report.Warning) string {
		return fmt.Sprintf("%d %s: §8.5 gates on three frontier models (§8.6); this verdict covers only the models run", w.N, unit.Plural(w.N, "model", "models"))
	},
	report.WarnCustom: func(w report.Warning) string {
		return fmt.Sprintf("custom configuration: %s; the verdict is not the §8.5 verdict", strings.Join(w.Items, ", "))
	},
	report.WarnPartial: func(w report.Warning) string {
		return fmt.Sprintf("partial run (%s): %d of the suite's %d tasks", item(w, 0), w.N, w.Of)
	},
	report.WarnInformational: func(w report.Warning) string {
		return fmt.Sprintf("suite %s is informational: no §8.5 threshold applies, and the verdict says only whether the run is complete; the gating verdict comes from the gating suite", item(w, 0))
	},
	report.WarnOneRepeat: func(report.Warning) string {
		return "one repeat per task: inter-run noise is not measured (run with --repeats 3 to measure it)"
	},
	report.WarnMetricVersion: func(w report.Warning) string {
		return fmt.Sprintf("scores were computed by metric version %q, not the current %q: rescore the run", item(w, 0), item(w, 1))
	},
	report.WarnNotReproducible: func(w report.Warning) string {
		var why []string
		for i, c := range w.Items {
			if n := note(w, i); n != "" {
				why = append(why, c+" "+n)
			} else {
				why = append(why, "does not support "+c+" (not sent)")
			}
		}
		return fmt.Sprintf("%s: %s: its numbers are not reproducible call for call; --repeats N measures the noise", w.Model, strings.Join(why, "; "))
	},
	report.WarnControlNote: func(w report.Warning) string {
		return fmt.Sprintf("%s: %s %s", w.Model, item(w, 0), note(w, 0))
	},
	report.WarnNoPreflight: func(w report.Warning) string {
		return fmt.Sprintf("%s: no preflight: temperature and seed were sent without knowing whether the model honours them", w.Model)
	},
	report.WarnProviders: func(w report.Warning) string {
		return fmt.Sprintf("%s: answers were served by %d providers (%s): pin one with model_settings.provider in harness.yaml", w.Model, w.N, strings.Join(w.Items, ", "))
	},
	report.WarnNoClass: func(w report.Warning) string {
		return fmt.Sprintf("%s: the run has no class %s task", w.Model, w.Class)
	},
	report.WarnFewDocuments: func(w report.Warning) string {
		return fmt.Sprintf("%s class %s: statistics over %d documents, not the 20 of §8.5", w.Model, w.Class, w.N)
	},
	report.WarnCutOffReasoning: func(w report.Warning) string {
		return fmt.Sprintf("%s class %s: %d %s ran out of output budget while reasoning: raise model_settings max_tokens or lower the reasoning effort", w.Model, w.Class, w.N, unit.Plural(w.N, "answer", "answers"))
	},
	report.WarnCutOffOutput: func(w report.Warning) string {
		return fmt.Sprintf("%s class %s: %d %s cut off at the output budget (finish_reason length)", w.Model, w.Class, w.N, unit.Plural(w.N, "answer was", "answers were"))
	},
	report.WarnFlaky: func(w report.Warning) string {
		return fmt.Sprintf("%s class %s: %d of %d %s flaky, lossless in some repeats but not all: %s", w.Model, w.Class, w.N, w.Of,
			unit.Plural(w.Of, "task", "tasks"), strings.Join(w.Items, ", "))
	},
	report.WarnUngrounded: func(w report.Warning) string {
		return fmt.Sprintf("%s class A: %d %s text the document does not hold", w.Model, w.N, unit.Plural(w.N, "judge vote quotes", "judge votes quote"))
	},
	report.WarnServed: func(w report.Warning) string {
		text := fmt.Sprintf("%s: %d answers were served by another model (%s): they are no evidence about %s, and the run cannot gate v0.1 (§8.6)", w.Model, w.N, servedCounts(w), w.Model)
		if slices.Contains(w.Notes, report.IDAlone) {
			text += "; checked on the asked id alone: no listing gave the model's canonical slug (--no-preflight reads none), the name OpenRouter serves it under"
		}
		return text
	},
	report.WarnJudgeServed: func(w report.Warning) string {
		text := fmt.Sprintf("judge %s: %d class A %s served by another model (%s): %s, and the run cannot gate v0.1 (§8.4, §8.6)", w.Model, w.N,
			unit.Plural(w.N, "vote was", "votes were"), servedCounts(w), unit.Plural(w.N, "it still counts as its vote", "they still count as its votes"))
		if slices.Contains(w.Notes, report.IDAlone) {
			text += "; checked on the asked id alone: no listing gave the judge's canonical slug (--no-preflight reads none), the name OpenRouter serves it under"
		}
		return text
	},
	report.WarnWritten: func(w report.Warning) string { return item(w, 0) },
	report.WarnCostUnknown: func(w report.Warning) string {
		return fmt.Sprintf("%s: cost unknown for %d of %d calls; the cost leaves them out", w.Model, w.N, w.Of)
	},
	report.WarnStreamChanged: func(w report.Warning) string {
		return fmt.Sprintf("%s: %d %s changed mid-stream, served model or generation id: %s; the transcript keeps the first chunk's", w.Model, w.N,
			unit.Plural(w.N, "answer's stream", "answers' streams"), itemNotes(w))
	},
	report.WarnUnpriced: func(w report.Warning) string {
		more := ""
		if w.N > len(w.Items) {
			more = fmt.Sprintf(", and %d more (reconciled.json)", w.N-len(w.Items))
		}
		return fmt.Sprintf("%d %s of unknown cost stayed unpriced by GET /generation: %s%s; `harness runs --reconcile` asks again", w.N,
			unit.Plural(w.N, "attempt", "attempts"), itemNotes(w), more)
	},
}

// servedCounts is a served warning's items with their counts: "a ×1, b ×2".
func servedCounts(w report.Warning) string {
	var parts []string
	for i, served := range w.Items {
		n := 0
		if i < len(w.Counts) {
			n = w.Counts[i]
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", served, n))
	}
	return strings.Join(parts, ", ")
}

// itemNotes is each of w's items with its note: "a (why); b (why)".
func itemNotes(w report.Warning) string {
	var parts []string
	for i, it := range w.Items {
		if i < len(w.Notes) && w.Notes[i] != "" {
			it += " (" + w.Notes[i] + ")"
		}
		parts = append(parts, it)
	}
	return strings.Join(parts, "; ")
}

// WarningText is a warning as the reports print it; a kind this harness
// does not know (a report of another version) prints as its kind and
// what it is about.
func WarningText(w report.Warning) string {
	if f := warningTexts[w.Kind]; f != nil {
		return f(w)
	}
	var about []string
	for _, s := range []string{w.Model, w.Class} {
		if s != "" {
			about = append(about, s)
		}
	}
	return strings.TrimSpace(strings.Join(about, " ") + " " + w.Kind + " " + strings.Join(w.Items, ", "))
}

// item is the warning's i-th item, or "".
func item(w report.Warning, i int) string {
	if i < len(w.Items) {
		return w.Items[i]
	}
	return ""
}

// note is the note of the warning's i-th item, or "".
func note(w report.Warning, i int) string {
	if i < len(w.Notes) {
		return w.Notes[i]
	}
	return ""
}
