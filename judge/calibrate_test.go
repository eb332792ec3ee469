package judge

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
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
	for _, tt := range tests {
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

// TestCalibrateOffline is the golden output of harness judge calibrate
// --models offline/judge: the offline judge on the whole calibration set.
func TestCalibrateOffline(t *testing.T) {
	set := corpusSet(t)
	cases, err := LoadCases(CalibrationSet())
	if err != nil {
		t.Fatal(err)
	}
	clients := map[string]model.Client{OfflineJudge: NewOffline(set)}
	r, err := Calibrate(context.Background(), clients, set, cases, []string{OfflineJudge})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "calibrate-offline.golden", b.Bytes())

	s := r.Judges[0]
	if by := s.ByLabel[0]; by.Label != LabelFaithful || by.Correct != by.Cases {
		t.Errorf("offline judge: %d/%d faithful cases right; the checks alone must pass every faithful answer", by.Correct, by.Cases)
	}
	if r.Agreement != nil || r.Panel != nil {
		t.Error("one judge has no agreement and no panel")
	}
}

// TestCalibratePanel runs three fake judges through the OpenAI-compatible
// fake: one that always says faithful, one that follows the labels, and
// one that doubts everything and refuses answers about Barcelona, and
// checks the agreement tables.
func TestCalibratePanel(t *testing.T) {
	set := corpusSet(t)
	all, err := LoadCases(CalibrationSet())
	if err != nil {
		t.Fatal(err)
	}
	var cases []Case
	for _, c := range all {
		if c.TaskID == "01-a" || c.TaskID == "02-a" || c.TaskID == "03-a" {
			cases = append(cases, c)
		}
	}
	truth := map[string]bool{}
	for _, c := range cases {
		truth[c.Answer] = c.Faithful()
	}
	srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		answer := req.Messages[len(req.Messages)-1].Content
		switch req.Model {
		case "yes/always":
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "looks fine"}`)
		case "truth/teller":
			return modeltest.Fenced(`{"faithful": ` + boolText(truth[answer]) + `, "quotes": [], "reason": "checked"}`)
		}
		if strings.Contains(answer, "Barcelona") {
			return modeltest.Text("I can't assess this.")
		}
		return modeltest.Text(`{"faithful": false, "quotes": ["not in the document"], "reason": "doubtful"}`)
	})
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	judges := []string{"yes/always", "truth/teller", "no/sometimes-refuses"}
	clients := map[string]model.Client{}
	for _, j := range judges {
		clients[j] = c
	}

	r3, err := Calibrate(context.Background(), clients, set, cases, judges)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Calibrate(context.Background(), clients, set, cases, judges[:2])
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range []*CalibrationReport{r2, r3} {
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	checkGolden(t, "calibrate-panel.golden", b.Bytes())

	if r2.Agreement.Method != "cohen" || r3.Agreement.Method != "fleiss" {
		t.Errorf("methods %s and %s; want cohen for two judges, fleiss for three", r2.Agreement.Method, r3.Agreement.Method)
	}
	if r3.Judges[1].Accuracy != 1 {
		t.Errorf("the judge that follows the labels has accuracy %v, want 1", r3.Judges[1].Accuracy)
	}
	if r3.Judges[2].Errors == 0 || r3.Judges[2].Ungrounded == 0 {
		t.Error("the refusing judge's errors or ungrounded quotes were not counted")
	}
	for _, req := range srv.Requests() {
		if req.Temperature == nil || *req.Temperature != 0 || req.Seed == nil || *req.Seed != CalibrationSeed {
			t.Fatalf("calibration request without temperature 0 and the calibration seed: %s", req.Body)
		}
	}
	out, err := json.Marshal(r3)
	if err != nil || !json.Valid(out) {
		t.Errorf("the report does not marshal: %v", err)
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func TestCalibrateRejectsConfiguration(t *testing.T) {
	set := corpusSet(t)
	clients := map[string]model.Client{OfflineJudge: NewOffline(set)}
	ok := []Case{{TaskID: "01-a", Name: "x", Label: LabelFaithful, Answer: "{}"}}
	tests := []struct {
		name   string
		cases  []Case
		judges []string
		reason string
	}{
		{"no judges", ok, nil, "calibrating nobody is a mistake"},
		{"judge without client", ok, []string{"x/unknown"}, "every judge needs a client before any call is made"},
		{"class B task", []Case{{TaskID: "01-b", Name: "x", Label: LabelFaithful}}, []string{OfflineJudge}, "only class A answers are judged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Calibrate(context.Background(), clients, set, tt.cases, tt.judges); err == nil {
				t.Errorf("Calibrate accepted it (%s)", tt.reason)
			}
		})
	}
}
