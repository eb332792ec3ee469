package render

import (
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/unit"
	"bendscript.com/round-trip-harness/verdict"
)

// maxDeciding is the most deciding documents a matrix cell names; more
// are counted.
const maxDeciding = 6

// cellText is one threshold of one model as the matrix shows it: the
// value and its interval, and for a failure whether it is narrow; the
// documents that decide a P95 or a failure.
func cellText(c verdict.Check, share bool) string {
	p := CellParts(c, share)
	text := p.Value
	if p.Interval != "" {
		text += " " + p.Interval
	}
	switch {
	case strings.HasPrefix(p.Note, "("):
		text += " " + p.Note
	case p.Note != "":
		text += "; " + p.Note
	}
	return text
}

// CellParts is cellText in its three parts, which the viewer sets on
// lines of their own: the value, its interval ("[low, high]"), and the
// rest ("(narrow); 02-c, 03-c short").
func CellParts(c verdict.Check, share bool) MatrixCell {
	if c.NotSelected {
		return MatrixCell{Value: "not selected"}
	}
	if c.Value == nil {
		return MatrixCell{Value: "n/a"}
	}
	show := unit.Num
	if share {
		show = unit.Percent
	}
	out := MatrixCell{Value: show(*c.Value)}
	out.Interval = verdict.IntervalText(c.Interval, show)
	if o := c.Over; o != nil {
		out.Interval += fmt.Sprintf(" %d/%d over", o.Over, o.Of)
	}
	switch {
	case c.Narrow:
		out.Note = "(narrow)"
	case !c.Holds:
		out.Note = "(beyond the margin)"
	}
	if len(c.Deciding) > 0 && (!c.Holds || strings.Contains(c.Metric, "p95")) {
		out.Note = strings.TrimPrefix(out.Note+"; ", "; ") + decidingText(c)
	}
	if c.Spread != nil {
		out.Note = strings.TrimPrefix(out.Note+"; ", "; ") + "repeats " + repeatRange(c.PerRepeat, show)
	}
	return out
}

// repeatRange is a statistic's smallest and largest value over the
// repeats alone, "0.12–0.19".
func repeatRange(per []*float64, show func(float64) string) string {
	var lo, hi *float64
	for _, v := range per {
		if v != nil && (lo == nil || *v < *lo) {
			lo = v
		}
		if v != nil && (hi == nil || *v > *hi) {
			hi = v
		}
	}
	if lo == nil {
		return "n/a"
	}
	return show(*lo) + "–" + show(*hi)
}

// decidingText names the documents that fall short of a limit, or counts
// them when there are many; of a check that holds, the documents over
// (or under) the limit, which it allows: a held check never falls short
// (issue 46).
func decidingText(c verdict.Check) string {
	word := " short"
	if c.Holds {
		word = " over"
		if c.Op == ">=" {
			word = " under"
		}
	}
	if len(c.Deciding) > maxDeciding {
		return fmt.Sprintf("%d documents", len(c.Deciding)) + word
	}
	return strings.Join(c.Deciding, ", ") + word
}

// readingLines are the reading's models, each with its groups of notes:
// why, the models, and the reasons a run cannot gate.
func readingLines(r *report.Report) (why string, models []ReadingModel, reasons []string) {
	return r.Reading.Why, readingModels(r), r.Eligibility.Reasons
}

// ReadingModel is one model's line of the reading: its standing, then its
// notes in groups, which the viewer and the Markdown list beneath it: the
// thresholds it misses, those it holds with less than the margin to spare
// (issue 46: told apart from the misses by their wording alone), and the
// bounds its clean classes support. Each note is a sentence.
type ReadingModel struct {
	Model, Standing string
	Groups          []NoteGroup
}

// NoteGroup is a heading and its notes.
type NoteGroup struct {
	Title string
	Notes []string
}

// readingModels are the reading's models, in its order.
func readingModels(r *report.Report) []ReadingModel {
	var out []ReadingModel
	for _, m := range r.Reading.Models {
		rm := ReadingModel{Model: m.Model, Standing: m.Standing}
		var misses, spare []string
		for _, c := range m.Checks {
			switch {
			case c.Clean || c.NotSelected || slices.Contains(m.Harness, c.Text):
			case c.Holds:
				spare = append(spare, sentence(c.Text))
			default:
				misses = append(misses, sentence(c.Text))
			}
		}
		var bounds, harness []string
		for _, b := range m.Bounds {
			bounds = append(bounds, sentence(b))
		}
		for _, h := range m.Harness {
			harness = append(harness, sentence(h))
		}
		for _, g := range []NoteGroup{{"Misses", misses}, {"Holds with less than the margin to spare", spare}, {"Bounds", bounds},
			{"Harness gates (†), which fail the verdict but not the reading", harness}} {
			if len(g.Notes) > 0 {
				g.Title = fmt.Sprintf("%s (%d)", g.Title, len(g.Notes))
				rm.Groups = append(rm.Groups, g)
			}
		}
		out = append(out, rm)
	}
	return out
}

// marginsText says how the reading weighs a check: the narrow margins of
// §8.5's five thresholds, and how the intervals are computed.
func marginsText(r *report.Report) string {
	return fmt.Sprintf("§8.5's five thresholds decide the reading; the harness's own (†) fail the verdict on a line of their own. "+
		"A failure is narrow when a median misses its limit by at most %s of it, faithfulness by at most %s, or a P95 by one document too many over its limit; "+
		"a model passes cleanly when each holds with that margin to spare (a P95 that holds is clean: the document over it that 20 allow is its tolerance). "+
		"Intervals are exact at 95%%, without a seed: order statistics for a median, Clopper–Pearson for a share; "+
		"a P95 of fewer than 59 documents has no 95%% interval, and its one-sided ends show their own confidence. "+
		"Repeats a–b: with --repeats, the statistic over each repeat alone, smallest and largest (the verdict reads each document's first).",
		unit.Percent(r.Reading.NarrowFraction), unit.Percent(r.Reading.NarrowShare))
}

// sentence is s begun with a capital letter and ended with a full stop.
func sentence(s string) string {
	s = upperFirst(s)
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// readingHeading is the reading's heading.
func readingHeading(r *report.Report) string {
	return fmt.Sprintf("§8.5 reading: %s", r.Reading.Outcome)
}

// ModelChecks are the reading's checks of the i-th model, in the order of
// Report.Checks; nil for a report without a reading.
func ModelChecks(r *report.Report, i int) []verdict.Check {
	if i < len(r.Reading.Models) && len(r.Reading.Models[i].Checks) == len(r.Checks()) {
		return r.Reading.Models[i].Checks
	}
	return nil
}

// Standing is the i-th model's standing, or "n/a".
func Standing(r *report.Report, i int) string {
	if i < len(r.Reading.Models) {
		return r.Reading.Models[i].Standing
	}
	return "n/a"
}

// ReadingView is §8.5's reading as the viewer's verdict box shows it.
type ReadingView struct {
	Heading, Says, Why, Margins string
	Reasons                     []string
	// Models are one item each, its notes listed beneath it (a run-on
	// line per model was hard to read).
	Models []ReadingModel
	// Gates is set when the run can gate v0.1 (§8.6).
	Gates bool
}

// NewReadingView is the reading of a gating suite's report; nil for an
// informational suite or a report without one.
func NewReadingView(r *report.Report) *ReadingView {
	if r.Informational() || r.Reading.Outcome == "" {
		return nil
	}
	why, reasons := r.Reading.Why, r.Eligibility.Reasons
	v := &ReadingView{Heading: readingHeading(r), Says: r.Reading.Says, Reasons: reasons, Models: readingModels(r), Margins: marginsText(r)}
	if len(reasons) == 0 {
		v.Why, v.Gates = why, true
	}
	return v
}

// MatrixCell is one threshold of one model: its value, interval and
// note (CellParts), and whether it holds.
type MatrixCell struct {
	Value, Interval, Note string
	OK                    bool
	// Model names the cell's model where the matrix is stacked (a
	// phone's width, where the models' header row is not shown).
	Model string
}
