package bend

import (
	"bytes"
	"io/fs"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"bendscript.com/round-trip-harness/corpus"
)

// checkParseMatchesFromValue: Parse, which reads through a pooled arena,
// gives what FromValue(ParseValue) gives, problems and errors included.
func checkParseMatchesFromValue(t testing.TB, data []byte) {
	t.Helper()
	got, err := Parse(data)
	v, verr := ParseValue(data)
	if verr == nil && v.Kind != Object {
		verr = &Error{Msg: "a document must be a JSON object", Section: "3"}
	}
	if (err == nil) != (verr == nil) || err != nil && err.Error() != verr.Error() {
		t.Fatalf("Parse error = %v, ParseValue error = %v", err, verr)
	}
	if err != nil {
		return
	}
	if want := FromValue(v); !reflect.DeepEqual(got, want) {
		t.Fatalf("Parse differs from FromValue(ParseValue)\n got: %s\nwant: %s", MarshalCompact(got), MarshalCompact(want))
	}
}

// arenaInputs are documents that exercise everything the reader keeps
// verbatim, and some that fail.
func arenaInputs(t testing.TB) [][]byte {
	in := [][]byte{
		readFixture(t),
		[]byte(`{"bendscript":1,"id":["x"],"title":{"a":[1,{"b":null}]},"meta":[true],"blocks":[{"id":2,"kind":"heading","level":"one","ordered":"no","language":7,"target":[],"text":{},"spans":{"x":1},"items":"i","blocks":5,"x":{"y":[1.5e3]}},7,{"id":"p","kind":"paragraph","spans":[{"id":"s","text":5,"marks":{"m":1}},{"id":"t","text":"a","marks":["bold",{"kind":"color","v":[1]},{"kind":"link","target":3,"predicate":false,"z":[{}]},[2],null]},"s"]}],"edges":[{"subject":1,"predicate":"p","object":"o","meta":[1],"w":{"k":"v"}},[]],"zz":{"a":{}}}`),
		[]byte(`{"edges":{"a":[1]},"blocks":[{"id":"p","kind":"paragraph","spans":[{"id":"s","text":"t","x-note":{"k":[1]}}]}]}`),
		[]byte(`{"bendscript":"0.1","blocks":[{"id":"b","id":"c"}]}`),
		[]byte(`{"a":[1,2,{"b":tru}]}`),
		[]byte(`[1,2]`),
		[]byte(`{"blocks":[{"spans":[{"marks":["a",`),
		largeDocument(1 << 14),
	}
	names, err := fs.Glob(corpus.FS, "*.bend.json")
	if err != nil || len(names) == 0 {
		t.Fatalf("no corpus documents: %v", err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(corpus.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, b)
	}
	return in
}

func TestParseMatchesFromValue(t *testing.T) {
	for i, data := range arenaInputs(t) {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			checkParseMatchesFromValue(t, data)
		})
	}
}

// TestParseKeepsNothingOfTheArena: a document read earlier does not change
// when later reads reuse the arena it was read through; what it keeps
// verbatim (Extra, meta, raw marks) was copied out.
func TestParseKeepsNothingOfTheArena(t *testing.T) {
	inputs := arenaInputs(t)
	var docs []*Document
	var want [][]byte
	for _, data := range inputs {
		d, err := Parse(data)
		if err != nil {
			continue
		}
		v, _ := ParseValue(data)
		docs = append(docs, d)
		want = append(want, MarshalCompact(FromValue(v)))
	}
	for range 3 {
		for _, data := range inputs {
			Parse(data)
		}
	}
	for i, d := range docs {
		if got := MarshalCompact(d); !bytes.Equal(got, want[i]) {
			t.Errorf("document %d changed after later parses\n got: %s\nwant: %s", i, got, want[i])
		}
	}
}

// TestParseConcurrent: parses running at once each get their own arena
// (run with -race).
func TestParseConcurrent(t *testing.T) {
	inputs := arenaInputs(t)
	want := make([][]byte, len(inputs))
	for i, data := range inputs {
		if _, err := Parse(data); err == nil {
			v, _ := ParseValue(data)
			want[i] = MarshalCompact(FromValue(v))
		}
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 10 {
				i := (g + k) % len(inputs)
				d, err := Parse(inputs[i])
				if (err == nil) != (want[i] != nil) || err == nil && !bytes.Equal(MarshalCompact(d), want[i]) {
					t.Errorf("input %d parsed differently while others parsed", i)
				}
			}
		})
	}
	wg.Wait()
}
