package judge

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/internal/regularfile"
)

// The labels of a calibration case. Only LabelFaithful expects a faithful
// verdict: a partly fabricated answer is unfaithful, and is labelled apart
// because it is the hard case a judge is most likely to miss.
const (
	LabelFaithful         = "faithful"          // everything stated is in the document, citations included
	LabelUnfaithful       = "unfaithful"        // the answer is invented
	LabelPartlyFabricated = "partly_fabricated" // mostly right, with an invented detail or a non-existent evidence id
)

// Labels lists the labels in report order.
var Labels = []string{LabelFaithful, LabelUnfaithful, LabelPartlyFabricated}

// Case is one hand-labelled answer of the calibration set.
type Case struct {
	TaskID string // the class A task answered, from the file name
	Name   string // unique within the task
	Label  string // LabelFaithful, LabelUnfaithful or LabelPartlyFabricated
	Note   string // why the label is what it is
	Answer string // the raw answer, as a model would have given it
}

// ID names the case in reports: task/name.
func (c Case) ID() string { return c.TaskID + "/" + c.Name }

// Faithful reports whether the case's label expects a faithful verdict.
func (c Case) Faithful() bool { return c.Label == LabelFaithful }

//go:embed testdata/calibration/*.json
var calibrationFiles embed.FS

// CalibrationSet returns the embedded calibration set: for each class A
// task NN-a, the file NN-a.json.
func CalibrationSet() fs.FS {
	sub, err := fs.Sub(calibrationFiles, "testdata/calibration")
	if err != nil {
		panic(err)
	}
	return sub
}

// caseFile is one entry of a calibration file. The answer is given either
// as a JSON object ("answer", sent in its compact form) or verbatim
// ("raw", for fenced or malformed answers).
type caseFile struct {
	Name   string          `json:"name"`
	Label  string          `json:"label"`
	Note   string          `json:"note"`
	Answer json.RawMessage `json:"answer"`
	Raw    *string         `json:"raw"`
}

// LoadCasesDir reads the calibration set in dir (LoadCases), or the
// embedded one (CalibrationSet) when dir is "".
func LoadCasesDir(dir string) ([]Case, error) {
	if dir == "" {
		return LoadCases(CalibrationSet())
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("judge calibrate: --cases %s is not a directory", dir)
	}
	return LoadCases(os.DirFS(dir))
}

// LoadCases reads every NN-a.json file of fsys: a JSON array of
// {"name", "label", "note", and "answer" (an object) or "raw" (a string)}.
// Cases are ordered by file, then as written.
func LoadCases(fsys fs.FS) ([]Case, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no calibration files (NN-a.json)")
	}
	var out []Case
	for _, name := range names {
		cs, err := loadCaseFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("calibration %s: %w", name, err)
		}
		out = append(out, cs...)
	}
	return out, nil
}

// MaxCaseFile bounds a file of hand-labelled cases.
const MaxCaseFile = 16 << 20

func loadCaseFile(fsys fs.FS, name string) ([]Case, error) {
	data, err := regularfile.ReadFS(fsys, name, MaxCaseFile)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var entries []caseFile
	if err := dec.Decode(&entries); err != nil {
		return nil, err
	}
	taskID := strings.TrimSuffix(path.Base(name), ".json")
	seen := map[string]bool{}
	out := make([]Case, 0, len(entries))
	for i, e := range entries {
		c := Case{TaskID: taskID, Name: e.Name, Label: e.Label, Note: e.Note}
		switch {
		case e.Name == "" || seen[e.Name]:
			return nil, fmt.Errorf("/%d/name: missing or repeated", i)
		case !slices.Contains(Labels, e.Label):
			return nil, fmt.Errorf("/%d/label: %q is not one of %s", i, e.Label, strings.Join(Labels, ", "))
		case (e.Raw == nil) == (len(e.Answer) == 0):
			return nil, fmt.Errorf(`/%d: give exactly one of "answer" and "raw"`, i)
		case e.Raw != nil:
			c.Answer = *e.Raw
		default:
			var b bytes.Buffer
			if err := json.Compact(&b, e.Answer); err != nil {
				return nil, fmt.Errorf("/%d/answer: %w", i, err)
			}
			c.Answer = b.String()
		}
		seen[e.Name] = true
		out = append(out, c)
	}
	return out, nil
}
