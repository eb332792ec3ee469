package unit

import (
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestWords(t *testing.T) {
	half, none := 0.5, (*float64)(nil)
	three := 3
	cases := []struct {
		name, got, want, reason string
	}{
		{"num", Num(0.12345), "0.1235", "four decimals, rounded"},
		{"num trailing", Num(0.1), "0.1", "trailing zeros dropped"},
		{"num whole", Num(2), "2", "a whole number drops its point"},
		{"num vs limit", NumVs(0.10001, 0.1), "0.10001", "a failing value that would print as the limit prints in full"},
		{"num vs equal", NumVs(0.1, 0.1), "0.1", "a value equal to its limit prints as Num"},
		{"num or", NumOr(none, "—"), "—", "nil prints the caller's word"},
		{"int or", IntOr(&three), "3", "a count prints in decimal"},
		{"int or nil", IntOr(nil), "n/a", "an unknown count is n/a"},
		{"percent or", PercentOr(&half), "50.0%", "PercentOr keeps its one decimal"},
		{"percent", Percent(0.925), "92.5%", "a share to one decimal"},
		{"percent whole", Percent(0.9), "90%", "Percent drops a .0"},
		{"percent vs limit", PercentVs(0.8996, 0.9), "89.96%", "a failing share that would print as its limit gets the decimals that tell them apart"},
		{"percent vs", PercentVs(0.7, 0.9), "70%", "a share unlike its limit prints as Percent"},
		{"mark", Mark(false), "❌", "a failed check"},
		{"op", OpSymbol(">="), "≥", "at least"},
		{"op le", OpSymbol("<="), "≤", "at most"},
		{"plural", Plural(1, "vote", "votes"), "vote", "one takes the singular"},
		{"plural zero", Plural(0, "vote", "votes"), "votes", "zero takes the plural"},
		{"dagger", Dagger(true), " †", "the harness's own threshold is marked"},
		{"tokens", TokenText(1200, false), "1200", "a reported token count prints in decimal"},
		{"tokens estimated", TokenText(1200, true), "≈1200", "an estimated count is marked ≈"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if c.got != c.want {
			t.Errorf("%s: got %q, want %q (%s)", c.name, c.got, c.want, c.reason)
		}
	}
}
