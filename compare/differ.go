package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/render"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/verdict"
)

// verdictChange is each report's verdict and reading as a person reads
// them.
func verdictChange(old, new *report.Report) VerdictChange {
	reading := func(r *report.Report) string {
		if r.Informational() {
			return "none (informational)"
		}
		return strings.TrimPrefix(render.ReadingLine(r), "§8.5 reading: ")
	}
	return VerdictChange{Old: render.VerdictPlain(old), New: render.VerdictPlain(new), OldReading: reading(old), NewReading: reading(new)}
}

// failureChanges are the failures of the new report only and of the old
// report only, each by its message (with its value); a failure of one
// (model, metric) in both is neither, even when its value moved.
func failureChanges(old, new *report.Report) (added, removed []string) {
	key := func(f verdict.Failure) string { return f.Model + "\x00" + f.Metric }
	in := func(r *report.Report) map[string]bool {
		out := map[string]bool{}
		for _, f := range r.Failures {
			out[key(f)] = true
		}
		return out
	}
	o, n := in(old), in(new)
	added, removed = []string{}, []string{}
	for _, f := range new.Failures {
		if !o[key(f)] {
			added = append(added, f.Message)
		}
	}
	for _, f := range old.Failures {
		if !n[key(f)] {
			removed = append(removed, f.Message)
		}
	}
	return added, removed
}

// gateRows are every threshold's statistic per model in both reports.
func gateRows(old, new *report.Report) []GateRow {
	var out []GateRow
	for _, m := range old.Models {
		om, nm := old.Results[m], new.Results[m]
		if om == nil || nm == nil {
			continue
		}
		for _, t := range new.Checks() {
			ov, nv := om.Gated(t), nm.Gated(t)
			if ov == nil && nv == nil {
				continue
			}
			out = append(out, GateRow{Model: m, Label: t.Heading(), Source: t.Source(), Share: t.Share(), Old: ov, New: nv,
				OldHolds: t.Holds(ov), NewHolds: t.Holds(nv)})
		}
	}
	return out
}

// Differences lists every difference in what two runs asked and with what
// they measured: a difference of harness or metric version says the
// comparison mixes instruments.
func Differences(old, new *report.Report) []string {
	var out []string
	add := func(what, o, n string) {
		if o != n {
			out = append(out, fmt.Sprintf("%s differ: %s → %s", what, orNone(o), orNone(n)))
		}
	}
	if old.HarnessVersion != new.HarnessVersion || old.MetricVersion != new.MetricVersion {
		out = append(out, fmt.Sprintf("the instruments differ (harness %s → %s, metric %s → %s): the comparison mixes instruments; rescore both runs with one harness to compare them",
			old.HarnessVersion, new.HarnessVersion, old.MetricVersion, new.MetricVersion))
	}
	add("repeats", fmt.Sprint(old.Repeats), fmt.Sprint(new.Repeats))
	add("seeds", fmt.Sprint(old.Seed), fmt.Sprint(new.Seed))
	add("models", strings.Join(old.Models, ", "), strings.Join(new.Models, ", "))
	add("suites", old.Suite, new.Suite)
	add("answer formats", answerFormats(old), answerFormats(new))
	add("selections", selection(old), selection(new))
	add("corpora or tasks (corpus hashes)", short(old.CorpusHash), short(new.CorpusHash))
	add("prompts (prompt hashes)", short(old.PromptHash), short(new.PromptHash))
	add("configurations (config hashes)", short(old.ConfigHash), short(new.ConfigHash))
	if old.Weights != new.Weights {
		out = append(out, "drift weights differ")
	}
	for _, d := range providerDifferences(old, new) {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// providerDifferences say which models were served by other providers in
// the two runs, or by more than one within a run.
func providerDifferences(old, new *report.Report) []string {
	var out []string
	for _, m := range old.Models {
		om, nm := old.Results[m], new.Results[m]
		if om == nil || nm == nil {
			continue
		}
		o, n := providers(om), providers(nm)
		if o != n {
			out = append(out, fmt.Sprintf("%s was served by %s in %s and by %s in %s", m, o, old.RunID, n, new.RunID))
		}
		for _, side := range []struct {
			run string
			mr  *report.ModelResult
		}{{old.RunID, om}, {new.RunID, nm}} {
			if len(side.mr.Providers) > 1 {
				out = append(out, fmt.Sprintf("%s was served by %d providers within %s (%s)", m, len(side.mr.Providers), side.run, providers(side.mr)))
			}
		}
	}
	return out
}

// providers names the providers that served a model's answers, sorted.
func providers(mr *report.ModelResult) string {
	return strings.Join(slices.Sorted(maps.Keys(mr.Providers)), ", ")
}

// answerFormats are the formats a report's run asked for; a run that
// named none asked for the whole document (issue 56: "none → document"
// read as if the old run had asked for no format).
func answerFormats(r *report.Report) string {
	if len(r.Formats) == 0 {
		return formats.Document
	}
	return strings.Join(r.Formats, ", ")
}

// selection is a report's selection as its flags, or "".
func selection(r *report.Report) string {
	if r.Partial == nil {
		return ""
	}
	return r.Partial.String()
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// short abbreviates a hash to 12 characters.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
