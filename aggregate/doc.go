// Package aggregate turns the scores of a run into its report
// (§8.5, §8.7): Build reads the manifest, the configuration and every
// planned answer's score and returns a report.Report, summarizing them
// into classes, sections (Summary rows), calls, breaks, the delegation's
// reconstruction scores, format points and typed warnings, with the
// verdict's measures handed to package verdict (Failures, Eligible, Read)
// and what it returns stored. Build is pure: the same Input gives the same
// Report, byte for byte. Its one reason to change is how a run's numbers
// are computed from its scores; the report's format is package report's,
// the rules package verdict's, and the words the writers'. The few
// sentences the JSON itself holds are written here, where they are
// stored: what the intervals are (QuantileMethod, ShareMethod) and what
// RS@k is (SimilarityNote).
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
// The rules below are package verdict's (Table, Failures, Eligible,
// Read); Build hands them each model's measures (verdict.Measured) and
// stores what they return. The verdict is "pass" when, for every model,
// every §8.5 threshold holds (faithfulness ≥ its minimum, each median and
// P95 ≤ its maximum; a value equal to its threshold holds) and the run is
// complete: no missing
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
package aggregate
