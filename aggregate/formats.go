package aggregate

import (
	"cmp"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/task"
)

// formatName is a score's answer format as the report names it: a score
// that names none answered with the whole document.
func formatName(s *scoring.Score) string { return formats.Of(s.Format).Name }

// formatPoints are the run's format points, by model (the run's order),
// format name and document size; none for a run of one answer format or
// without its task set.
func (b *builder) formatPoints(in Input) []report.FormatPoint {
	if !formats.Several(in.Manifest.Inputs.Formats) || in.Set == nil {
		return nil
	}
	type key struct {
		model, format string
		bytes         int
	}
	drifts, tokens := map[key][]float64{}, map[key][]float64{}
	var keys []key
	for i := range in.Scores {
		s := &in.Scores[i]
		t := in.Set.Task(s.TaskID)
		d, ok := s.Drift()
		if t == nil || s.Class == task.ClassA || !ok || s.NotRun {
			continue
		}
		k := key{s.Model, formatName(s), len(t.Source.Bytes)}
		if _, seen := drifts[k]; !seen {
			keys = append(keys, k)
		}
		drifts[k] = append(drifts[k], d)
		tokens[k] = append(tokens[k], float64(s.Usage.CompletionTokens))
	}
	slices.SortFunc(keys, func(x, y key) int {
		return cmp.Or(cmp.Compare(b.modelIndex[x.model], b.modelIndex[y.model]), strings.Compare(x.model, y.model),
			strings.Compare(x.format, y.format), cmp.Compare(x.bytes, y.bytes))
	})
	out := make([]report.FormatPoint, 0, len(keys))
	for _, k := range keys {
		out = append(out, report.FormatPoint{Model: k.model, Format: k.format, DocumentBytes: k.bytes,
			MedianDrift: stats.Median(drifts[k]), MedianOutputTokens: stats.Median(tokens[k])})
	}
	return out
}
