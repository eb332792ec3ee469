// Package viewer is the HTML page of a report and its plots, one answer
// as harness show prints it (WriteTranscript), and the spool that holds
// what the page shows of each answer while a run is scored (Spool), so
// that neither the transcripts nor their diffs are held in memory.
//
// The page is one file that loads nothing. Model output is untrusted: it
// reaches the page only through html/template's contextual escaping, and
// a Content-Security-Policy that allows only the page's own inline style
// and script (by hash) is the second wall. Every model-derived text the
// page shows is bounded (MaxShown), so the page grows with the number of
// transcripts, never with what a model wrote.
//
// Rules: it shows the tables and words of package render and the numbers
// of the report's JSON (the transcript table and the step plots those of
// its answers, report.Answer); it computes no statistic of its own. From
// the scores it takes only the evidence a transcript's detail shows
// beside the numbers: the output, the diagnostics, validation problems,
// gold-edit checks, judge votes, API error, transcript hash and finish
// reason. Every chart of a report is drawn here (the sections' plots, the
// steps' curves, the answer formats' charts), with package viewer/chart,
// whose geometry the trend's page shares (Template, CSS, CSPHash).
package viewer
