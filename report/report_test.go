package report

import (
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/task"
)

// TestClassesAreTheTasks: the schema writes the task classes without
// importing package task, so its Classes must stay the tasks' values, in
// the order the report lists them; ModelResult.Class finds each.
func TestClassesAreTheTasks(t *testing.T) {
	want := []string{task.ClassA, task.ClassB, task.ClassC}
	if !slices.Equal(Classes, want) {
		t.Errorf("report.Classes %q, the tasks' classes %q", Classes, want)
	}
	a, b, c := &ClassResult{}, &ClassResult{}, &ClassResult{}
	mr := &ModelResult{ClassA: a, ClassB: b, ClassC: c}
	for i, got := range []*ClassResult{mr.Class(task.ClassA), mr.Class(task.ClassB), mr.Class(task.ClassC)} {
		if got != []*ClassResult{a, b, c}[i] {
			t.Errorf("Class(%q) is not the class's detail", want[i])
		}
	}
}

// TestInformationalReadsTheVerdict: whether a report's suite gates is
// kept in its verdict (pass or fail for a suite that gates, complete or
// incomplete for one that does not), so a report read back says it
// without the suite table; a report with no verdict yet is not taken for
// an informational one.
func TestInformationalReadsTheVerdict(t *testing.T) {
	for verdict, want := range map[string]bool{Pass: false, Fail: false, Complete: true, Incomplete: true, "": false} {
		if got := (&Report{Verdict: verdict}).Informational(); got != want {
			t.Errorf("verdict %q: Informational() %v, want %v", verdict, got, want)
		}
	}
}
