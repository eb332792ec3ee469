// Package render prints a report for people: the Markdown summary (for
// pull requests and CI job summaries), the self-contained HTML viewer and
// its plots, the CSV of every answer, the JUnit file of every threshold
// and answer, and one transcript as harness show prints it. It prints
// what package report computed and numbers as package unit words them; it
// computes no statistic of its own.
//
// # Viewer
//
// The HTML viewer is one file that loads nothing. Model output is
// untrusted: it reaches the page only through html/template's contextual
// escaping, and a Content-Security-Policy that allows only the page's own
// inline style and script (by hash) is the second wall.
package render
