package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
)

// docsSample is headSample with per-document results in two classes of
// two models, every field of a document and a repeat set, and some left
// out or null.
func docsSample() *Report {
	r := headSample()
	f := func(v float64) *float64 { return &v }
	b := func(v bool) *bool { return &v }
	n := 3
	docs := []DocumentResult{
		{TaskID: "01-d001", Document: "01-a.bend.json", Drift: f(0.0004705882352941176), Components: &metric.Components{SpanCoverage: 0.25, MarkFidelity: 1e-9},
			Residual: f(0), Repeats: []RepeatResult{
				{Repeat: 0, Status: "scored", Drift: f(0.0004705882352941176), Lossless: b(false), Residual: f(0), Unrequested: &n, EditApplied: b(true), Valid: b(true), Transcript: "m/01-d001.r0.json"},
				{Repeat: 1, Status: "api_error"}}},
		{TaskID: "01-d002", Document: "01-a.bend.json", Repeats: []RepeatResult{}},
		{TaskID: "02-d001", Document: "02-é.bend.json", Faithful: f(1), Repeats: []RepeatResult{{Repeat: 0, Status: "scored", Faithful: b(true)}}},
	}
	r.Models = append(r.Models, "m2")
	r.Results[`m "one" [x]`].ClassB = &ClassResult{Class: "B", Summary: Summary{Tasks: 3}, PerDocument: docs}
	r.Results[`m "one" [x]`].ClassA = &ClassResult{Class: "A", PerDocument: []DocumentResult{}}
	r.Results["m2"] = &ModelResult{ClassC: &ClassResult{Class: "C", PerDocument: docs[:1]}}
	return r
}

// TestReadHeadPerDocument: ReadHead decodes the per-document results as
// ReadJSON does, however they are written: what its own decoder does not
// read (an escape, a key it does not know, a key spelt in other case, a
// number of another form, a null) goes to encoding/json, and a document
// encoding/json refuses gets ReadJSON's error.
func TestReadHeadPerDocument(t *testing.T) {
	t.Parallel()
	b, err := MarshalJSON(docsSample())
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b); err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) []byte {
		if !bytes.Contains(b, []byte(old)) {
			t.Fatalf("the sample lacks %q", old)
		}
		return bytes.Replace(b, []byte(old), []byte(new), 1)
	}
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		in     []byte
		reason string
	}{
		{"written", b, "as WriteJSON writes it"},
		{"compact", compact.Bytes(), "on one line, without white space"},
		{"escaped", edit(`"01-d002"`, `"01-\u0064002"`), "a string with an escape"},
		{"unknown key", edit(`"task_id": "01-d002",`, `"task_id": "01-d002", "extra": [1, {"x": null}],`), "encoding/json ignores a key it does not know"},
		{"other case", edit(`"per_document"`, `"Per_Document"`), "encoding/json matches a key in any case"},
		{"class in other case", edit(`"class_c"`, `"CLASS_C"`), "encoding/json matches a key in any case"},
		{"repeated key", edit(`"task_id": "01-d002",`, `"task_id": "x", "task_id": "01-d002",`), "encoding/json keeps a repeated key's last value"},
		{"numbers", edit(`"span_coverage": 0.25`, `"span_coverage": 2.5E-1`), "a number with an exponent"},
		{"nulls", edit(`"task_id": "01-d002",`, `"task_id": "01-d002", "drift": null, "components": null,`), "null leaves a pointer nil"},
		{"null documents", edit(`"per_document": []`, `"per_document": null`), "a null list of documents"},
		{"null results", edit(`"results": {`, `"results": null, "x": {`), "results that are null"},
	}) {
		want, err := ReadJSON(bytes.NewReader(tc.in), "x.json")
		if err != nil {
			t.Fatalf("%s: %v (%s)", tc.name, err, tc.reason)
		}
		want.Answers = nil
		got, err := ReadHead(bytes.NewReader(tc.in), "x.json")
		if err != nil {
			t.Fatalf("%s: %v (%s)", tc.name, err, tc.reason)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ReadHead = %+v, want ReadJSON's %+v (%s)", tc.name, got.Results, want.Results, tc.reason)
		}
	}
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		in     []byte
		reason string
	}{
		{"bad number", edit(`"span_coverage": 0.25`, `"span_coverage": 025`), "a number JSON does not allow"},
		{"wrong type", edit(`"repeat": 1,`, `"repeat": 1.5,`), "a repeat index that is no integer"},
		{"string for a number", edit(`"span_coverage": 0.25`, `"span_coverage": "0.25"`), "a string for a number"},
		{"cut", edit(`"task_id": "01-d002"`, `"task_id": "01-d002`), "a string that does not end"},
	}) {
		_, want := ReadJSON(bytes.NewReader(tc.in), "x.json")
		_, err := ReadHead(bytes.NewReader(tc.in), "x.json")
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: ReadHead's error is %v, want ReadJSON's %v (%s)", tc.name, err, want, tc.reason)
		}
	}
}

// TestDocDecoderReadsWhatWriteJSONWrites: the hand-written decoder reads
// the per-document results as WriteJSON writes them (else every report
// would go through encoding/json, as slowly as before issue 55), and
// refuses what it does not read exactly as encoding/json would.
func TestDocDecoderReadsWhatWriteJSONWrites(t *testing.T) {
	t.Parallel()
	want := docsSample().Results[`m "one" [x]`].ClassB.PerDocument
	written, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tabletest.Cases(t, []struct {
		in     string
		ok     bool
		reason string
	}{
		{string(written), true, "as written"},
		{`[{"task_id": "a\"b", "repeats": []}]`, false, "an escape is encoding/json's"},
		{`[{"task_id": "a", "other": 1}]`, false, "a key it does not know"},
		{`[{"Task_ID": "a"}]`, false, "a key in other case"},
		{`[{"task_id": "a", "task_id": "b"}]`, false, "a repeated key"},
		{`[{"drift": 1.}]`, false, "a number JSON does not allow"},
		{`[{"drift": 1e999}]`, false, "a number out of range"},
		{`[{"repeats": [{"repeat": 1e3}]}]`, false, "an integer with an exponent"},
		{`[{"task_id": "a"},]`, false, "a comma after the last"},
		{`[{"task_id": "a"}}`, false, "an array closed by an object's bracket"},
		{`[{"task_id": "a"]]`, false, "an object closed by an array's bracket"},
		{`[{"task_id": "a"};`, false, "neither a comma nor a bracket after an element"},
		{"[{\"task_id\": \"\xff\"}]", false, "a string that is no UTF-8"},
	}) {
		d := docDecoder{b: []byte(tc.in)}
		got, ok := d.docs()
		if ok != tc.ok || ok && d.i != len(tc.in) {
			t.Errorf("docs(%s): ok %v at %d, want %v (%s)", tc.in, ok, d.i, tc.ok, tc.reason)
			continue
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("docs(%s) = %+v, want %+v (%s)", tc.in, got, want, tc.reason)
		}
	}
}

// TestReadHeadRowsOddSections: sections whose rows are written in
// another case, or a section that is no object, read as they did before
// the rows were cut out by a byte scan.
func TestReadHeadRowsOddSections(t *testing.T) {
	t.Parallel()
	r := headSample()
	r.Sections = []Section{{Part: "a", Limits: true, Rows: []Row{{Labels: []string{"one"}}}}, {Part: "b", Rows: []Row{{Labels: []string{"two"}}}}}
	b, err := MarshalJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	keep := func(s *Section) bool { return s.Limits }
	for _, tc := range tabletest.Cases(t, []struct {
		name, old, new, want, reason string
	}{
		{"written", "", "", "", "as WriteJSON writes them"},
		{"other case", `"rows"`, `"Rows"`, "", "encoding/json matches a key in any case"},
		{"not an object", `"sections": [`, `"sections": [1, `, "x.json: /sections: not a report: json: cannot unmarshal number into Go value of type struct", "a section that is a number"},
	}) {
		in := bytes.Replace(b, []byte(tc.old), []byte(tc.new), -1)
		got, err := ReadHeadRows(bytes.NewReader(in), "x.json", keep)
		if tc.want != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want %q (%s)", tc.name, err, tc.want, tc.reason)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v (%s)", tc.name, err, tc.reason)
		}
		if len(got.Sections) != 2 || len(got.Sections[0].Rows) != 1 || got.Sections[1].Rows != nil || got.Sections[1].Part != "b" {
			t.Errorf("%s: sections %+v; want a's rows and b without its rows (%s)", tc.name, got.Sections, tc.reason)
		}
	}
}
