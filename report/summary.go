package report

import "bendscript.com/round-trip-harness/verdict"

// Summary is the one summary of a group of answers: every table of the
// report is rows of (group key, Summary), so a number means the same in
// every section. Counts are over the group's planned answers (task ×
// repeat); the statistics (drift quantiles and shares) are over its tasks,
// each task's value that of its first scored repeat, so that they do not
// move with --repeats; their intervals are exact (package stats).
type Summary struct {
	// Planned counts the (task, repeat) pairs of the group; Scored those
	// with an answer, Missing those without a transcript, APIErrors those
	// whose call failed after its retries (never scored as drift).
	Planned   int `json:"planned"`
	Scored    int `json:"scored"`
	Missing   int `json:"missing"`
	APIErrors int `json:"api_errors"`
	// NotRun counts relay steps never asked because their chain ended
	// earlier (scored, as drift 1).
	NotRun int `json:"not_run"`
	// Invalid counts scored answers that held no usable document or one
	// that fails validation; FailedToApply those of them whose answer in a
	// patch format did not apply; CutOff the scored answers stopped at the
	// output budget (finish_reason "length").
	Invalid       int `json:"invalid"`
	FailedToApply int `json:"failed_to_apply"`
	CutOff        int `json:"cut_off"`
	// Tasks is the number of tasks with a drift: the n of the statistics.
	Tasks int `json:"tasks"`
	// MedianDrift, P95Drift and MaxDrift are over the tasks' drifts (the
	// report's quantile definition); null when nothing was scored. The
	// intervals are the exact order-statistic intervals of the population
	// median and P95 (Interval; one-sided ends for a P95 of fewer than 59
	// tasks).
	MedianDrift    *float64          `json:"median_drift"`
	MedianInterval *verdict.Interval `json:"median_interval,omitempty"`
	P95Drift       *float64          `json:"p95_drift"`
	P95Interval    *verdict.Interval `json:"p95_interval,omitempty"`
	MaxDrift       *float64          `json:"max_drift,omitempty"`
	// EditsApplied, Lossless, Unchanged and InvalidShare are shares of the
	// tasks' first scored answers: the edit fully applied, lossless
	// (metric.Result.Lossless), without unrequested change, invalid. Null
	// when nothing was scored.
	EditsApplied *float64 `json:"edits_applied"`
	Lossless     *float64 `json:"lossless"`
	Unchanged    *float64 `json:"unchanged"`
	InvalidShare *float64 `json:"invalid_share"`
	// EditCompliance is the mean over the tasks' first scored answers of
	// the share of the gold edit's operations that hold.
	EditCompliance *float64 `json:"edit_compliance,omitempty"`
	// UnrequestedMedian and UnrequestedMax are the median and largest
	// count of unrequested changes over the scored answers that held a
	// document.
	UnrequestedMedian *float64 `json:"unrequested_median,omitempty"`
	UnrequestedMax    *int     `json:"unrequested_max,omitempty"`
	// Tokens and Cost sum every answer's usage (API errors included);
	// AnswerBytes is the length of the scored answers that were asked.
	Tokens      Tokens `json:"tokens"`
	Cost        Cost   `json:"cost"`
	AnswerBytes int64  `json:"answer_bytes"`
	// LatencyMS are percentiles of the scored answers' latency.
	LatencyMS Latency `json:"latency_ms"`
	// With feedback rounds (--feedback; absent without them):
	// WellFormedFirst, AppliedFirst and LosslessFirst are the shares of
	// first answers well-formed (parsed in the format, applied, validated:
	// scoring.Score.WellFormed), with the edit applied and lossless;
	// WellFormedAfter is the share of scored answers well-formed after the
	// rounds (their edits applied and lossless shares are EditsApplied and
	// Lossless). FeedbackRounds counts the rounds asked.
	WellFormedFirst *float64 `json:"well_formed_first,omitempty"`
	AppliedFirst    *float64 `json:"edits_applied_first,omitempty"`
	LosslessFirst   *float64 `json:"lossless_first,omitempty"`
	WellFormedAfter *float64 `json:"well_formed_after_feedback,omitempty"`
	FeedbackRounds  int      `json:"feedback_rounds,omitempty"`
	// DocumentBytes is the size of the largest document the group's
	// tasks give (their source, as the model saw it when exact); 0 when
	// the task set was not at hand.
	DocumentBytes int `json:"document_bytes,omitempty"`
}

// Key is where a group of answers stands in a run: every field a report
// row can be grouped by. A field a row does not group by is its zero value
// ("" or 0); Format is always set (formats.Document for a whole-document
// answer). Which fields a suite part's rows group by, and how they are
// written and ordered, is the part's (suites.Grouping).
type Key struct {
	Model    string `json:"model"`
	Part     string `json:"part"`
	Class    string `json:"class,omitempty"`
	Format   string `json:"format"`
	Rung     string `json:"rung,omitempty"`
	Position string `json:"position,omitempty"`
	Step     int    `json:"step,omitempty"`
}

// Row is one group of answers: where it stands (the key), how its section
// writes that key, and its summary.
type Row struct {
	Key
	// Labels write the key as the section's columns do (suites.Column),
	// in order.
	Labels []string `json:"labels"`
	// Total is set on a row that totals a field over its values
	// (suites.Grouping.Total).
	Total bool `json:"total,omitempty"`
	Summary
	// PerDocument lists the group's tasks, each with its value (its first
	// scored repeat's) and its repeats, by task id in plan order; absent
	// on a total row (suites.Total).
	PerDocument []DocumentResult `json:"per_document,omitempty"`
	// WholeBytes and WholeTokens are, on a row of an answer format other
	// than the whole document, what its scored answers would have been as
	// whole documents: the summed length of their expected documents, and
	// its tokens as the harness estimates them (model.Tokens). The tables
	// set an answer's bytes and tokens against them when the run has no
	// whole-document answer to compare with (issue 56).
	WholeBytes  int64 `json:"whole_bytes,omitempty"`
	WholeTokens int64 `json:"whole_tokens,omitempty"`
}

// Section is one suite part's answers as its table (suites.Grouping):
// rows per model, key and answer format.
type Section struct {
	// Part is the suite part whose answers the rows group.
	Part string `json:"part"`
	// Title is the section's heading; Note what its rows are.
	Title string `json:"title"`
	Note  string `json:"note"`
	// Heads are the heads of the key's columns, in Labels order.
	Heads []string `json:"heads"`
	// Formats is set when the run asked for more than the whole
	// document: the rows differ in format, and the tables say which.
	Formats bool `json:"formats,omitempty"`
	// Chart is the chart the viewer draws of the rows (suites.ChartSize,
	// suites.ChartSteps), or "" for none.
	Chart string `json:"chart,omitempty"`
	// Limits is set when the rows are shown against the gating suite's
	// thresholds, as information.
	Limits bool `json:"limits,omitempty"`
	// Rows are by model (the run's order), then the section's order,
	// then format (the run's order).
	Rows []Row `json:"rows"`
	// Breaks says, for a section of steps, per model and format where
	// chains first broke (Break).
	Breaks []Break `json:"breaks,omitempty"`
	// Delegation is, for chains of round trips, RS@k per model and
	// format and where the loss comes from.
	Delegation *Delegation `json:"delegation,omitempty"`
}

// Break is where one model's chains broke in one answer format.
type Break struct {
	Model  string `json:"model"`
	Format string `json:"format"`
	// FirstExceed counts, per chain, the first step at which its drift
	// exceeds the §8.5 P95 threshold of that step's class ("never" when no
	// step does).
	FirstExceed map[string]int `json:"first_exceed"`
}
