// Package suggest finds the name a user most likely meant: the command
// and flag names of harness, and the task ids of a run (harness show).
package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the candidate closest to s by edit distance, when it is
// close enough to be a typo (at most 2 edits, or a prefix either way); ""
// otherwise. Of candidates equally close, the first wins.
func Nearest(s string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(s, c)
		if strings.HasPrefix(c, s) || strings.HasPrefix(s, c) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
