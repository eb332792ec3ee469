package suites

import (
	"cmp"
	"slices"
	"strconv"

	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/suites/delegate"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/suites/relay"
)

// The fields of report.Key a Grouping groups by (Grouping.By).
const (
	ByClass    = "class"
	ByRung     = "rung"
	ByPosition = "position"
	ByStep     = "step"
)

// Total is the label of a row that totals a Grouping.Total field over its
// values (a size rung's row over its positions).
const Total = "all"

// The charts the viewer draws of a section's rows (Grouping.Chart).
const (
	// ChartSize plots drift (and cost) against the size of the document
	// the answers were given, one mark per total row.
	ChartSize = "size"
	// ChartSteps plots drift against the step, every chain a mark, the
	// median joined by a line inside its interval.
	ChartSteps = "steps"
)

// A Grouping is how the report shows a suite part's answers: the report
// section (report.Section) whose table's rows group them by model, the
// fields in By and the answer format, with the summary every table has
// (report.Summary). Which fields, how each is
// written and in what order the rows come is data here, so that the
// report's writers print rows without knowing what a row means.
type Grouping struct {
	// Title is the section's heading; Note says what its rows are
	// (Markdown: `code` and *emphasis* may appear).
	Title, Note string
	// By are the report.Key fields the rows group by, after the model and before
	// the format.
	By []string
	// Total, when set, is a field of By over whose values each group also
	// gets a row of its own (labelled Total), after them.
	Total string
	// Columns write a row's key, after the model's column; the format's
	// column follows them when the run asks for more than one format.
	Columns []Column
	// Order sorts the rows of one model and format.
	Order func(a, b report.Key) int
	// Chart is the chart the viewer draws of the rows (ChartSize,
	// ChartSteps), or "" for none.
	Chart string
	// Inverse, when set, says which rows ask for an edit that undoes an
	// earlier one (drawn apart on the chart).
	Inverse func(report.Key) bool
	// Legend, when set, names the chart's forward and inverse marks (the
	// relay's B, C and C⁻¹, B⁻¹ otherwise).
	Legend [2]string
	// Limits shows the gating suite's thresholds beside each class's
	// numbers, as information (they decide nothing here).
	Limits bool
	// Reconstruction, for chains of round trips, adds the reconstruction
	// scores RS@k and where the loss comes from (report.Delegation).
	Reconstruction bool
	// WithFormats shows the section only for a run that asks for more
	// than the whole document (the gating classes have their own tables
	// otherwise).
	WithFormats bool
}

// A Column writes one field of a row's key.
type Column struct {
	Head string
	Text func(report.Key) string
}

// classGrouping groups by class: the natural suite's, and the gating
// classes' per answer format.
func classGrouping(title, note string) *Grouping {
	return &Grouping{Title: title, Note: note, By: []string{ByClass},
		Columns: []Column{{Head: "class", Text: func(k report.Key) string { return k.Class }}},
		Order:   func(a, b report.Key) int { return cmp.Compare(a.Class, b.Class) }}
}

var gatingGrouping = func() *Grouping {
	s := classGrouping("Answer formats",
		"The same class B and C edits, answered as the whole document or in another answer format (a patch the harness applies to the document the model was given); the output is scored as a whole-document answer is. Failed to apply: answers that did not apply (invalid, drift 1). Information: the verdict is on whole-document answers.")
	s.WithFormats = true
	return s
}()

var naturalGrouping = func() *Grouping {
	s := classGrouping("Natural suite (information)",
		"The 40 class B and C changes asked for as an editor would, no id dictated for new content; the output's new ids are aligned to the expected document's before scoring (`metric/doc.go`). The same numbers and thresholds as the gating suite's, shown as information: they decide no verdict.")
	s.Limits = true
	return s
}()

var sizeGrouping = &Grouping{
	Title: "Size ladder",
	Note:  "The same edits at the start, middle and end of documents of growing size (the rung's row, *all*, totals its positions). Cut off: answers stopped at the output budget.",
	By:    []string{ByRung, ByPosition}, Total: ByPosition,
	Columns: []Column{{Head: "rung", Text: func(k report.Key) string { return k.Rung }},
		{Head: "position", Text: func(k report.Key) string { return k.Position }}},
	Order: func(a, b report.Key) int {
		return cmp.Or(cmp.Compare(rungBytes(a.Rung), rungBytes(b.Rung)), cmp.Compare(a.Rung, b.Rung),
			cmp.Compare(positionIndex(a.Position), positionIndex(b.Position)))
	},
	Chart: ChartSize,
}

var relayGrouping = &Grouping{
	Title: "Relay",
	Note:  "Each chain edits one document step after step, every step given the model's own previous answer (B, C, C⁻¹, B⁻¹, repeated); steps marked ↺ expect the source itself, so their drift is the drift against the source. A chain whose answer held no document ends there; its later steps are not run and count as drift 1.",
	By:    []string{ByStep},
	Columns: []Column{{Head: "step", Text: func(k report.Key) string {
		if relay.RoundTrip(k.Step) {
			return strconv.Itoa(k.Step) + " ↺"
		}
		return strconv.Itoa(k.Step)
	}}, {Head: "edit", Text: func(k report.Key) string { return relay.EditAt(k.Step) }}},
	Order:   func(a, b report.Key) int { return cmp.Compare(a.Step, b.Step) },
	Chart:   ChartSteps,
	Inverse: func(k report.Key) bool { return relay.Inverse(k.Step) },
}

var delegateGrouping = &Grouping{
	Title: "Delegation",
	Note:  "Each chain is round trips on one document: a forward edit drawn from the document's pool of reversible edits, then the edit that returns it to its original state, every step given the model's own previous answer. Steps marked ↺ end a round trip and expect the original, so their drift is the drift against the original (RS@k = 1 − that drift: the harness's similarity, not DELEGATE-52's). A chain whose answer held no document ends there; its later steps are not run and count as drift 1.",
	By:    []string{ByStep},
	Columns: []Column{{Head: "step", Text: func(k report.Key) string {
		if delegate.RoundTrip(k.Step) {
			return strconv.Itoa(k.Step) + " ↺"
		}
		return strconv.Itoa(k.Step)
	}}, {Head: "edit", Text: func(k report.Key) string {
		if delegate.RoundTrip(k.Step) {
			return "backward"
		}
		return "forward"
	}}},
	Order:          func(a, b report.Key) int { return cmp.Compare(a.Step, b.Step) },
	Chart:          ChartSteps,
	Inverse:        func(k report.Key) bool { return delegate.RoundTrip(k.Step) },
	Legend:         [2]string{"a chain at a forward edit (click for its transcript)", "a chain at a backward edit, which expects the original"},
	Reconstruction: true,
}

// rungBytes is a rung's target size in bytes (ladder.ParseRungs), so that
// rungs sort by size, not as text; 0 for a name that is no size.
func rungBytes(rung string) int {
	if n, err := ladder.ParseRungs(rung); err == nil && len(n) == 1 {
		return n[0]
	}
	return 0
}

// RungLess orders rung names by size (8k before 32k before 128k), then
// as text.
func RungLess(a, b string) int {
	return cmp.Or(cmp.Compare(rungBytes(a), rungBytes(b)), cmp.Compare(a, b))
}

// positionIndex orders positions as the document does, the total last.
func positionIndex(p string) int {
	if i := slices.Index(ladder.Positions, p); i >= 0 {
		return i
	}
	return len(ladder.Positions)
}

// GroupingOf returns the grouping a part's answers add to a run of s: the
// part's own grouping, or nil when it has none. The part that makes the
// classes has no section but the answer formats'.
func (s *Suite) GroupingOf(part string) *Grouping {
	p, err := Lookup(part)
	if err != nil || !slices.Contains(s.PartNames, part) {
		return nil
	}
	return p.Grouping
}
