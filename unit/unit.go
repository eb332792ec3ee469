// Package unit words numbers for people, as every writer prints them
// (after x/perf's benchunit): a drift or residual to four decimals with
// trailing zeros dropped, a share as a percentage, a count with its noun.
// It knows nothing of reports; verdict, render, viewer, compare and trend
// all print their numbers through it, so that a number reads the same
// everywhere.
package unit

import (
	"fmt"
	"strconv"
	"strings"
)

// Num formats a number for people: 4 decimals, trailing zeros dropped.
func Num(v float64) string {
	return strings.TrimRight(strings.TrimRight(strconv.FormatFloat(v, 'f', 4, 64), "0"), ".")
}

// NumVs formats v beside limit: as Num, unless that would print a failing
// value as the limit itself; then in full.
func NumVs(v, limit float64) string {
	if s := Num(v); s != Num(limit) || v == limit {
		return s
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// NumOr is Num of *v, or none when v is nil.
func NumOr(v *float64, none string) string {
	if v == nil {
		return none
	}
	return Num(*v)
}

// IntOr is *v in decimal, or "n/a" when v is nil.
func IntOr(v *int) string {
	if v == nil {
		return "n/a"
	}
	return strconv.Itoa(*v)
}

// PercentOr is *v as a percentage to one decimal (0.9 → "90.0%"), or
// "n/a" when v is nil.
func PercentOr(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100**v)
}

// Percent formats a fraction as a percentage: 0.9 → "90%", 0.925 → "92.5%".
func Percent(v float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*v), ".0") + "%"
}

// PercentVs is Percent of v beside a limit: with more decimals when
// Percent would print v as the limit it misses (89.96% is not "90%",
// want ≥ 90%).
func PercentVs(v, limit float64) string {
	s := Percent(v)
	for d := 2; s == Percent(limit) && v != limit && d <= 12; d++ {
		s = strconv.FormatFloat(100*v, 'f', d, 64) + "%"
	}
	return s
}

// Mark is ✅ for true, ❌ for false.
func Mark(ok bool) string {
	if ok {
		return "✅"
	}
	return "❌"
}

// OpSymbol is a threshold's operator as printed: ">=" is ≥, anything
// else ≤.
func OpSymbol(op string) string {
	if op == ">=" {
		return "≥"
	}
	return "≤"
}

// Plural is one when n is 1, many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Dagger marks the harness's own thresholds.
func Dagger(own bool) string {
	if own {
		return " †"
	}
	return ""
}

// TokenText is a token count, marked ≈ when it is an estimate.
func TokenText(n int64, estimated bool) string {
	if estimated {
		return "≈" + strconv.FormatInt(n, 10)
	}
	return strconv.FormatInt(n, 10)
}
