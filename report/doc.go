// Package report is the verdict report's schema and Build, which turns the
// scores of a run into it (§8.5, §8.7): reports/<run-id>.json. Build is a
// pure function of the scores and the configuration; the rules it applies
// (thresholds, §8.6 eligibility, §8.5's reading) are package verdict's,
// over the measures Build reads out of its results; the writers (package
// render: Markdown, HTML, CSV, JUnit) only format what Build computed.
//
// # Schema
//
// The JSON report is the Report struct, whose fields are documented one by
// one: the five fields of the §8.7 example (harness_version, ran_at,
// models, results, verdict), and, in results, the six per-model fields
// (class_a_faithfulness, class_b_median_drift, class_b_p95_drift,
// class_c_median_drift, class_c_p95_drift, transcripts), with their spec
// names. Everything else is added beside them. Its schema field is
// SchemaVersion; ReadJSON also reads schemas 2 and 3, converting them
// (fromSchema2, fromSchema3), and refuses any other.
//
// # Statistics
//
// A (model, class) is summarized over its documents. A document's value is
// that of its first scored repeat (for class A, its first judged one): its
// drift (classes B and C), or 1 when the judges found it faithful and 0
// when not (class A); a document with no such repeat is left out (and the
// run is incomplete). The other repeats never move a gated statistic: they
// measure its spread (below). Then
//
//	median drift   = Q(0.5) of the document drifts
//	P95 drift      = Q(0.95) of the document drifts
//	faithfulness   = mean of the document values (a share)
//
// with one quantile definition for every quantile in the report, the
// inverse of the empirical distribution function (Hyndman and Fan's type
// 1):
//
//	Q(p) = x₍ₖ₎,  k = ⌈p·n⌉ (k = 1 for p = 0),
//
// the k-th smallest of the n values. Q is always one of the values: over
// the 20 documents of a class the median is the 10th smallest (the lower
// median) and the P95 the 19th, so a P95 threshold tolerates exactly one
// document above it: P95 ≤ L exactly when at most one of 20 is over L
// (Check.Over counts them).
//
// Every interval is exact and depends on the values alone, never on a
// seed (package stats; Interval): a quantile's by order statistics, the
// narrowest [x(l), x(u)] whose binomial confidence reaches 95% (the median
// of 20: [x(6), x(15)]), or, where none does (a P95 below 59 documents),
// each end one-sided with its own confidence (the P95 of 20: at least
// x(17) with 98.4%, at most x(20) with 64.2%); a share's by
// Clopper–Pearson. No statistic multiplies and adds in one expression, so
// no machine fuses them and the JSON report is the same bytes everywhere.
//
// With more than one repeat the report adds the inter-run noise (§8.7):
// the headline number (median drift, or faithfulness) over each repeat
// alone and their range (Noise), and, per check of the reading, every
// gated statistic over each repeat alone and its spread.
//
// # Verdict
//
// The rules below are package verdict's (Table, Eligible, Read); the
// report carries what they return. The verdict is "pass" when, for every model, every §8.5 threshold holds
// (faithfulness ≥ its minimum, each median and P95 ≤ its maximum; a value
// equal to its threshold holds) and the run is complete: no missing
// transcript, no API error of an answer or a judge, and no class A answer
// left without a valid judge vote. Anything else is "fail", and Failures
// names every cause: each threshold that does not hold (with the value and
// the limit, or a null value when nothing could be measured) and, per
// model, "incomplete" with what is missing. The harness's own gates (†)
// fail the verdict as §8.5's thresholds do.
//
// The Reading is what §8.5 concludes: pass, a model-specific weakness or
// a protocol failure, decided on §8.5's five thresholds alone (the
// harness's gates are read on a line of their own), or inconclusive for a
// run that cannot gate v0.1 (§8.6).
//
// # Rescoring
//
// `harness rescore runs/<run-id>` recomputes every score from the archived
// transcripts and rebuilds the report. Same transcripts, same metric: the
// JSON report is byte-identical to the fresh one except for one added line,
// "rescored_at", right after "ran_at" (StripRescoredAt removes it).
package report
