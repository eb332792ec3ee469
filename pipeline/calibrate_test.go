package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bendscript.com/round-trip-harness/internal/golden"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/judge"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// TestCalibrateOffline is the golden output of harness judge calibrate
// --models offline/judge: the offline judge on the whole calibration set,
// its votes sent as runner jobs.
func TestCalibrateOffline(t *testing.T) {
	set := corpusSet(t)
	cases, err := judge.LoadCases(judge.CalibrationSet())
	if err != nil {
		t.Fatal(err)
	}
	clients := map[string]model.Client{judge.OfflineJudge: judge.NewOffline(set)}
	r, err := Calibrate(context.Background(), clients, set, cases, []string{judge.OfflineJudge}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkCalibrationGolden(t, "calibrate-offline.golden", b.Bytes())

	s := r.Judges[0]
	if by := s.ByLabel[0]; by.Label != judge.LabelFaithful || by.Correct != by.Cases {
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
	all, err := judge.LoadCases(judge.CalibrationSet())
	if err != nil {
		t.Fatal(err)
	}
	var cases []judge.Case
	for _, c := range all {
		if c.TaskID == "01-a" || c.TaskID == "02-a" || c.TaskID == "03-a" {
			cases = append(cases, c)
		}
	}
	truth := map[string]bool{}
	for _, c := range cases {
		truth[c.Answer] = c.Faithful()
	}
	srv := modeltest.NewServer(t, panelJudges(truth))
	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key"), model.WithMaxRetries(0))
	judges := []string{"yes/always", "truth/teller", "no/sometimes-refuses"}
	clients := map[string]model.Client{}
	for _, j := range judges {
		clients[j] = c
	}

	r3, err := Calibrate(context.Background(), clients, set, cases, judges, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Calibrate(context.Background(), clients, set, cases, judges[:2], time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range []*judge.CalibrationReport{r2, r3} {
		if err := r.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	checkCalibrationGolden(t, "calibrate-panel.golden", b.Bytes())

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
		if req.Temperature == nil || *req.Temperature != 0 || req.Seed == nil || *req.Seed != judge.CalibrationSeed {
			t.Fatalf("calibration request without temperature 0 and the calibration seed: %s", req.Body)
		}
	}
	out, err := json.Marshal(r3)
	if err != nil || !json.Valid(out) {
		t.Errorf("the report does not marshal: %v", err)
	}
}

// panelJudges answers as the three fake judges of TestCalibratePanel:
// yes/always says faithful, truth/teller says the label (truth, by
// answer), any other judge doubts everything and refuses answers about
// Barcelona.
func panelJudges(truth map[string]bool) func(int, modeltest.ChatRequest) modeltest.Reply {
	return func(_ int, req modeltest.ChatRequest) modeltest.Reply {
		answer := req.Messages[len(req.Messages)-1].Content
		switch {
		case req.Model == "yes/always":
			return modeltest.Text(`{"faithful": true, "quotes": [], "reason": "looks fine"}`)
		case req.Model == "truth/teller":
			return modeltest.Fenced(`{"faithful": ` + boolText(truth[answer]) + `, "quotes": [], "reason": "checked"}`)
		case strings.Contains(answer, "Barcelona"):
			return modeltest.Text("I can't assess this.")
		}
		return modeltest.Text(`{"faithful": false, "quotes": ["not in the document"], "reason": "doubtful"}`)
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
	clients := map[string]model.Client{judge.OfflineJudge: judge.NewOffline(set)}
	ok := []judge.Case{{TaskID: "01-a", Name: "x", Label: judge.LabelFaithful, Answer: "{}"}}
	tests := []struct {
		name   string
		cases  []judge.Case
		judges []string
		reason string
	}{
		{"no judges", ok, nil, "calibrating nobody is a mistake"},
		{"judge without client", ok, []string{"x/unknown"}, "every judge needs a client before any call is made"},
		{"class B task", []judge.Case{{TaskID: "01-b", Name: "x", Label: judge.LabelFaithful}}, []string{judge.OfflineJudge}, "only class A answers are judged"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Calibrate(context.Background(), clients, set, tt.cases, tt.judges, time.Minute); err == nil {
				t.Errorf("Calibrate accepted it (%s)", tt.reason)
			}
		})
	}
}

// checkCalibrationGolden compares got with testdata/name, or rewrites it
// with -update.
func checkCalibrationGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, "the calibration table users read")
}
