package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestHoldBackPassesAllButTheTail: whatever the writes' sizes, holdBack
// passes every byte but the last n, in order, and holds those.
func TestHoldBackPassesAllButTheTail(t *testing.T) {
	const in = "abcdefghij"
	for _, sizes := range [][]int{{10}, {1, 9}, {9, 1}, {2, 1, 1, 6}, {7, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0, 3, 0, 7}} {
		var out bytes.Buffer
		h := &holdBack{w: &out, n: 3}
		rest := in
		for _, n := range sizes {
			if _, err := h.Write([]byte(rest[:n])); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		if out.String() != in[:7] || string(h.tail) != in[7:] {
			t.Errorf("writes of %v: passed %q, held %q; want %q, %q", sizes, out.String(), h.tail, in[:7], in[7:])
		}
	}
	var out bytes.Buffer
	h := &holdBack{w: &out, n: 3}
	h.Write([]byte("ab"))
	if out.Len() != 0 || string(h.tail) != "ab" {
		t.Errorf("two bytes: passed %q, held %q; want nothing passed", out.String(), h.tail)
	}
}

// TestWriteJSONPutsTheAnswersLast: the report is its head, indented as
// json.MarshalIndent writes it, with "answers" as its last member, one
// answer to a line; a report without answers is the head alone.
func TestWriteJSONPutsTheAnswersLast(t *testing.T) {
	r := &Report{RunID: "r", Verdict: Pass, Answers: []Answer{{Model: "m", TaskID: "01-a"}, {Model: "m", TaskID: "01-b", Repeat: 1}}}
	head := *r
	head.Answers = nil
	hb, err := json.MarshalIndent(&head, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, a := range r.Answers {
		b, _ := json.Marshal(a)
		lines = append(lines, "    "+string(b))
	}
	want := strings.TrimSuffix(string(hb), "\n}") + ",\n  \"answers\": [\n" + strings.Join(lines, ",\n") + "\n  ]\n}\n"
	var got bytes.Buffer
	if err := WriteJSON(&got, r); err != nil {
		t.Fatal(err)
	}
	if got.String() != want {
		t.Errorf("WriteJSON wrote\n%s\nwant\n%s", got.String(), want)
	}
	got.Reset()
	if err := WriteJSON(&got, &head); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(hb)+"\n" {
		t.Errorf("without answers WriteJSON wrote\n%s\nwant\n%s", got.String(), hb)
	}
}

// TestWriteJSONSaysAWriteFailed: a writer that fails makes WriteJSON
// fail, with answers or without.
func TestWriteJSONSaysAWriteFailed(t *testing.T) {
	for _, n := range []int{0, 1, 3000} {
		r := &Report{RunID: "r", Answers: make([]Answer, n)}
		if err := WriteJSON(failingWriter{}, r); err == nil {
			t.Errorf("WriteJSON of %d answers to a failing writer returned no error", n)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
