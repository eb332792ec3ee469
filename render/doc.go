// Package render prints a report as text: the Markdown summary (for pull
// requests and CI job summaries), the JUnit file of every threshold and
// answer, and the CSV of every answer; and the pieces every writer shares,
// the HTML page (package viewer) included: the tables (Table, and the
// section, number and delegation tables), the verdict's and the
// reading's words for people.
//
// Rules: it prints what package report computed and numbers as package
// unit words them; it computes no statistic of its own. It prints text
// only and draws nothing: every chart is package viewer's (drawn with
// viewer/chart), and render imports no chart package. It imports no
// writer above it (viewer, compare, trend build on it).
package render
