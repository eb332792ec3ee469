package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/task"
)

// FormatsNote says what report.FormatsCompared's rows are.
const FormatsNote = "Each answer format against the whole document on the same model and the same tasks (a format's variant of a task paired with the task itself), tested as `harness compare` tests two runs: " +
	"the exact signed-rank test over the tasks' drift (each the mean of its repeats) and the exact McNemar test over their answers' lossless (paired by task and repeat), " +
	"every test of the report adjusted together (Holm); better or worse at adjusted p < 0.05, ~ when a test is not significant, = when no task differs. " +
	"The size ladder is compared per rung (its positions together), the classes B and C together, the delegate suite and the relay at their chains' last step."

// Formats sets each answer format of r against the whole document, per
// model, suite part and group of tasks (report.FormatsCompared; issue
// 56): the format's per-task values and the document's, paired by task,
// through Class and Adjust, the tests and wording of a comparison of two
// runs. It is nil for a report of one answer format, or with no format
// beside a whole-document row to pair with.
func Formats(r *report.Report) *report.FormatsCompared {
	groups, keys := formatGroups(r)
	var rows []Row
	var where []groupKey
	for _, k := range keys {
		if formats.Of(k.format).Whole {
			continue
		}
		base, ok := groups[groupKey{k.model, k.part, k.group, formats.Document}]
		if !ok {
			continue
		}
		row, _ := Class(k.model, task.ClassB, asDrift(base), asDrift(groups[k]))
		if row.Pairs == 0 {
			continue // no task in both: nothing to compare
		}
		rows, where = append(rows, row), append(where, k)
	}
	if len(rows) == 0 {
		return nil
	}
	out := &report.FormatsCompared{Note: FormatsNote, Tests: Adjust(rows)}
	for i, row := range rows {
		k := where[i]
		out.Rows = append(out.Rows, report.FormatComparison{Model: k.model, Part: k.part, Group: k.group, Format: k.format,
			DocumentDrift: row.Center.Old, FormatDrift: row.Center.New, Pairs: row.Pairs, N: row.N,
			P: row.Center.P, PAdjusted: row.Center.PAdjusted, Change: row.Center.Change, Resolution: row.Resolution,
			DocumentLossless: row.Lossless.Old, FormatLossless: row.Lossless.New, Gained: row.Gained, Lost: row.Lost,
			LosslessP: row.Lossless.P, LosslessPAdjusted: row.Lossless.PAdjusted, LosslessChange: row.Lossless.Change})
	}
	return out
}

// groupKey is one model's tasks of one group in one answer format.
type groupKey struct{ model, part, group, format string }

// formatGroups gathers the class B and C rows of r's sections into
// groups: per model, part, group (groupOf) and format, their tasks'
// results under the task ids of the whole document, and the groups in
// the report's order of models, then first appearance.
func formatGroups(r *report.Report) (map[groupKey][]report.DocumentResult, []groupKey) {
	groups := map[groupKey][]report.DocumentResult{}
	var keys []groupKey
	for _, sec := range r.Sections {
		last := lastStep(sec)
		for _, row := range sec.Rows {
			if row.Total || row.Class == task.ClassA || len(row.PerDocument) == 0 || row.Step != last {
				continue
			}
			k := groupKey{row.Model, row.Part, groupOf(row), formats.Of(row.Format).Name}
			if _, ok := groups[k]; !ok {
				keys = append(keys, k)
			}
			groups[k] = append(groups[k], baseIDs(row.PerDocument, row.Format)...)
		}
	}
	slices.SortStableFunc(keys, func(x, y groupKey) int {
		return cmp.Compare(slices.Index(r.Models, x.model), slices.Index(r.Models, y.model))
	})
	return groups, keys
}

// lastStep is the last step of a section of chains (its rows' largest
// Step), 0 for a section without steps.
func lastStep(sec report.Section) int {
	n := 0
	for _, row := range sec.Rows {
		n = max(n, row.Step)
	}
	return n
}

// groupOf names the tasks a row's are compared with: its rung, its step,
// its part's classes B and C together, or another class of its own (the
// produce suite's P and R answer other tasks, so they never pair).
func groupOf(row report.Row) string {
	switch {
	case row.Rung != "":
		return "rung " + row.Rung
	case row.Step > 0:
		return fmt.Sprintf("step %d (the last)", row.Step)
	case row.Class != "" && row.Class != task.ClassB && row.Class != task.ClassC:
		return "class " + row.Class
	}
	return "classes B and C"
}

// baseIDs are docs under the task ids of the whole document: a format's
// variant of task x is x.<format> (task.WithFormats).
func baseIDs(docs []report.DocumentResult, format string) []report.DocumentResult {
	out := slices.Clone(docs)
	for i := range out {
		out[i].TaskID = strings.TrimSuffix(out[i].TaskID, "."+format)
	}
	return out
}

// asDrift is a group's tasks as a class result for Class: the median of
// their drift and the share of their answers lossless (first repeats).
func asDrift(docs []report.DocumentResult) *report.ClassResult {
	var drifts []float64
	lossless, scored := 0, 0
	for _, d := range docs {
		if d.Drift != nil {
			drifts = append(drifts, *d.Drift)
		}
		if len(d.Repeats) > 0 && d.Repeats[0].Lossless != nil {
			scored++
			if *d.Repeats[0].Lossless {
				lossless++
			}
		}
	}
	c := &report.ClassResult{Class: task.ClassB, PerDocument: docs}
	if len(drifts) > 0 {
		c.MedianDrift = ptr(stats.Median(drifts))
	}
	if scored > 0 {
		c.Lossless = ptr(float64(lossless) / float64(scored))
	}
	return c
}
