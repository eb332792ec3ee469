package judge

import (
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task"
)

func TestCalibrationSetCoversEveryClassATask(t *testing.T) {
	set := corpusSet(t)
	cases, err := LoadCases(CalibrationSet())
	if err != nil {
		t.Fatal(err)
	}
	labels := map[string]map[string]int{}
	for _, c := range cases {
		tk := set.Task(c.TaskID)
		if tk == nil || tk.Class != task.ClassA {
			t.Errorf("%s: not a class A task", c.ID())
			continue
		}
		if labels[c.TaskID] == nil {
			labels[c.TaskID] = map[string]int{}
		}
		labels[c.TaskID][c.Label]++
		// A faithful case must be faithful by the checks that need no
		// model, or its label would be wrong.
		a := metric.ScoreAnswer(tk.Source.Doc, c.Answer)
		if c.Faithful() && (!a.Valid || len(a.Evidence) == 0 || len(a.Unresolved) > 0) {
			t.Errorf("%s: labelled faithful but its answer is invalid or cites ids that do not exist: %+v", c.ID(), a)
		}
		if c.Note == "" {
			t.Errorf("%s: no note saying why it has its label", c.ID())
		}
	}
	for _, tk := range set.Tasks {
		if tk.Class != task.ClassA {
			continue
		}
		for _, l := range Labels {
			if labels[tk.ID][l] == 0 {
				t.Errorf("%s: no %s case", tk.ID, l)
			}
		}
	}
}

func TestLoadCasesRejects(t *testing.T) {
	tests := []struct {
		name, file, reason string
	}{
		{"unknown label", `[{"name": "x", "label": "maybe", "answer": {}}]`, "a label outside the three is a typo"},
		{"both answer and raw", `[{"name": "x", "label": "faithful", "answer": {}, "raw": "y"}]`, "the answer must be unambiguous"},
		{"neither", `[{"name": "x", "label": "faithful"}]`, "a case needs an answer"},
		{"repeated name", `[{"name": "x", "label": "faithful", "raw": "a"}, {"name": "x", "label": "unfaithful", "raw": "b"}]`, "case ids must be unique"},
		{"unknown member", `[{"name": "x", "label": "faithful", "raw": "a", "lable": "unfaithful"}]`, "a misspelt member must not be ignored"},
		{"not an array", `{"name": "x"}`, "a file is a list of cases"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"01-a.json": {Data: []byte(tt.file)}}
			if _, err := LoadCases(fsys); err == nil {
				t.Errorf("LoadCases accepted the file (%s)", tt.reason)
			}
		})
	}
	fsys := fstest.MapFS{"01-a.json": {Data: []byte(`[{"name": "x", "label": "faithful", "note": "n", "answer": {"answer": "a <b>", "evidence": ["blk-1"]}}]`)}}
	cases, err := LoadCases(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"answer":"a <b>","evidence":["blk-1"]}`; cases[0].Answer != want || cases[0].ID() != "01-a/x" {
		t.Errorf("case %s answer %q; want 01-a/x and %q (compact, nothing escaped)", cases[0].ID(), cases[0].Answer, want)
	}
}
