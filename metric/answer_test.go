package metric

import (
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestScoreAnswer(t *testing.T) {
	s := tasks(t)[0].Source.Doc // 01: blk-5e6f holds spn-01
	for _, tc := range tabletest.Cases(t, []struct {
		name, raw  string
		valid      bool
		resolved   float64
		unresolved []string
		diag       string
		reason     string
	}{
		{"grounded", `{"answer": "41 species", "evidence": ["blk-5e6f.spn-01"]}`, true, 1, nil, "", "a span id of the document"},
		{"block and bend ref", `{"answer": "x", "evidence": ["blk-5e6f", "bend:` + s.ID + `#blk-5e6f.spn-01"]}`, true, 1, nil, "", "block ids and self-references resolve"},
		{"half grounded", `{"answer": "x", "evidence": ["blk-5e6f", "blk-nope"]}`, true, 0.5, []string{"blk-nope"}, "", "the fraction of cited ids that exist"},
		{"duplicates count once", `{"answer": "x", "evidence": ["blk-nope", "blk-nope", "blk-5e6f"]}`, true, 0.5, []string{"blk-nope"}, KindDuplicateEvidence, "repeating an id does not change the fraction"},
		{"no evidence", `{"answer": "x", "evidence": []}`, true, 0, nil, KindNoEvidence, "an answer without evidence is not grounded"},
		{"fenced", "```json\n{\"answer\": \"x\", \"evidence\": [\"blk-5e6f\"]}\n```", true, 1, nil, "", "fenced like documents"},
		{"extra member", `{"answer": "x", "evidence": ["blk-5e6f"], "confidence": 0.9}`, true, 1, nil, KindUnknownMember, "extra members are noted, not fatal"},
		{"answer not a string", `{"answer": 41, "evidence": []}`, false, 0, nil, "", "the requested shape"},
		{"evidence not an array", `{"answer": "x", "evidence": "blk-5e6f"}`, false, 0, nil, "", "the requested shape"},
		{"no evidence member", `{"answer": "x"}`, false, 0, nil, "", "the requested shape"},
		{"prose", `41 species and 386 individuals.`, false, 0, nil, "", "not JSON"},
	}) {
		r := ScoreAnswer(s, tc.raw)
		if r.Valid != tc.valid || r.EvidenceResolved != tc.resolved || !slices.Equal(r.Unresolved, append([]string{}, tc.unresolved...)) {
			t.Errorf("%s: %+v (%s)", tc.name, r, tc.reason)
		}
		if !tc.valid && r.Reason == "" {
			t.Errorf("%s: invalid without a reason", tc.name)
		}
		if tc.diag != "" && !slices.ContainsFunc(r.Diagnostics, func(d Diagnostic) bool { return d.Kind == tc.diag }) {
			t.Errorf("%s: no %s diagnostic in %v", tc.name, tc.diag, r.Diagnostics)
		}
	}
}
