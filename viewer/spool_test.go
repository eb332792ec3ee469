package viewer

import (
	"errors"
	"reflect"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/internal/linediff"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestSpoolRoundTrip: every output put in a spool reads back equal, in any
// order of puts and from several goroutines, whatever its text.
func TestSpoolRoundTrip(t *testing.T) {
	cases := []struct {
		name   string
		out    Output
		reason string
	}{
		{"zero", Output{}, "a slot with nothing to show reads back as nothing"},
		{"flags", Output{Identical: true, Aligned: true, Truncated: true}, "each flag has its own bit"},
		{"aligned only", Output{Aligned: true, NoDiff: "why"}, "flags are not mixed up"},
		{"raw", Output{Raw: "not a document \xff\xfe, cut", Truncated: true}, "any bytes round-trip, even invalid UTF-8"},
		{"hunks", Output{Aligned: true, DiffCut: "cut", Hunks: []linediff.Hunk{
			{Header: "@@ -1,2 +1,2 @@", Lines: []linediff.Line{{Op: " ", Old: 1, New: 1, Text: "{"}, {Op: "-", Old: 2, Text: `  "a": 1`}, {Op: "+", New: 2, Text: ""}}},
			{Header: "@@ -90,1 +91,1 @@", Lines: []linediff.Line{{Op: "+", Old: 0, New: 1 << 40, Text: "x"}}},
		}}, "hunks keep their headers, lines, line numbers and empty texts"},
		{"attempts", Output{NoDiff: "the call failed", Attempts: []string{"1 · HTTP 429 · retry after 2000 ms", ""}}, "attempt lines keep their order, empty ones too"},
	}
	s, err := NewSpool(len(cases) + 1)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var wg sync.WaitGroup
	for i := len(cases) - 1; i >= 0; i-- {
		wg.Go(func() { s.Put(i, cases[i].out) })
	}
	wg.Wait()
	for i, c := range tabletest.Cases(t, cases) {
		got, err := s.Output(i)
		if err != nil || !reflect.DeepEqual(got, c.out) {
			t.Errorf("%s: read back %+v, %v; want %+v (%s)", c.name, got, err, c.out, c.reason)
		}
	}
	if got, err := s.Output(len(cases)); err != nil || !reflect.DeepEqual(got, Output{}) {
		t.Errorf("a slot never put: %+v, %v; want the zero Output", got, err)
	}
}

// TestSpoolDamagedRecord: a record cut short or with bytes left over is an
// error, never a wrong output.
func TestSpoolDamagedRecord(t *testing.T) {
	b := appendOutput(nil, Output{Raw: "text", Hunks: []linediff.Hunk{{Header: "h", Lines: []linediff.Line{{Op: "+", New: 1, Text: "x"}}}}})
	for _, bad := range [][]byte{nil, b[:len(b)-1], b[:3], append(append([]byte{}, b...), 0)} {
		if _, err := readOutput(bad); !errors.Is(err, errSpool) {
			t.Errorf("readOutput(%q) = %v, want errSpool", bad, err)
		}
	}
}
