package judge

import (
	"math"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// expand turns a 2×2 contingency table (rows: rater a, columns: rater b)
// into two label lists.
func expand(table [2][2]int) (a, b []int) {
	for i := range 2 {
		for j := range 2 {
			for range table[i][j] {
				a = append(a, i)
				b = append(b, j)
			}
		}
	}
	return a, b
}

func TestCohenKappa(t *testing.T) {
	tests := []struct {
		name   string
		table  [2][2]int
		want   float64
		ok     bool
		reason string
	}{
		// Wikipedia, "Cohen's kappa", first worked example: 50 items,
		// yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o = 0.7, p_e = 0.5.
		{"textbook", [2][2]int{{15, 10}, {5, 20}}, 0.4, true, "the published value"},
		{"perfect", [2][2]int{{3, 0}, {0, 7}}, 1, true, "full agreement is 1"},
		{"opposite", [2][2]int{{0, 5}, {5, 0}}, -1, true, "systematic disagreement is negative"},
		{"chance", [2][2]int{{1, 1}, {1, 1}}, 0, true, "agreement at chance level is 0"},
		{"one category", [2][2]int{{0, 0}, {0, 9}}, 0, false, "p_e = 1 leaves κ undefined, not 1 or NaN"},
		{"empty", [2][2]int{}, 0, false, "no items, no κ"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			a, b := expand(tt.table)
			got, ok := CohenKappa(a, b, 2)
			if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("CohenKappa = %v, %v; want %v, %v (%s)", got, ok, tt.want, tt.ok, tt.reason)
			}
		})
	}
	if _, ok := CohenKappa([]int{0, 1}, []int{0}, 2); ok {
		t.Error("CohenKappa accepted lists of different lengths")
	}
	if _, ok := CohenKappa([]int{0, 2}, []int{0, 1}, 2); ok {
		t.Error("CohenKappa accepted a category out of range")
	}
}

func TestFleissKappa(t *testing.T) {
	// Wikipedia, "Fleiss' kappa", worked example: 10 items, 14 raters,
	// 5 categories; κ = 0.210 (P̄ = 0.378, P̄_e = 0.213).
	textbook := [][]int{
		{0, 0, 0, 0, 14},
		{0, 2, 6, 4, 2},
		{0, 0, 3, 5, 6},
		{0, 3, 9, 2, 0},
		{2, 2, 8, 1, 1},
		{7, 7, 0, 0, 0},
		{3, 2, 6, 3, 0},
		{2, 5, 3, 2, 2},
		{6, 5, 2, 1, 0},
		{0, 2, 2, 3, 7},
	}
	if got, ok := FleissKappa(textbook); !ok || math.Abs(got-0.20993) > 5e-5 {
		t.Errorf("FleissKappa(textbook) = %v, %v; want 0.20993", got, ok)
	}
	// With two raters Fleiss' κ is Scott's π; on a table with equal
	// marginals it equals Cohen's κ.
	a, b := expand([2][2]int{{10, 5}, {5, 10}})
	var rows [][]int
	for i := range a {
		row := []int{0, 0}
		row[a[i]]++
		row[b[i]]++
		rows = append(rows, row)
	}
	ck, _ := CohenKappa(a, b, 2)
	if fk, ok := FleissKappa(rows); !ok || math.Abs(fk-ck) > 1e-12 {
		t.Errorf("FleissKappa = %v, Cohen = %v; want them equal for two raters with equal marginals", fk, ck)
	}
	for name, counts := range map[string][][]int{
		"no items":      nil,
		"one rater":     {{1, 0}, {0, 1}},
		"uneven raters": {{2, 1}, {1, 1}},
		"one category":  {{3, 0}, {3, 0}},
	} {
		if _, ok := FleissKappa(counts); ok {
			t.Errorf("FleissKappa(%s) is defined; want undefined", name)
		}
	}
}
