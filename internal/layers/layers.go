// Package layers is the package graph's floor plan: the one table of
// which package stands on which floor. Its test reads every non-test Go
// file of the module and fails when a package imports one on its own
// floor or above (an import that runs up the graph), or when a package is
// on no floor. A new package takes a floor here; an import that does not
// fit is a design change, made here first (DESIGN.md, principle 1).
package layers

// Floors lists the module's packages, lowest floor first, by path
// relative to the module. A package may import only packages on floors
// below its own.
var Floors = []struct {
	Name     string
	Packages []string
}{
	{"leaves: text, files, tables, data (import nothing of ours)", []string{
		"internal/linediff", "internal/regularfile", "internal/safetext", "internal/tabletest",
		"internal/usage", "internal/browsertest", "internal/atomicfile", "stats", "unit", "corpus", "instructions",
		"model/modeltest", "projection/projectiontest",
		"cmd/harness/internal/flagargs", "cmd/harness/internal/suggest",
	}},
	{"leaves over leaves: the viewer's chart geometry", []string{"internal/golden", "internal/layers", "viewer/chart"}},
	{"the document model", []string{"bend"}},
	{"edits and the text projection", []string{"edit", "projection"}},
	{"the metric", []string{"metric"}},
	{"inputs and the client: tasks, configuration, answer formats, the model client", []string{
		"task", "config", "formats", "model",
	}},
	{"the archive", []string{"transcript"}},
	{"what answers and judges, and the verdict's rules: judge, runner, offline models, suite parts, verdict", []string{
		"verdict",
		"judge", "runner", "offline", "suites/ladder", "suites/relay", "task/tasktest", "transcript/transcripttest",
	}},
	{"the report's schema, over the verdict's records; suite parts made of other suite parts (the delegate suite's chains on the ladder's rungs)", []string{
		"report", "suites/delegate",
	}},
	{"scoring, suites (whose sections group by the report's keys), jobs", []string{"scoring", "suites", "jobs"}},
	{"the report's aggregation (scores into a report), and the scores of test runs", []string{"aggregate", "scoring/scoringtest"}},
	{"over reports: writers, sensitivity, test runs", []string{"render", "sensitivity", "pipeline/pipelinetest"}},
	{"the HTML page over render's tables: the viewer, show, the spool", []string{"viewer"}},
	{"comparing reports", []string{"compare"}},
	{"the run, trends and the CLI's progress drawing", []string{"pipeline", "trend", "cmd/harness/internal/progress"}},
	{"the edge", []string{"cmd/harness"}},
}
