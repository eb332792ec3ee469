package report

// FormatsCompared answers the question an answer-format run exists to
// ask (issue 56): does a format lose more or less than the whole document
// on the same model and the same tasks? Each row pairs one format's
// answers with the whole-document answers of the same model, suite part
// and group, task by task (the format's variant of a task with the task
// itself), and tests them as `harness compare` tests two reports (package
// compare): the exact signed-rank test on the tasks' drift and the exact
// (McNemar) test on their answers' lossless, every test of the report
// adjusted together (Holm). Absent for a run of one answer format.
type FormatsCompared struct {
	// Note says what the rows are and how they were tested.
	Note string `json:"note"`
	// Tests is the size of the family adjusted together.
	Tests int                `json:"tests"`
	Rows  []FormatComparison `json:"rows"`
}

// FormatComparison is one answer format against the whole document for
// one model and group of tasks. Document is the whole-document side
// (compare's old), Format the format's (compare's new).
type FormatComparison struct {
	Model string `json:"model"`
	// Part is the suite part; Group the tasks compared within it: the
	// classes B and C together, a rung of the size ladder, a chain's last
	// step (the horizon, for the delegate suite and the relay).
	Part   string `json:"part"`
	Group  string `json:"group"`
	Format string `json:"format"`
	// DocumentDrift and FormatDrift are the median drift over the paired
	// tasks' first compared repeats (lower is better).
	DocumentDrift *float64 `json:"document_drift"`
	FormatDrift   *float64 `json:"format_drift"`
	// Pairs counts the tasks with a value on both sides, N those whose
	// values differ; P and PAdjusted are the signed-rank test's two-sided
	// p-value, raw and adjusted (nil when no task differs).
	Pairs     int      `json:"pairs"`
	N         int      `json:"n"`
	P         *float64 `json:"p,omitempty"`
	PAdjusted *float64 `json:"p_adjusted,omitempty"`
	// Change is the format's drift against the document's: "better" or
	// "worse" (adjusted p < 0.05), "~" (a test, not significant), "="
	// (no task differs). Resolution says, for "~", what the test would
	// have needed ("unresolved: …", as compare says it).
	Change     string `json:"change"`
	Resolution string `json:"resolution,omitempty"`
	// DocumentLossless and FormatLossless are the shares of lossless
	// answers (first compared repeats); Gained counts the answer pairs
	// lossless in the format only, Lost those lossless in the document
	// only, tested with the exact McNemar test (LosslessP, adjusted in the
	// same family) into LosslessChange.
	DocumentLossless  *float64 `json:"document_lossless,omitempty"`
	FormatLossless    *float64 `json:"format_lossless,omitempty"`
	Gained            int      `json:"lossless_gained"`
	Lost              int      `json:"lossless_lost"`
	LosslessP         *float64 `json:"lossless_p,omitempty"`
	LosslessPAdjusted *float64 `json:"lossless_p_adjusted,omitempty"`
	LosslessChange    string   `json:"lossless_change"`
}
