// Package verdict holds the rules a run is judged by, over plain
// measures: the threshold table (§8.5's five and the harness's own gates,
// Table), whether a value holds, whose threshold it is (Source, Custom),
// the failures of a run and their wording (Failures, Miss, over each
// model's Measured), §8.6's eligibility (Eligible, over Facts) and §8.5's
// reading (Read, over each model's Measures), and DELEGATE-52's readiness
// rule (ReadyAt, ReadyMin). It knows nothing of reports: package aggregate
// reads each gated statistic out of a report's results into a Measure,
// and package report carries what Failures, Read and Eligible return as
// its schema. Its one reason to change is a rule of the verdict.
//
// # Thresholds
//
// A threshold holds when its value is at least (>=) or at most (<=) its
// limit; a value equal to the limit holds; a value not measured does not.
// A threshold whose limit is not its default is custom, and never called
// §8.5. A P95 is read as a count: over n documents it holds exactly when
// at most stats.Allowed(0.95, n) of them are over its limit (one of 20).
//
// # Eligibility (§8.6)
//
// A run can gate v0.1 only when its suite gates, it asked one frontier
// model of each configured vendor (no tier-down word in an id, no offline
// model, the configuration's models), ran the whole suite under the
// default configuration with the current metric and the whole-document
// format, through OpenRouter's API root (or one listed in
// gating.api_roots), every answer served by the model asked, and nothing
// is incomplete. Eligible lists every reason it cannot, in that order.
//
// # Reading (§8.5)
//
// Each of §8.5's five thresholds of each model is weighed against a narrow
// margin (config.Reading): a fraction of a median's limit, share points
// for faithfulness, one document for a P95. A model passes cleanly (every
// threshold holds with the margin to spare), passes, fails narrowly (each
// failure within its margin), fails clearly, or is not measured. The run
// reads as a pass (no model fails), a model-specific weakness (one model
// fails narrowly and every other passes cleanly), a protocol failure
// (anything else that fails), or inconclusive (it cannot gate). The
// harness's own gates (†) never move the reading; they are listed apart.
package verdict
