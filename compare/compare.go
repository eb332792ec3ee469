// Package compare compares two reports, as benchstat compares two
// benchmark runs: what changed first (the verdict and §8.5's reading,
// failures added and removed, every difference in what the runs asked),
// then per model and class (and per section row) the paired tests of the
// documents' values (each the mean of the repeats both runs asked),
// adjusted together for multiplicity (Holm), with what
// this many documents can and cannot resolve.
//
// # The test
//
// Package compare pairs the per-document values of two reports by task
// id (each the mean of the repeats both runs asked) and tests the paired
// differences with the exact Wilcoxon signed-rank test (zero differences
// dropped, ties given average ranks, two-sided, exact permutation
// distribution), every test of a comparison adjusted together (Holm), in
// the manner of benchstat: a change is "better" or "worse" when the
// adjusted p < compare.Alpha, "~" otherwise. Each metric of a row (the
// median drift, the faithfulness, the lossless share, RS@k) is one Delta:
// old, new, its test, its adjustment and the change they decide.
package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/unit"
)

// Alpha is the significance level of Compare, after adjustment.
const Alpha = 0.05

// Tie is the tolerance of a paired difference: two per-document values
// closer than this are equal. A document's value is a mean over the
// repeats compared, and the same answers averaged over different numbers
// of repeats may differ by about 1e-17 from rounding; the metric reports
// nothing finer than 1e-6.
const Tie = 1e-9

// Comparison is old against new: what changed first, then per model and
// class each row pairing the reports' per-document values by task id.
type Comparison struct {
	// Old and New are the two reports, as given.
	Old Side `json:"old"`
	New Side `json:"new"`
	// Verdict is the verdict and §8.5's reading, old → new.
	Verdict VerdictChange `json:"verdict"`
	// FailuresAdded and FailuresRemoved are the failures (§8.5's
	// thresholds and the harness's own gates, with their values) of the
	// new report only and of the old report only.
	FailuresAdded   []string `json:"failures_added"`
	FailuresRemoved []string `json:"failures_removed"`
	// Gates are every threshold's statistic per model, old → new.
	Gates []GateRow `json:"gates"`
	// Rows are the (model, class) pairs both reports have, by model (old
	// report's order, then the new report's) and class, then the section
	// rows both have.
	Rows []Row `json:"rows"`
	// Feedback pairs, per section row both reports asked feedback rounds
	// for (--feedback), the first try's shares and the shares after the
	// rounds, old → new.
	Feedback []FeedbackRow `json:"feedback,omitempty"`
	// RS compares the delegate suite's RS@k per model, format and k
	// (delegate.go).
	RS []RSRow `json:"rs,omitempty"`
	// Tests is the number of tests of the comparison (signed-rank and
	// exact), adjusted together (Holm): each row's PAdjusted.
	Tests int `json:"tests"`
	// Differences lists every difference in what the two runs asked and
	// with what: repeats, seed, models and their providers, harness and
	// metric versions, corpus, prompts, configuration, suite, formats and
	// selection.
	Differences []string `json:"differences"`
	// Notes qualify the comparison: unpaired documents, models or classes
	// in one report only.
	Notes []string `json:"notes"`
	// Paired and Documents count the documents (task ids) of the classes
	// both reports have: those with a value in both, which the tests
	// compare, and all of them. Paired < Documents is said first (issue
	// 56: two size ladders sharing one rung of three printed "0.0030 →
	// 0.3000 … = (no difference)", the pairing only in a footnote).
	Paired    int `json:"paired_documents"`
	Documents int `json:"documents"`
}

// Side names one report of a comparison.
type Side struct {
	Name          string `json:"name"` // as given on the command line
	RunID         string `json:"run_id"`
	RanAt         string `json:"ran_at"`
	MetricVersion string `json:"metric_version"`
}

// VerdictChange is the verdict and the reading of each report.
type VerdictChange struct {
	Old        string `json:"old"`
	New        string `json:"new"`
	OldReading string `json:"old_reading"`
	NewReading string `json:"new_reading"`
}

// GateRow is one threshold of one model in both reports.
type GateRow struct {
	Model  string `json:"model"`
	Label  string `json:"label"`
	Source string `json:"source"`
	// Share is set when the statistic is a share (printed as a
	// percentage).
	Share    bool     `json:"share,omitempty"`
	Old      *float64 `json:"old"`
	New      *float64 `json:"new"`
	OldHolds bool     `json:"old_holds"`
	NewHolds bool     `json:"new_holds"`
}

// FeedbackRow is one section row's feedback numbers in both reports
// (report.Summary): well-formed, edits applied and lossless at the first
// try, well-formed and lossless after the feedback rounds, and the rounds
// asked.
type FeedbackRow struct {
	Model string         `json:"model"`
	Group string         `json:"group"`
	Old   FeedbackShares `json:"old"`
	New   FeedbackShares `json:"new"`
}

// FeedbackShares are one report's feedback numbers of a row.
type FeedbackShares struct {
	WellFormedFirst *float64 `json:"well_formed_first"`
	AppliedFirst    *float64 `json:"edits_applied_first"`
	LosslessFirst   *float64 `json:"lossless_first"`
	WellFormedAfter *float64 `json:"well_formed_after_feedback"`
	LosslessAfter   *float64 `json:"lossless_after_feedback"`
	Rounds          int      `json:"feedback_rounds"`
}

// Row compares one (model, class), or one section row, metric by metric
// (Delta). For classes B and C the center is the median drift (lower is
// better) and P95 is compared too; for class A the center is the
// faithfulness (higher is better). Its JSON is flat (rowJSON): the
// metrics' values under their own keys, as before the Delta type.
type Row struct {
	Model string
	Class string
	// Center is the median drift (B, C) or the faithfulness (A), its
	// test the exact signed-rank test over the N differing pairs, adjusted
	// with every test of the comparison (Holm); its Change "=" when no
	// document differs.
	Center Delta
	// P95 is the P95 drift (B, C), compared untested.
	P95 Delta
	// Repeats is how many repeats of each document the test compares:
	// the first min(k_old, k_new), the repeats both runs asked, each
	// document's value the mean of those. The means of k and of k' ≠ k
	// repeats of one model spread differently, and the signed-rank test
	// read that as a change (k = 1 against 3 flagged 11% of identical
	// pairs); the same number of repeats on both sides is exchangeable.
	Repeats int
	// Pairs is the number of documents with a value in both reports, N
	// those whose values differ (by Tie or more), Unpaired those with a
	// value in one report only (not compared).
	Pairs    int
	N        int
	Unpaired int
	// Resolution says, for a difference that is not significant, what the
	// test would have needed ("unresolved: 2 of 20 documents differ; the
	// signed-rank test needs at least 6").
	Resolution string
	// RepeatNoise, with two compared repeats or more, is the median over
	// documents of how far a document's value moves between the runs by
	// its own repeat noise alone (95%: 1.96 · √(s²_old/m + s²_new/m), s²
	// each side's variance over that document's m repeats); BeyondNoise
	// counts the documents whose change exceeds their own.
	RepeatNoise *float64
	BeyondNoise int

	// Lossless is the lossless share (B, C), the harness's own headline,
	// compared on answers paired by (task, repeat): Gained counts pairs
	// lossless only in the new report, Lost those lossless only in the
	// old; its test is the two-sided exact (McNemar) test over the
	// discordant pairs. Its Change is "" when it was not compared (A).
	Lossless Delta
	Gained   int
	Lost     int
}

// Delta compares one metric of a row between two reports (as
// benchmath.Comparison does): the old and new values, the paired exact
// test, its p-value adjusted with every test of its family, and the
// change they decide. Drift, faithfulness, lossless and RS@k rows are each
// a Delta.
type Delta struct {
	Old, New *float64
	// P is the two-sided p-value of the paired test; PAdjusted the same
	// adjusted with every test of the family (Adjust; Holm). Both are nil
	// without a test (no pair differs); PAdjusted is nil for a test
	// reported unadjusted (the comparison's RS@k rows).
	P, PAdjusted *float64
	// Change is "better" or "worse" (p < Alpha), "~" (a test, not
	// significant) or "=" (no pair differs: no test).
	Change string
	// better is set when the test's direction is an improvement (a
	// larger faithfulness, RS@k or lossless share, a smaller drift).
	better bool
}

// decide sets the change from p, the test's p-value as the family reads
// it (adjusted, or raw for a test reported unadjusted); a nil p leaves it.
func (d *Delta) decide(p *float64) {
	if p == nil {
		return
	}
	d.Change = "~"
	if *p < Alpha {
		d.Change = "worse"
		if d.better {
			d.Change = "better"
		}
	}
}

// rowJSON is a Row as its JSON has it: each metric's values under keys of
// their own (harness compare --format json, which scripts read).
type rowJSON struct {
	Model             string   `json:"model"`
	Class             string   `json:"class"`
	OldCenter         *float64 `json:"old_center"`
	NewCenter         *float64 `json:"new_center"`
	OldP95            *float64 `json:"old_p95,omitempty"`
	NewP95            *float64 `json:"new_p95,omitempty"`
	Repeats           int      `json:"repeats"`
	Pairs             int      `json:"pairs"`
	Unpaired          int      `json:"unpaired,omitempty"`
	N                 int      `json:"n"`
	P                 *float64 `json:"p,omitempty"`
	PAdjusted         *float64 `json:"p_adjusted,omitempty"`
	Change            string   `json:"change"`
	Resolution        string   `json:"resolution,omitempty"`
	RepeatNoise       *float64 `json:"repeat_noise,omitempty"`
	BeyondNoise       int      `json:"beyond_noise,omitempty"`
	OldLossless       *float64 `json:"old_lossless,omitempty"`
	NewLossless       *float64 `json:"new_lossless,omitempty"`
	Gained            int      `json:"lossless_gained,omitempty"`
	Lost              int      `json:"lossless_lost,omitempty"`
	LosslessP         *float64 `json:"lossless_p,omitempty"`
	LosslessPAdjusted *float64 `json:"lossless_p_adjusted,omitempty"`
	LosslessChange    string   `json:"lossless_change,omitempty"`
}

// MarshalJSON writes the row flat (rowJSON).
func (r Row) MarshalJSON() ([]byte, error) {
	return json.Marshal(rowJSON{Model: r.Model, Class: r.Class, OldCenter: r.Center.Old, NewCenter: r.Center.New, OldP95: r.P95.Old, NewP95: r.P95.New,
		Repeats: r.Repeats, Pairs: r.Pairs, Unpaired: r.Unpaired, N: r.N, P: r.Center.P, PAdjusted: r.Center.PAdjusted, Change: r.Center.Change,
		Resolution: r.Resolution, RepeatNoise: r.RepeatNoise, BeyondNoise: r.BeyondNoise,
		OldLossless: r.Lossless.Old, NewLossless: r.Lossless.New, Gained: r.Gained, Lost: r.Lost,
		LosslessP: r.Lossless.P, LosslessPAdjusted: r.Lossless.PAdjusted, LosslessChange: r.Lossless.Change})
}

// Compare compares two reports.
func Compare(old, new *report.Report, oldName, newName string) *Comparison {
	c := &Comparison{Old: SideOf(old, oldName), New: SideOf(new, newName), Verdict: verdictChange(old, new)}
	c.FailuresAdded, c.FailuresRemoved = failureChanges(old, new)
	c.Differences = Differences(old, new)
	c.Gates = gateRows(old, new)
	models := slices.Clone(old.Models)
	for _, m := range new.Models {
		if !slices.Contains(models, m) {
			models = append(models, m)
		}
	}
	unpaired, all := map[string]bool{}, map[string]bool{}
	for _, m := range models {
		om, nm := old.Results[m], new.Results[m]
		switch {
		case om == nil:
			c.Notes = append(c.Notes, fmt.Sprintf("%s is only in %s", m, newName))
			continue
		case nm == nil:
			c.Notes = append(c.Notes, fmt.Sprintf("%s is only in %s", m, oldName))
			continue
		}
		for _, class := range report.Classes {
			oc, nc := om.Class(class), nm.Class(class)
			if oc == nil || nc == nil {
				if oc != nil || nc != nil {
					c.Notes = append(c.Notes, fmt.Sprintf("%s class %s is in one report only", m, class))
				}
				continue
			}
			row, notes := Class(m, class, oc, nc)
			c.Rows = append(c.Rows, row)
			c.Notes = append(c.Notes, notes...)
			countPairs(unpaired, all, oc, nc)
		}
	}
	c.Paired, c.Documents = len(all)-len(unpaired), len(all)
	c.compareSections(old, new)
	c.compareRS(old, new)
	c.Tests = Adjust(c.Rows)
	if old.Repeats != new.Repeats {
		c.Notes = append(c.Notes, fmt.Sprintf("the runs asked %d and %d repeats: each document is compared on the mean of its first %d, the repeats both asked (a mean of more repeats spreads less, which the test would read as a change)",
			old.Repeats, new.Repeats, min(old.Repeats, new.Repeats)))
	}
	return c
}

// SideOf names a report of a comparison.
func SideOf(r *report.Report, name string) Side {
	return Side{Name: name, RunID: r.RunID, RanAt: r.RanAt, MetricVersion: r.MetricVersion}
}

// Class pairs the per-document values of one (model, class) and tests
// them; the tests are raw until Adjust adjusts a family of rows together.
func Class(model, class string, oc, nc *report.ClassResult) (Row, []string) {
	row := Row{Model: model, Class: class, Repeats: min(repeatsOf(oc.PerDocument), repeatsOf(nc.PerDocument))}
	value := func(d report.DocumentResult) *float64 { return meanOf(repeatValues(d, row.Repeats)) }
	higher := class == task.ClassA
	if higher {
		row.Center = Delta{Old: oc.Faithfulness, New: nc.Faithfulness}
	} else {
		row.Center = Delta{Old: oc.MedianDrift, New: nc.MedianDrift}
		row.P95 = Delta{Old: oc.P95Drift, New: nc.P95Drift}
	}
	diffs, unpaired := pairs(oc.PerDocument, nc.PerDocument, value)
	var notes []string
	if n := outside(oc.PerDocument, value) + outside(nc.PerDocument, value); n > 0 {
		// Issue 45: a drift of −1 read "better, p = 0.000", unwarned.
		notes = append(notes, fmt.Sprintf("%s class %s: %d per-document %s outside [0, 1], which no drift or share can be: a report this harness did not write, or an edited one", model, class, n, unit.Plural(n, "value", "values")))
	}
	if unpaired > 0 {
		notes = append(notes, fmt.Sprintf("%s class %s: %d documents have a value in one report only and are left out of the test", model, class, unpaired))
	}
	row.Pairs, row.Unpaired = len(diffs), unpaired
	if p, n, sign := stats.SignedRank(diffs); n > 0 {
		row.Center.P, row.N, row.Center.better = &p, n, (sign > 0) == higher
	}
	row.RepeatNoise, row.BeyondNoise = repeatNoise(oc.PerDocument, nc.PerDocument, row.Repeats)
	if class != task.ClassA {
		compareLossless(&row, oc, nc)
	}
	return row, notes
}

// countPairs adds a class's documents (task ids) with a value in one
// report only to unpaired, and every document with a value in either to
// all: a document pairs when it pairs for every model.
func countPairs(unpaired, all map[string]bool, oc, nc *report.ClassResult) {
	has := func(docs []report.DocumentResult) map[string]bool {
		out := map[string]bool{}
		for _, d := range docs {
			if len(repeatValues(d, len(d.Repeats))) > 0 {
				out[d.TaskID], all[d.TaskID] = true, true
			}
		}
		return out
	}
	o, n := has(oc.PerDocument), has(nc.PerDocument)
	for id := range all {
		if o[id] != n[id] {
			unpaired[id] = true
		}
	}
}

// outside counts the documents whose value is outside [0, 1] (or NaN).
func outside(docs []report.DocumentResult, value func(report.DocumentResult) *float64) int {
	n := 0
	for _, d := range docs {
		if v := value(d); v != nil && !(*v >= 0 && *v <= 1) {
			n++
		}
	}
	return n
}

// pairs are the differences new − old of the documents with a value in
// both, a difference under Tie, or between values that print the same
// (unit.Num: a uniform 1e-6 shift read "worse (p = 0.000)" while every
// printed number was equal, issue 45), counted as none, and the number
// of documents with a value in one only.
func pairs(olds, news []report.DocumentResult, value func(report.DocumentResult) *float64) ([]float64, int) {
	byTask := map[string]*float64{}
	for _, d := range olds {
		byTask[d.TaskID] = value(d)
	}
	var diffs []float64
	seen := map[string]bool{}
	unpaired := 0
	for _, d := range news {
		seen[d.TaskID] = true
		o, n := byTask[d.TaskID], value(d)
		if o == nil || n == nil {
			if o != nil || n != nil {
				unpaired++
			}
			continue
		}
		diff := *n - *o
		if math.Abs(diff) < Tie || unit.Num(*o) == unit.Num(*n) {
			diff = 0
		}
		diffs = append(diffs, diff)
	}
	for id, o := range byTask {
		if !seen[id] && o != nil {
			unpaired++
		}
	}
	return diffs, unpaired
}

// compareLossless pairs the answers of two reports by (task, repeat) and
// compares whether each was lossless with McNemar's exact test: under no
// change, each discordant pair is as likely gained as lost, so the
// two-sided p-value is that of a fair binomial over Gained + Lost.
func compareLossless(row *Row, oc, nc *report.ClassResult) {
	row.Lossless = Delta{Old: oc.Lossless, New: nc.Lossless, Change: "="}
	type key struct {
		task   string
		repeat int
	}
	old := map[key]bool{}
	for _, d := range oc.PerDocument {
		for _, r := range d.Repeats {
			if r.Lossless != nil {
				old[key{d.TaskID, r.Repeat}] = *r.Lossless
			}
		}
	}
	for _, d := range nc.PerDocument {
		for _, r := range d.Repeats {
			o, ok := old[key{d.TaskID, r.Repeat}]
			switch {
			case !ok || r.Lossless == nil || o == *r.Lossless:
			case *r.Lossless:
				row.Gained++
			default:
				row.Lost++
			}
		}
	}
	if row.Gained+row.Lost > 0 {
		p := stats.ExactBinomial(row.Gained, row.Lost)
		row.Lossless.P, row.Lossless.better = &p, row.Gained > row.Lost
	}
}

// compareSections compares the section rows both reports have (every
// answer format, natural class, relay step and size rung and position),
// pairing the rows' tasks: tasks are paired within a row's key. The
// classes' whole-document answers are compared above.
func (c *Comparison) compareSections(old, new *report.Report) {
	olds := map[report.Key]report.Row{}
	for _, sec := range old.Sections {
		for _, row := range sec.Rows {
			olds[row.Key] = row
		}
	}
	classes := suites.Of(new.Suite).Classes
	for _, sec := range new.Sections {
		for _, nr := range sec.Rows {
			or, ok := olds[nr.Key]
			if ok && or.WellFormedFirst != nil && nr.WellFormedFirst != nil {
				c.Feedback = append(c.Feedback, FeedbackRow{Model: nr.Model, Group: rowLabel(sec, nr), Old: sharesOf(or.Summary), New: sharesOf(nr.Summary)})
			}
			if !ok || nr.Total || (nr.Part == classes && formats.Of(nr.Format).Whole) {
				continue
			}
			class := nr.Class
			if class == "" {
				class = task.ClassB // a group of B and C edits compares as drift does
			}
			row, notes := Class(nr.Model, class, AsClass(class, or), AsClass(class, nr))
			row.Class = rowLabel(sec, nr)
			c.Rows = append(c.Rows, row)
			c.Notes = append(c.Notes, notes...)
		}
	}
}

// rowLabel names a section row: its part, its labels and, in a run of
// several formats, its format.
func rowLabel(sec report.Section, r report.Row) string {
	label := append([]string{r.Part}, r.Labels...)
	if sec.Formats {
		label = append(label, r.Format)
	}
	return strings.Join(slices.DeleteFunc(label, func(s string) bool { return s == "" }), " ")
}

// sharesOf are a row's feedback numbers.
func sharesOf(s report.Summary) FeedbackShares {
	return FeedbackShares{WellFormedFirst: s.WellFormedFirst, AppliedFirst: s.AppliedFirst, LosslessFirst: s.LosslessFirst,
		WellFormedAfter: s.WellFormedAfter, LosslessAfter: s.Lossless, Rounds: s.FeedbackRounds}
}

// AsClass is a section row as a class result, for Class: its median and
// P95 drift, lossless share and tasks.
func AsClass(class string, row report.Row) *report.ClassResult {
	return &report.ClassResult{Class: class, Summary: report.Summary{MedianDrift: row.MedianDrift, P95Drift: row.P95Drift, Lossless: row.Lossless}, PerDocument: row.PerDocument}
}
