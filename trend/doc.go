// Package trend follows reports through time, as a nightly run's readers
// need: `harness trend` orders any number of reports by their ran_at and
// gives, per (model, suite, class), the headline numbers of every night,
// each night's verdict, §8.5 reading and the failures it added or lost,
// and for the delegate suite RS@k per surface (Report, Of). A change from
// one night to the next is what package compare's paired tests say of the
// two reports (the signed-rank test on the documents' values, McNemar's
// exact test on the lossless answers), and every test of the window is
// adjusted together (Holm): of forty windows of twenty noise-only nights,
// 4 flag a change, against 21 when each step is adjusted alone
// (TestNoiseNightsRaiseNoFlag; docs/interpretations.md, "The family").
// What differs between a report and the one before it in what the runs
// asked (compare.Differences) is a note, never silently compared.
//
// A year of nights is read one report at a time (OfFiles: each without
// its answers, a few ahead on every core), keeping of past nights only
// what the next tests compare with; its Markdown groups the nights by
// week, lists each distinct set of failures once and every flagged change
// on its own, and leaves the per-night tables to the HTML page.
//
// Its one reason to change is how a series of reports is read as a
// trend: the tests it takes from compare and their adjustment, what a
// night shows, and its two writers (WriteMarkdown, WriteHTML with the
// viewer's chart geometry). The numbers it prints are the reports' own;
// it computes none beyond the tests.
package trend
