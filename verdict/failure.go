package verdict

import (
	"fmt"

	"bendscript.com/round-trip-harness/unit"
)

// Failure is one reason for a failing verdict.
type Failure struct {
	// Model is the model that fails; empty for a failure of the whole run.
	Model string `json:"model"`
	// Metric is the §8.7 field that fails the threshold
	// (class_a_faithfulness, class_b_median_drift, class_b_p95_drift,
	// class_c_median_drift, class_c_p95_drift), a harness metric
	// (class_b_edit_applied, class_b_residual_p95, class_b_invalid,
	// class_b_unchanged and their class C twins), "incomplete", or
	// "partial" (a selection of the gating suite).
	Metric string `json:"metric"`
	// Value is the measured value; for "incomplete" the number of
	// transcripts missing, errored or without a valid judge vote. Null when
	// nothing was measured.
	Value *float64 `json:"value"`
	// Op is how Value must compare with Limit to pass: ">=" or "<=".
	Op string `json:"op"`
	// Limit is the threshold (0 for "incomplete").
	Limit float64 `json:"limit"`
	// Source says whose threshold it is: "§8.5", SourceHarness for the
	// harness's own gates beside it (edit compliance), or SourceCustom for
	// any threshold configured to a value other than its default; empty
	// for "incomplete" and "partial".
	Source string `json:"source,omitempty"`
	// Message says what failed in a sentence.
	Message string `json:"message"`
}

// Miss is the failure of a threshold t that model's value v does not hold
// (v nil: not measured, for the reason unmeasured): its message gives the
// value beside the limit (a share as percentages, as the tables print
// it), and a custom threshold says its default.
func Miss(model string, t Threshold, v *float64, unmeasured string) Failure {
	f := Failure{Model: model, Metric: t.Metric, Value: v, Op: t.Op, Limit: t.Limit, Source: t.Source()}
	switch {
	case v == nil:
		f.Message = fmt.Sprintf("%s: %s was not measured (%s)", model, t.Label, unmeasured)
	case t.Share():
		// Issue 56: §8.5's faithfulness printed "0.7, want ≥ 0.9" where
		// every table and heading printed 70% and ≥ 90%.
		f.Message = fmt.Sprintf("%s: %s %s, want %s %s", model, t.Label, unit.PercentVs(*v, t.Limit), unit.OpSymbol(t.Op), unit.Percent(t.Limit))
	default:
		f.Message = fmt.Sprintf("%s: %s %s, want %s %s", model, t.Label, unit.NumVs(*v, t.Limit), unit.OpSymbol(t.Op), unit.Num(t.Limit))
	}
	return f
}

// CustomNote is what a failure of a custom threshold adds: its default.
func CustomNote(t Threshold) string {
	if !t.Custom() {
		return ""
	}
	return fmt.Sprintf(" (a custom threshold: %s)", DefaultText(t))
}
