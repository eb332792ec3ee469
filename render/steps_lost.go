package render

import (
	"fmt"
	"strconv"
	"strings"

	"bendscript.com/round-trip-harness/report"
)

// LostSteps is a delegate section's per-step table (SectionTable) cut,
// for the Markdown, to the steps where something was lost: a row stays
// when not every answer was lossless, or when an answer was not run,
// failed at the API or is missing. The rows left out are named in the
// note, per model and format, and the HTML page keeps them all (issue 56:
// three models made 60 rows before the formats multiplied them). Any
// other section's table is returned as it is.
func LostSteps(sec report.Section, t Table) Table {
	if sec.Delegation == nil || len(t.Rows) != len(sec.Rows) {
		return t
	}
	var kept []TableRow
	var order []string
	left := map[string][]int{}
	for i, row := range sec.Rows {
		if lostSomething(row.Summary) {
			kept = append(kept, t.Rows[i])
			continue
		}
		who := code(row.Model) + " (" + mdText(row.Format) + ")"
		if row.Rung != "" {
			who += " rung " + mdText(row.Rung)
		}
		if left[who] == nil {
			order = append(order, who)
		}
		left[who] = append(left[who], row.Step)
	}
	if len(order) == 0 {
		return t
	}
	var parts []string
	for _, who := range order {
		parts = append(parts, who+" "+stepRanges(left[who]))
	}
	t.Rows = kept
	t.MDNote += fmt.Sprintf(" Only the steps where something was lost are listed here; every answer was lossless at %s (the HTML report lists every step).", strings.Join(parts, "; "))
	return t
}

// lostSomething reports whether a per-step row lost anything: an answer
// not lossless, not run, failed at the API or missing (or none scored).
func lostSomething(s report.Summary) bool {
	return s.Lossless == nil || *s.Lossless < 1 || s.NotRun > 0 || s.APIErrors > 0 || s.Missing > 0
}

// stepRanges writes ascending steps as "step 3" or "steps 1–4, 7".
func stepRanges(steps []int) string {
	var parts []string
	for i := 0; i < len(steps); {
		j := i
		for j+1 < len(steps) && steps[j+1] == steps[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.Itoa(steps[i])+"–"+strconv.Itoa(steps[j]))
		} else {
			parts = append(parts, strconv.Itoa(steps[i]))
		}
		i = j + 1
	}
	if len(steps) == 1 {
		return "step " + parts[0]
	}
	return "steps " + strings.Join(parts, ", ")
}
