// Package projectiontest builds hostile projection texts for tests of the
// parser and of everything that scores a projection answer.
package projectiontest

import (
	"fmt"
	"strings"
)

// front is the metadata block every text here starts with.
const front = "---\nbendscript: \"0.1\"\ntitle: \"deep\"\n---\n\n"

// Quotes is a projection whose body is n quotes, each the only block of
// the one around it, the innermost empty.
func Quotes(n int) string {
	var lines []string
	for d := n; d >= 1; d-- {
		inner := lines
		lines = []string{fmt.Sprintf("{#blk-q%d}", d)}
		if len(inner) > 0 {
			lines = append(lines, "")
			lines = append(lines, inner...)
		}
		for i, l := range lines {
			if l == "" {
				lines[i] = ">"
			} else {
				lines[i] = "> " + l
			}
		}
	}
	return front + strings.Join(lines, "\n") + "\n"
}

// List is a projection whose body is n lists, each list's one item
// holding the next list, the innermost item empty.
func List(n int) string {
	var lines []string
	for d := n; d >= 1; d-- {
		inner := lines
		lines = []string{fmt.Sprintf("{#blk-l%d}", d), fmt.Sprintf("- {#blk-i%d}", d)}
		for _, l := range inner {
			if l == "" {
				lines = append(lines, "")
			} else {
				lines = append(lines, "  "+l)
			}
		}
	}
	return front + strings.Join(lines, "\n") + "\n"
}
