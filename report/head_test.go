package report

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/verdict"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// headSample is a small report with answers whose strings hold what a
// scanner could stumble on: brackets, braces, escaped quotes and
// backslashes.
func headSample() *Report {
	r := &Report{HarnessVersion: "0.1.0", RanAt: "2026-04-27T15:30:00Z", Models: []string{`m "one" [x]`}, Verdict: Pass,
		Results: map[string]*ModelResult{`m "one" [x]`: {Transcripts: `runs/r/m\"}]/`}}, Schema: SchemaVersion, RunID: "r{]}",
		Failures: []verdict.Failure{}, Warnings: []Warning{}}
	for i := range 3 {
		r.Answers = append(r.Answers, Answer{Model: `m "one" [x]`, TaskID: fmt.Sprintf(`t\%d"]}`, i), Status: "scored", Transcript: `a\\"{[`})
	}
	return r
}

// TestReadHeadSkipsAnswers: ReadHead reads what ReadJSON reads, less the
// answers, wherever the answers stand in the object, and whatever their
// strings hold.
func TestReadHeadSkipsAnswers(t *testing.T) {
	t.Parallel()
	r := headSample()
	b, err := MarshalJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadJSON(bytes.NewReader(b), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	want.Answers = nil
	// The answers first, as a hand-edited report may hold them, and on
	// one line without white space.
	answers := b[bytes.Index(b, []byte(`"answers"`)) : bytes.LastIndex(b, []byte("]"))+1]
	moved := append([]byte("{"+string(answers)+","), b[1:bytes.Index(b, []byte(`,
  "answers"`))]...)
	moved = append(moved, "}"...)
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		in     []byte
		reason string
	}{
		{"written", b, "WriteJSON writes the answers last"},
		{"moved", moved, "a reader must not rely on the answers' place"},
	}) {
		got, err := ReadHead(bytes.NewReader(tc.in), "x.json")
		if err != nil {
			t.Fatalf("%s: %v (%s)", tc.name, err, tc.reason)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ReadHead = %+v, want %+v (%s)", tc.name, got, want, tc.reason)
		}
	}
}

// TestReadHeadRefuses: a file that is not a report, or not JSON, gets
// the error ReadJSON gives it, and a report whose answers do not end is
// refused.
func TestReadHeadRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{`{"schema": 5}`, "x.json: /schema: report schema 5, this harness reads 4, 3 and 2", "a newer schema is refused"},
		{`{"verdict": "pass"}`, "x.json: /schema: report schema none", "a file without schema is not a report"},
		{`{"schema": 1, "kind": "task", "request": {}, "attempts": []}`, "x.json: not a report but a transcript", "a transcript is named as one"},
		{`[]`, "x.json: not a report", "not an object"},
		{`{"schema": 4,`, "x.json: not a report", "a report cut short"},
		{`{"schema": 4} {}`, "x.json: not a report", "two values"},
		{`{"schema": 4, "answers": [{"a": "]"}`, "x.json: not a report: a value does not end", "answers cut short"},
		{`{"schema": 4, "answers": [{"a": 1]]}`, "x.json: not a report: a bracket closes what it did not open", "answers that close what they did not open"},
		{`{"schema": 4, "answers": [{"a": "x}]}`, "x.json: not a report: a string does not end", "a string in the answers that does not end"},
	}) {
		_, err := ReadHead(strings.NewReader(tc.in), "x.json")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ReadHead(%s) = %v, want %q (%s)", tc.in, err, tc.want, tc.reason)
		}
	}
}

// TestReadHeadOldSchemas: the schema 2 and 3 reports open through
// ReadHead as through ReadJSON.
func TestReadHeadOldSchemas(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"testdata/schema-2.json", "testdata/schema-3.json"} {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ReadJSON(bytes.NewReader(b), name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadHead(bytes.NewReader(b), name)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ReadHead differs from ReadJSON (error %v)", name, err)
		}
	}
}

// answersReader is a report of n answers, made as it is read: no test
// holds the file.
func answersReader(t testing.TB, n int) io.Reader {
	r := headSample()
	line, err := MarshalJSON(&Report{Answers: r.Answers[:1]})
	if err != nil {
		t.Fatal(err)
	}
	head := *r
	head.Answers = nil
	hb, err := MarshalJSON(&head)
	if err != nil {
		t.Fatal(err)
	}
	one := line[bytes.Index(line, []byte("\n    {")):bytes.LastIndex(line, []byte("\n  ]"))]
	body := bytes.TrimSuffix(hb, []byte("\n}\n"))
	parts := []io.Reader{bytes.NewReader(body), strings.NewReader(",\n  \"answers\": [")}
	parts = append(parts, &repeatReader{first: one[1:], rest: append([]byte(","), one...), n: n})
	return io.MultiReader(append(parts, strings.NewReader("\n  ]\n}\n"))...)
}

// repeatReader reads first, then rest n-1 times.
type repeatReader struct {
	first, rest []byte
	n           int
	buf         []byte
}

func (r *repeatReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.n == 0 {
			return 0, io.EOF
		}
		r.buf = r.rest
		if r.first != nil {
			r.buf, r.first = r.first, nil
		}
		r.n--
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

// TestReadHeadRows: the rows of the sections keep accepts are read, the
// others' are left out, and the rest of the report is ReadHead's.
func TestReadHeadRows(t *testing.T) {
	t.Parallel()
	r := headSample()
	r.Sections = []Section{{Part: "a", Limits: true, Rows: []Row{{Labels: []string{"one"}}}}, {Part: "b", Rows: []Row{{Labels: []string{"two"}}}}}
	b, err := MarshalJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadHead(bytes.NewReader(b), "x.json")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadHeadRows(bytes.NewReader(b), "x.json", func(s *Section) bool { return s.Limits })
	if err != nil {
		t.Fatal(err)
	}
	if got.Sections[1].Rows != nil || got.Sections[1].Part != "b" {
		t.Errorf("section b: %+v; want its part without its rows", got.Sections[1])
	}
	want.Sections[1].Rows = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadHeadRows = %+v, want %+v", got, want)
	}
}
