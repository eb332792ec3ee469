// Package linediff is the one line diff of the harness: the viewer's
// expected → produced diffs and the golden-file tests' failure messages
// both use it, so a test failure reads like the report does (one inserted
// line is one "+" line, not a run of changed positions).
package linediff

import (
	"fmt"
	"strings"
)

// maxDiffCells bounds the line-alignment table of one diff (rows × columns
// after the common prefix and suffix are set aside), so that a huge garbage
// output cannot stall the viewer's writer: past it, the differing middle is
// shown as deleted, then inserted.
const maxDiffCells = 4 << 20

// Line is one line of a line diff.
type Line struct {
	Op   string // " " same, "-" expected only, "+" output only
	Old  int    // 1-based line in the expected text; 0 for "+"
	New  int    // 1-based line in the output; 0 for "-"
	Text string
}

// Hunk is a run of changes with context, as in a unified diff.
type Hunk struct {
	Header string // @@ -old,n +new,m @@
	Lines  []Line
}

// Diff aligns a and b by a longest common subsequence of lines. aligned
// is false when the texts were too large to align and the differing middle
// is shown as deleted, then inserted.
func Diff(a, b []string) (lines []Line, aligned bool) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for i := 0; i < pre; i++ {
		lines = append(lines, Line{" ", i + 1, i + 1, a[i]})
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	mid, aligned := lcsDiff(am, bm, pre)
	lines = append(lines, mid...)
	for i := 0; i < suf; i++ {
		ai, bi := len(a)-suf+i, len(b)-suf+i
		lines = append(lines, Line{" ", ai + 1, bi + 1, a[ai]})
	}
	return lines, aligned
}

// lcsDiff diffs the middles a and b, whose first lines are line off+1 of
// their texts.
func lcsDiff(a, b []string, off int) ([]Line, bool) {
	n, m := len(a), len(b)
	var out []Line
	if n*m > maxDiffCells {
		for i, s := range a {
			out = append(out, Line{"-", off + i + 1, 0, s})
		}
		for j, s := range b {
			out = append(out, Line{"+", 0, off + j + 1, s})
		}
		return out, false
	}
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([]int32, (n+1)*(m+1))
	at := func(i, j int) int32 { return l[i*(m+1)+j] }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case a[i] == b[j]:
				l[i*(m+1)+j] = at(i+1, j+1) + 1
			default:
				l[i*(m+1)+j] = max(at(i+1, j), at(i, j+1))
			}
		}
	}
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, Line{" ", off + i + 1, off + j + 1, a[i]})
			i, j = i+1, j+1
		case i < n && (j == m || at(i+1, j) >= at(i, j+1)):
			out = append(out, Line{"-", off + i + 1, 0, a[i]})
			i++
		default:
			out = append(out, Line{"+", 0, off + j + 1, b[j]})
			j++
		}
	}
	return out, true
}

// Hunks groups the changed lines with context lines of context around
// them; nil when nothing changed.
func Hunks(lines []Line, context int) []Hunk {
	var out []Hunk
	for i := 0; i < len(lines); {
		if lines[i].Op == " " {
			i++
			continue
		}
		start := max(0, i-context)
		end := i
		for end < len(lines) {
			if lines[end].Op != " " {
				end++
				continue
			}
			// Extend over a run of unchanged lines only when another change
			// follows within 2·context lines.
			k := end
			for k < len(lines) && lines[k].Op == " " {
				k++
			}
			if k < len(lines) && k-end <= 2*context {
				end = k
				continue
			}
			end = min(len(lines), end+context)
			break
		}
		out = append(out, Hunk{Header: hunkHeader(lines[start:end]), Lines: lines[start:end]})
		i = end
	}
	return out
}

func hunkHeader(ls []Line) string {
	oldStart, newStart, oldN, newN := 0, 0, 0, 0
	for _, l := range ls {
		if l.Old > 0 {
			if oldStart == 0 {
				oldStart = l.Old
			}
			oldN++
		}
		if l.New > 0 {
			if newStart == 0 {
				newStart = l.New
			}
			newN++
		}
	}
	return fmt.Sprintf("@@ -%d,%d +%d,%d @@", oldStart, oldN, newStart, newN)
}

// Split splits text into lines without their line ends; a final line
// end does not make an empty last line.
func Split(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// Unified is a unified-style diff of want and got with context lines of
// context: each hunk's header, then its lines prefixed " ", "-" or "+".
// It is "" when the texts are equal.
func Unified(want, got string, context int) string {
	lines, _ := Diff(Split(want), Split(got))
	var b strings.Builder
	for _, h := range Hunks(lines, context) {
		b.WriteString(h.Header + "\n")
		for _, l := range h.Lines {
			b.WriteString(l.Op + " " + l.Text + "\n")
		}
	}
	return b.String()
}
