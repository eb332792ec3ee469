package report

import (
	"bendscript.com/round-trip-harness/config"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/transcript"
	"bendscript.com/round-trip-harness/verdict"
)

// SchemaVersion is the version of the report format. ReadJSON refuses any
// other version but 2 and 3, which it converts. Version 4: a class's
// result embeds the Summary every table has, under Summary's names
// (schema3Class), and warnings are records (Warning), no longer
// sentences. Version 3: a document's value is its first scored repeat's
// (the others measure the spread), and intervals are exact.
const SchemaVersion = 4

// The values of Report.Verdict.
// An informational suite (size, relay, natural) decides no verdict: its
// Verdict is Complete or Incomplete, never Pass.
const (
	Pass       = "pass"
	Fail       = "fail"
	Complete   = "complete"
	Incomplete = "incomplete"
)

// IntegritySealRemoved begins the Integrity of a run that was sealed and
// whose seal is gone: the reports say it first and loudly.
const IntegritySealRemoved = "THE SEAL WAS REMOVED"

// Report is the JSON report of one run, reports/<run-id>.json. The fields of
// the spec's example (§8.7: harness_version, ran_at, models, results,
// verdict, and in results the six of ModelResult) keep their names and come
// first; everything else is added beside them.
type Report struct {
	// HarnessVersion is the version of the harness that made the run (§8.7).
	HarnessVersion string `json:"harness_version"`
	// RanAt is when the run started, RFC 3339 in UTC to the second (§8.7).
	// A rescored report keeps the run's time.
	RanAt string `json:"ran_at"`
	// RescoredAt is when `harness rescore` rebuilt this report, in the form
	// of RanAt. It is absent from a fresh run's report, so a rescored report
	// equals the fresh one once this single line is removed.
	RescoredAt string `json:"rescored_at,omitempty"`
	// Integrity says what protects the run's archive: sealed with
	// HARNESS_SEAL_KEY and verified, or unsealed (its transcript hashes
	// detect accidental change, not an edit by someone who can write the
	// archive). Absent when the report was built without reading the run.
	Integrity string `json:"integrity,omitempty"`
	// Models are the answering models, in the run's order (§8.7).
	Models []string `json:"models"`
	// Results are each model's numbers, keyed by model id (§8.7).
	Results map[string]*ModelResult `json:"results"`
	// Verdict is "pass" when every §8.5 threshold holds for every model and
	// the run is complete and whole (not a selection), "fail" otherwise
	// (§8.7). An informational suite's is "complete" or "incomplete".
	Verdict string `json:"verdict"`
	// Eligibility says whether the run can gate v0.1 (§8.6): three
	// frontier models, one of each vendor, none tier-down or offline; the
	// whole gating suite, complete, under the spec's configuration. An
	// ineligible run keeps its verdict, but decides nothing.
	Eligibility verdict.Eligibility `json:"eligibility"`
	// Reading is what §8.5 concludes of the run: pass, a model-specific
	// weakness, a protocol failure, or inconclusive (ineligible), with each
	// model's standing and every threshold's margin, interval and
	// deciding documents.
	Reading verdict.Reading `json:"reading"`
	// Failures lists every reason for a failing verdict: "partial" first
	// for a selection of the gating suite, then by model in the order of
	// Models, in the order of the §8.7 fields with "incomplete" last;
	// empty when the verdict is "pass" or "complete".
	Failures []verdict.Failure `json:"failures"`

	// Schema is SchemaVersion.
	Schema int `json:"schema"`
	// APIRoot is the API root the run's online models were asked through
	// (run.json's base_url); "" when every model was offline. §8.6: only
	// a run through OpenRouter (or a root in gating.api_roots) gates.
	APIRoot string `json:"api_root,omitempty"`
	// RunID names the run directory, runs/<run-id>/.
	RunID string `json:"run_id"`
	// GitCommit is the harness commit that made the run, when known.
	GitCommit string `json:"git_commit,omitempty"`
	// MetricVersion is the version of the drift metric that computed the
	// scores (metric.Version).
	MetricVersion string `json:"metric_version"`
	// Weights are the drift weights the scores were computed with (§8.4).
	Weights metric.Weights `json:"weights"`
	// Thresholds are the acceptance thresholds the verdict applies (§8.5).
	Thresholds config.Thresholds `json:"thresholds"`
	// CorpusHash identifies the corpus documents and task files
	// (task.Set.Hash).
	CorpusHash string `json:"corpus_hash"`
	// PromptHash identifies the prompt templates (task.Prompts.Hash).
	PromptHash string `json:"prompt_hash"`
	// ConfigHash identifies the run's configuration (config.Config.Hash).
	ConfigHash string `json:"config_hash"`
	// Judges are the class A judge models; empty when the gating models
	// judge each other as a panel.
	Judges []string `json:"judges"`
	// Repeats is the number of runs of each (model, task).
	Repeats int `json:"repeats"`
	// Seed is the run's base seed; repeat r was requested with Seed+r.
	// No interval depends on it.
	Seed int64 `json:"seed"`
	// Tasks is the number of tasks in the run, a task in each answer
	// format counted apart (60 for a gating run of whole documents).
	Tasks int `json:"tasks"`
	// Quantile names the quantile definition of every median and P95.
	Quantile string `json:"quantile"`
	// Intervals says how every interval is computed.
	Intervals IntervalInfo `json:"intervals"`
	// Warnings are findings that do not decide the verdict but qualify it,
	// in a fixed order.
	Warnings []Warning `json:"warnings"`

	// Suite is the task suite the run ran, a name of the suite table
	// (package suites: gating, natural, size, relay, all). A suite that
	// gates applies the thresholds; an informational one's verdict says
	// only whether the run is complete.
	Suite string `json:"suite"`
	// Formats are the answer formats the run asked for (--formats), in
	// the run's order; absent for a run that named none (the whole
	// document).
	Formats []string `json:"formats,omitempty"`
	// Jobs counts the answers the run planned, in every format: models ×
	// Tasks × Repeats (Tasks counting every task in every format).
	Jobs int `json:"jobs"`
	// Sections are the suite parts' tables (suites.Grouping), in the
	// suite's order: the natural suite per class, the size ladder per rung
	// and position, the relay per step, and for a run of several answer
	// formats the classes per format; every row per answer format.
	Sections []Section `json:"sections,omitempty"`
	// Calls summarizes every answer of the run, per model, suite part,
	// class and answer format: what completeness, tokens and cost count.
	Calls []Row `json:"calls"`
	// Cost is what the whole run cost (NightCost): answers, feedback
	// rounds, judge votes and abandoned attempts, as `harness runs` counts
	// it; absent for a run of offline models.
	Cost *NightCost `json:"cost,omitempty"`
	// FormatPoints are, for a run of several answer formats, the median
	// drift and output tokens per model, format and document size
	// (FormatPoint); absent otherwise.
	FormatPoints []FormatPoint `json:"format_points,omitempty"`
	// FormatsCompared tests, for a run of several answer formats, each
	// format against the whole document per model (FormatsCompared).
	FormatsCompared *FormatsCompared `json:"formats_compared,omitempty"`

	// Custom lists every threshold and weight that differs from the
	// spec's (§8.5 thresholds, §8.4 weights) or from the harness's own
	// default gates, by configuration key; absent when there is none. A
	// report with any is not the §8.5 verdict, and says so.
	Custom []verdict.Custom `json:"custom,omitempty"`
	// Partial is the selection the run ran (--tasks, --classes, --docs,
	// --limit); absent for a run of the whole suite.
	Partial *transcript.Selection `json:"partial,omitempty"`
	// Answers are the run's answers, one per planned (model, task,
	// repeat) in the order of the scores (Answer): every number the CSV,
	// the viewer's transcript table and its step plots print.
	Answers []Answer `json:"answers,omitempty"`
}

// IntervalInfo says how the report's intervals are computed: exactly,
// without resampling, so that the same scores give the same intervals
// under any seed (package stats).
type IntervalInfo struct {
	// Level is the confidence every interval aims at (0.95); an interval
	// that cannot reach it at this n says its own (Interval.Level).
	Level float64 `json:"level"`
	// Quantiles is the method of the medians' and P95s' intervals.
	Quantiles string `json:"quantiles"`
	// Shares is the method of the shares' intervals (faithfulness, edits
	// applied, invalid, unchanged, documents over a P95 limit).
	Shares string `json:"shares"`
	// Unit says what the statistics are over: each document's first
	// scored repeat.
	Unit string `json:"unit"`
}

// ModelResult is one model's results. The six §8.7 fields come first; the
// per-class detail follows.
type ModelResult struct {
	// ClassAFaithfulness is the mean over class A documents of the fraction
	// of the document's judged answers (scored, with a valid vote) the
	// judges found faithful; null when no answer was judged (§8.7).
	ClassAFaithfulness *float64 `json:"class_a_faithfulness"`
	// ClassBMedianDrift is the median over class B documents of the
	// document's drift; null when no answer was scored (§8.7).
	ClassBMedianDrift *float64 `json:"class_b_median_drift"`
	// ClassBP95Drift is the P95 of the same drifts (§8.7).
	ClassBP95Drift *float64 `json:"class_b_p95_drift"`
	// ClassCMedianDrift is ClassBMedianDrift for class C (§8.7).
	ClassCMedianDrift *float64 `json:"class_c_median_drift"`
	// ClassCP95Drift is ClassBP95Drift for class C (§8.7).
	ClassCP95Drift *float64 `json:"class_c_p95_drift"`
	// Transcripts is the model's transcript directory,
	// runs/<run-id>/<model-slug>/, relative to the directory the run was
	// started in with the default --out (§8.7).
	Transcripts string `json:"transcripts"`

	// Determinism is which determinism controls the model's requests
	// carried (from the manifest): honoured ones were sent, lacking ones
	// are not supported and were not sent, so its numbers are not
	// reproducible call for call; absent for runs that did not record it.
	Determinism *transcript.Determinism `json:"determinism,omitempty"`
	// Providers counts the model's answers by the upstream provider that
	// served them ("unknown" when the response did not say). More than one
	// is a warning: the answers came from differently served models.
	Providers map[string]int `json:"providers"`

	// ClassA is the class A detail; absent when the run has no class A task.
	ClassA *ClassResult `json:"class_a,omitempty"`
	// ClassB is the class B detail; absent when the run has no class B task.
	ClassB *ClassResult `json:"class_b,omitempty"`
	// ClassC is the class C detail; absent when the run has no class C task.
	ClassC *ClassResult `json:"class_c,omitempty"`
}

// Class returns the detail of class c ("A", "B" or "C"), or nil.
func (m *ModelResult) Class(c string) *ClassResult {
	switch c {
	case "A":
		return m.ClassA
	case "B":
		return m.ClassB
	case "C":
		return m.ClassC
	}
	return nil
}

// ClassResult is one (model, class): counts, statistics over documents,
// and resources. A document's value is its drift (B, C) or whether it was
// judged faithful (A) in its first scored (for A, judged) repeat: the
// statistics the thresholds gate are over these, one answer per document,
// so that their expected value and their pass chance do not move with
// --repeats; the other repeats give each statistic's spread (the reading's
// checks). Documents without such a repeat are left out of the
// statistics. Counts are over every answer.
type ClassResult struct {
	// Class is "A", "B" or "C".
	Class string `json:"class"`
	// Summary is the class's numbers as every section counts them
	// (Summary): planned, scored, missing and failed answers, the drift
	// statistics and shares (B, C), tokens, cost and latency. Its Tasks
	// counts the tasks with a value (a drift, or a judges' decision for
	// class A): the n of every statistic of the class.
	Summary
	// FirstAPIError is the text of the first API error, in task and
	// repeat order: what the verdict quotes, so that "60 API errors" says
	// what failed. Absent when there was none.
	FirstAPIError string `json:"first_api_error,omitempty"`
	// FailedCalls names each answer whose call failed, in task and repeat
	// order, with why: the verdict names every task an error of its own
	// request (a refusal, a moderation block) left unanswered. Absent when
	// there was none.
	FailedCalls []FailedCall `json:"failed_calls,omitempty"`
	// CutOffReasoning counts answers that ran out of their output budget
	// while reasoning (finish_reason "length", mostly reasoning tokens);
	// CutOffOutput those whose answer itself was truncated.
	CutOffReasoning int `json:"cut_off_reasoning"`
	CutOffOutput    int `json:"cut_off_output"`
	// ComponentMedians are, per drift component, the median over documents
	// of the document's component (its first scored repeat's) (B, C).
	ComponentMedians *metric.Components `json:"component_medians,omitempty"`

	// The harness's own measures beside §8.4 (metric/doc.go).
	//
	// LosslessCount counts scored answers that are lossless
	// (metric.Result.Lossless) (B, C); Summary.Lossless is the share of
	// the tasks' first scored answers.
	LosslessCount int `json:"lossless_count,omitempty"`
	// ResidualMedian and ResidualP95 are the median and P95 over documents
	// of the document's residual component (its first scored repeat's) (B, C).
	ResidualMedian *float64 `json:"residual_median,omitempty"`
	ResidualP95    *float64 `json:"residual_p95,omitempty"`
	// The exact intervals of the gated statistics beside the drift (B,
	// C): the residual P95's by order statistics, the edits applied,
	// invalid and unchanged shares' by Clopper–Pearson.
	ResidualP95Interval *verdict.Interval `json:"residual_p95_interval,omitempty"`
	EditAppliedInterval *verdict.Interval `json:"edit_applied_interval,omitempty"`
	InvalidInterval     *verdict.Interval `json:"invalid_interval,omitempty"`
	UnchangedInterval   *verdict.Interval `json:"unchanged_interval,omitempty"`
	// Repeatability says, with two repeats or more, which tasks were
	// lossless in every repeat, in some only (flaky) or in none (B, C).
	Repeatability *Repeatability `json:"repeatability,omitempty"`

	// Faithfulness is the mean of the document values (A).
	Faithfulness *float64 `json:"faithfulness,omitempty"`
	// FaithfulnessInterval is the Clopper–Pearson 95% interval of
	// Faithfulness (A), a share of documents.
	FaithfulnessInterval *verdict.Interval `json:"faithfulness_interval,omitempty"`
	// Judging is how the judges decided the class A answers (A).
	Judging *Judging `json:"judging,omitempty"`
	// EvidenceResolvedMean is the mean over valid answers of the fraction of
	// cited ids that exist in the document (metric.AnswerResult) (A).
	EvidenceResolvedMean *float64 `json:"evidence_resolved_mean,omitempty"`

	// Noise is the inter-run noise of the class's headline number (median
	// drift, or faithfulness); absent with a single repeat (§8.7).
	Noise *Noise `json:"noise,omitempty"`
	// PerDocument lists each task of the class, by task id.
	PerDocument []DocumentResult `json:"per_document"`
}

// Repeatability is how a (model, class)'s tasks fare across repeats: the
// share lossless in every repeat (pass^k), in some but not all (flaky),
// in none. Tasks with a missing or failed repeat count by the repeats
// they have.
type Repeatability struct {
	// Tasks is the number of tasks with a scored repeat.
	Tasks int `json:"tasks"`
	// Every, Some and None count the tasks lossless in every scored
	// repeat, in some but not all, in none.
	Every int `json:"every"`
	Some  int `json:"some"`
	None  int `json:"none"`
	// Flaky are the tasks lossless in some repeats only, by id.
	Flaky []string `json:"flaky"`
}

// Noise is the spread of a headline number across repeats: the number
// computed over each repeat's answers alone.
type Noise struct {
	// PerRepeat is the number for each repeat, by repeat; null for a repeat
	// without a value.
	PerRepeat []*float64 `json:"per_repeat"`
	// Range is max − min of PerRepeat.
	Range float64 `json:"range"`
}

// Judging is how the judges decided the answers of a (model, class A).
// An answer is faithful when the panel's verdict says so (judge.Decide).
// An answer without a valid vote is not measured: it is left out of the
// faithfulness fraction (as an answering model's API error is), counted
// here as Undecided, and makes the run incomplete, since nobody judged it.
type Judging struct {
	// Decided counts scored answers with at least one valid vote.
	Decided int `json:"decided"`
	// Undecided counts scored answers without a valid vote: no judge
	// transcript, or every judge failed or replied with no vote.
	Undecided int `json:"undecided"`
	// JudgeAPIErrors counts the judge calls on scored answers that failed
	// (scoring.Score.JudgeAPIErrors).
	JudgeAPIErrors int `json:"judge_api_errors"`
	// Votes counts the judges' votes over all scored answers.
	Votes VoteCount `json:"votes"`
	// Agreement is the fraction of answers with at least two valid votes
	// whose valid votes are unanimous; null when no answer has two.
	Agreement *float64 `json:"agreement"`
}

// VoteCount counts judge votes.
type VoteCount struct {
	// Faithful counts valid votes for faithful.
	Faithful int `json:"faithful"`
	// Unfaithful counts valid votes for unfaithful.
	Unfaithful int `json:"unfaithful"`
	// Error counts judge errors: failed calls and replies that are not a
	// vote. They carry no weight in a decision.
	Error int `json:"error"`
	// Ungrounded counts valid votes quoting text the document does not
	// hold (judge.Verdict.UngroundedVotes); they still count.
	Ungrounded int `json:"ungrounded"`
}

// Tokens sums token usage as the provider reported it.
type Tokens struct {
	// Prompt sums the prompt tokens.
	Prompt int64 `json:"prompt"`
	// Completion sums the completion tokens, as the provider counts them.
	Completion int64 `json:"completion"`
	// Cached sums the prompt tokens served from the provider's cache.
	Cached int64 `json:"cached"`
	// Reasoning sums the completion tokens spent on reasoning.
	Reasoning int64 `json:"reasoning"`
	// Estimated is set when some counts are estimates from the text's
	// length (the offline models count none: model.Response.Estimate).
	Estimated bool `json:"estimated,omitempty"`
}

// Cost sums reported costs.
type Cost struct {
	// USD is the sum of the known costs.
	USD float64 `json:"usd"`
	// Unknown counts answers whose cost was not reported; USD leaves them
	// out.
	Unknown int `json:"unknown"`
}

// Latency holds latency percentiles in milliseconds, by the report's
// quantile definition; all 0 when no answer was scored.
type Latency struct {
	// P50 is Q(0.5) of the latencies.
	P50 int64 `json:"p50"`
	// P95 is Q(0.95) of the latencies.
	P95 int64 `json:"p95"`
	// Max is the largest latency.
	Max int64 `json:"max"`
}

// DocumentResult is one task of a (model, class).
type DocumentResult struct {
	// TaskID is the task, NN-x.
	TaskID string `json:"task_id"`
	// Document is the corpus file name.
	Document string `json:"document"`
	// Drift is the drift of the first scored repeat (B, C), the value the
	// statistics are over; absent when none was scored.
	Drift *float64 `json:"drift,omitempty"`
	// Components are the first scored repeat's components (B, C).
	Components *metric.Components `json:"components,omitempty"`
	// Residual is the first scored repeat's residual component (B, C).
	Residual *float64 `json:"residual,omitempty"`
	// Faithful is 1 when the first judged repeat was judged faithful, 0
	// when not (A); absent when none was judged.
	Faithful *float64 `json:"faithful,omitempty"`
	// Repeats are the repeats, by repeat index.
	Repeats []RepeatResult `json:"repeats"`
}

// RepeatResult is one (model, task, repeat).
type RepeatResult struct {
	// Repeat is the 0-based repeat index.
	Repeat int `json:"repeat"`
	// Status is "scored", "api_error" or "missing" (scoring.Status*).
	Status string `json:"status"`
	// Drift is the answer's drift (B, C; scored only).
	Drift *float64 `json:"drift,omitempty"`
	// Faithful is the judges' decision (A; scored only).
	Faithful *bool `json:"faithful,omitempty"`
	// Lossless, Residual and Unrequested are the answer's
	// metric.Result.Lossless, Residual and UnrequestedChanges (B, C;
	// scored only; Unrequested absent when the answer held no document).
	Lossless    *bool    `json:"lossless,omitempty"`
	Residual    *float64 `json:"residual,omitempty"`
	Unrequested *int     `json:"unrequested,omitempty"`
	// EditApplied is the answer's metric.Result.EditApplied: every
	// operation of the gold edit holds (B, C; scored only). With Lossless
	// it decides the answer's JUnit test case.
	EditApplied *bool `json:"edit_applied,omitempty"`
	// Valid is set when the answer held a document that passes validation
	// (B, C; scored only).
	Valid *bool `json:"valid,omitempty"`
	// Transcript is the transcript's path below the run directory; absent
	// when missing.
	Transcript string `json:"transcript,omitempty"`
}

// Passed reports whether the run succeeds (exit 0): the gating verdict is
// pass, or an informational suite is complete.
func (r *Report) Passed() bool { return r.Verdict == Pass || r.Verdict == Complete }

// Informational reports whether the report's suite decides no verdict:
// its Verdict is Complete or Incomplete, which only a suite that applies
// no threshold is given (aggregate writes Pass or Fail for one that
// gates), so a report read back from disk says it by itself.
func (r *Report) Informational() bool { return r.Verdict == Complete || r.Verdict == Incomplete }

// FailedCall is one answer whose call failed after its retries.
type FailedCall struct {
	TaskID string `json:"task_id"`
	Repeat int    `json:"repeat"`
	// Scope is what the failure was about: "request", "model" or "retry"
	// (retries spent); "" when the client did not classify it.
	Scope string `json:"scope,omitempty"`
	// Reason says why: the classification's reason with the status and
	// OpenRouter's error_type when there is one, else the error's text.
	Reason string `json:"reason"`
}

// FormatPoint is one (model, answer format, source document size) of a
// run of several answer formats: the median drift and the median output
// tokens of its scored class B and C answers (every repeat), what the
// viewer's format charts draw.
type FormatPoint struct {
	Model  string `json:"model"`
	Format string `json:"format"`
	// DocumentBytes is the size of the tasks' source document.
	DocumentBytes int `json:"document_bytes"`
	// MedianDrift and MedianOutputTokens are over the point's answers
	// (the report's quantile definition).
	MedianDrift        float64 `json:"median_drift"`
	MedianOutputTokens float64 `json:"median_output_tokens"`
}

// Classes are the task classes in report order, as the report writes them
// (ClassResult.Class, Key.Class): the values of task.ClassA, task.ClassB
// and task.ClassC, which the schema writes without importing the tasks (a
// test holds them equal).
var Classes = []string{"A", "B", "C"}
