//go:build !race

package formats_test

// The tests in this file move megabytes: the 512k rung with every
// format's answer to each of its tasks, and a chain of copies up to
// CopyLimit. Under the race detector, which checks every byte copied, they
// cost 2-3 s of CPU each of a go test -race ./... that must stay quick.
// They test sizes and limits, not concurrency, so they run without the
// detector: make test runs every heavy_test.go in a second go test without
// -race.

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestSizeLadder512k: on the 512k rung, the oracle's patch answers are
// under 1% of the bytes of its document answers.
func TestSizeLadder512k(t *testing.T) {
	rungs, err := ladder.Build(tasktest.Set(t), ladder.Config{Rungs: []int{512 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	r := rungs[0]
	for _, tk := range r.Tasks {
		size := map[string]int{}
		for _, f := range formats.Table {
			ans, err := f.Answer(r.Bytes, tk.Expected, tk.GoldEdit)
			if err != nil {
				t.Fatal(err)
			}
			if _, fail := f.Apply(r.Bytes, ans); fail != nil {
				t.Fatalf("%s %s: %v", tk.ID, f.Name, fail)
			}
			size[f.Name] = len(ans)
		}
		doc := size[formats.Document]
		t.Logf("%s: document %d bytes, json-patch %d (%.3f%%), bend-ops %d (%.3f%%)", tk.ID, doc,
			size[formats.JSONPatch], 100*float64(size[formats.JSONPatch])/float64(doc),
			size[formats.BendOps], 100*float64(size[formats.BendOps])/float64(doc))
		for _, name := range []string{formats.JSONPatch, formats.BendOps} {
			if size[name]*100 >= doc {
				t.Errorf("%s %s: %d bytes, not under 1%% of the document answer's %d", tk.ID, name, size[name], doc)
			}
		}
	}
}

// TestCopyChainIsBounded: each copy doubles the blocks array, so 40 of them
// would ask for 2^40 times the document; the copy bound stops the chain
// after a few and names the copy that crossed it.
func TestCopyChainIsBounded(t *testing.T) {
	ops := make([]string, 40)
	for i := range ops {
		ops[i] = `{"op":"copy","from":"/blocks","path":"/blocks/0"}`
	}
	_, fail := formats.Lookup(formats.JSONPatch).Apply(source02(t), "["+strings.Join(ops, ",")+"]")
	if fail == nil {
		t.Fatal("a doubling copy chain applied")
	}
	if fail.Kind != formats.Failed || fail.Op <= 0 || fail.Op >= 30 || !strings.Contains(fail.Reason, "limit") {
		t.Errorf("got %s at %d: %s; want failed at a copy past the first, for the limit", fail.Kind, fail.Op, fail.Reason)
	}
}

// TestSearchReplace512k: on the 512k rung, the oracle's search-replace
// answers apply, give the expected document and are under 2% of the
// bytes of its document answers (issue 35).
func TestSearchReplace512k(t *testing.T) {
	rungs, err := ladder.Build(tasktest.Set(t), ladder.Config{Rungs: []int{512 << 10}})
	if err != nil {
		t.Fatal(err)
	}
	r := rungs[0]
	f := formats.Lookup(formats.SearchReplace)
	for _, tk := range r.Tasks {
		ans, err := f.Answer(r.Bytes, tk.Expected, tk.GoldEdit)
		if err != nil {
			t.Fatal(err)
		}
		out, fail := f.Apply(r.Bytes, ans)
		if fail != nil {
			t.Fatalf("%s: %v", tk.ID, fail)
		}
		doc := len(bend.Marshal(tk.Expected))
		if string(out) != string(bend.Marshal(tk.Expected)) {
			t.Errorf("%s: the blocks do not give the expected document", tk.ID)
		}
		t.Logf("%s: document %d bytes, search-replace %d (%.3f%%)", tk.ID, doc, len(ans), 100*float64(len(ans))/float64(doc))
		if len(ans)*50 >= doc {
			t.Errorf("%s: %d bytes, not under 2%% of the document answer's %d", tk.ID, len(ans), doc)
		}
	}
}
