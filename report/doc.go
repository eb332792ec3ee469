// Package report is the verdict report's schema (§8.7):
// reports/<run-id>.json as the Go types that emit it, and their reader and
// writer (ReadJSON, WriteJSON, MarshalJSON). It computes nothing and words
// nothing: package aggregate builds a Report from a run's scores
// (aggregate.Build), package verdict holds the rules whose results it
// carries (thresholds, failures, §8.6 eligibility, §8.5's reading), and
// the writers (render, viewer) print it. Its one reason to change is the
// report's format.
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
// (fromSchema2, fromSchema3), and refuses any other. How each number is
// computed is package aggregate's (its doc says the statistics), and how
// the verdict is decided package verdict's.
//
// Eight of the schema's JSON types are declared in package verdict, which
// computes them, and the report carries them as they are (each name is
// declared once, in the package that owns it): verdict.Eligibility
// (eligibility), verdict.Reading with its verdict.ModelReading,
// verdict.Check and verdict.Over (reading), verdict.Failure (failures),
// verdict.Custom (custom) and verdict.Interval (every *_interval field).
// Their values (verdict.ReadingPass, verdict.StandingNarrow,
// verdict.MetricIncomplete, verdict.SourceHarness, ...) are verdict's
// too. Every other type of the JSON is declared here, Key among them:
// what a row of a section stands for, whose fields a suite part groups
// by (suites.Grouping). The schema imports no suite and no task: whether
// the run's suite gates is kept in its verdict (Informational), and the
// classes it writes are Classes.
//
// # Rescoring
//
// `harness rescore runs/<run-id>` recomputes every score from the archived
// transcripts and rebuilds the report (aggregate.Build). Same transcripts,
// same metric: the JSON report is byte-identical to the fresh one except
// for one added line, "rescored_at", right after "ran_at"
// (StripRescoredAt removes it).
package report
