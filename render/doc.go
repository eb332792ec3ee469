// Package render prints a report as text: the Markdown summary (for pull
// requests and CI job summaries), the JUnit file of every threshold and
// answer, and the CSV of every answer; and the pieces every writer shares,
// the HTML page (package viewer) included: the tables (Table, and the
// section, number and delegation tables), the verdict's and the
// reading's words for people, and the format comparison's charts.
//
// Rules: it prints what package report computed and numbers as package
// unit words them; it computes no statistic of its own. It draws nothing
// itself: a chart's geometry is package viewer/chart's. It imports no
// writer above it (viewer, compare, trend build on it).
package render
