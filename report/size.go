package report

import (
	"cmp"
	"slices"

	"bendscript.com/round-trip-harness/ladder"
	"bendscript.com/round-trip-harness/scoring"
)

// PositionAll is SizeRow.Position of a row that aggregates a whole rung.
const PositionAll = "all"

// SizeRow is one (model, rung, position) of a size-suite run: how the
// same edits fare as the document grows, and where in it they fall.
type SizeRow struct {
	Model string `json:"model"`
	// Rung is the rung's name ("8k", "512k"); Bytes the size of its
	// document as the model saw it.
	Rung  string `json:"rung"`
	Bytes int    `json:"bytes"`
	// Position is where the edits fall ("start", "middle", "end"), or
	// "all" for the rung as a whole.
	Position string `json:"position"`
	// Planned counts the (task, repeat) pairs; Scored those with an
	// answer, APIErrors and Missing the others.
	Planned   int `json:"planned"`
	Scored    int `json:"scored"`
	APIErrors int `json:"api_errors"`
	Missing   int `json:"missing"`
	// MedianDrift and P95Drift are over the scored answers (each answer
	// one value: a rung has few tasks); null when none was scored.
	MedianDrift *float64 `json:"median_drift"`
	P95Drift    *float64 `json:"p95_drift"`
	// EditsApplied is the fraction of scored answers whose edit was fully
	// applied.
	EditsApplied *float64 `json:"edits_applied"`
	// Lossless is the fraction of scored answers that are lossless
	// (metric.Result.Lossless), the harness's own headline.
	Lossless *float64 `json:"lossless"`
	// Invalid counts answers that held no document or one that fails
	// validation; CutOff those that
	// stopped at the output budget (finish_reason "length"), reasoning or
	// not: at scale the first failures are answers cut off.
	Invalid int `json:"invalid"`
	CutOff  int `json:"cut_off"`
	// OutputTokens are the completion tokens of the scored answers; Cost
	// their cost in USD, CostUnknown the calls whose cost is unknown.
	OutputTokens int64 `json:"output_tokens"`
	// Estimated is set when some of the output tokens are estimates from
	// the answers' length (offline models).
	Estimated   bool    `json:"output_tokens_estimated,omitempty"`
	Cost        float64 `json:"cost_usd"`
	CostUnknown int     `json:"cost_unknown"`
}

// sizeRows computes the size section from the scores: per model, per rung
// (in size order), one row per position and one for the whole rung.
func sizeRows(in Input) []SizeRow {
	bytes := map[string]int{}
	if in.Set != nil {
		for _, d := range in.Set.Documents {
			bytes[d.Name] = len(d.Bytes)
		}
	}
	type key struct{ model, rung, position string }
	groups := map[key][]*scoring.Score{}
	var rungs []string
	size := map[string]int{}
	for i := range in.Scores {
		s := &in.Scores[i]
		rung, pos := s.Rung, s.Position
		if rung == "" {
			continue
		}
		if _, ok := size[rung]; !ok {
			rungs = append(rungs, rung)
			size[rung] = bytes[s.Document]
			if size[rung] == 0 {
				if n, err := ladder.ParseSizes(rung); err == nil {
					size[rung] = n[0]
				}
			}
		}
		groups[key{s.Model, rung, pos}] = append(groups[key{s.Model, rung, pos}], s)
		groups[key{s.Model, rung, PositionAll}] = append(groups[key{s.Model, rung, PositionAll}], s)
	}
	slices.SortFunc(rungs, func(a, b string) int { return cmp.Compare(size[a], size[b]) })
	var out []SizeRow
	for _, m := range in.Manifest.Models {
		for _, rung := range rungs {
			for _, pos := range append(slices.Clone(ladder.Positions), PositionAll) {
				if ss := groups[key{m, rung, pos}]; len(ss) > 0 {
					out = append(out, sizeRow(m, rung, size[rung], pos, ss))
				}
			}
		}
	}
	return out
}

func sizeRow(model, rung string, bytes int, pos string, ss []*scoring.Score) SizeRow {
	t := tallyOf(ss)
	r := SizeRow{Model: model, Rung: rung, Bytes: bytes, Position: pos, Planned: t.planned,
		Scored: t.scored, Missing: t.missing, APIErrors: t.apiErrors, Invalid: t.invalid, CutOff: t.cutOff,
		OutputTokens: t.outputTokens, Estimated: t.estimated, Cost: t.cost, CostUnknown: t.costUnknown}
	r.MedianDrift, r.P95Drift = t.medianP95()
	r.EditsApplied, r.Lossless = t.shares()
	return r
}
