package formats_test

import (
	"bytes"
	"io/fs"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// source02 is the document of tasks 02-b and 02-c, as the model is given it.
func source02(t *testing.T) []byte {
	t.Helper()
	return tasktest.Set(t).Task("02-b").Source.Bytes
}

const (
	guard = `{"op":"test","path":"/blocks/1/id","value":"blk-4a90"}`
	bold  = `{"op":"add","path":"/blocks/1/spans/1/marks","value":["bold"]}`
)

// TestFailures covers each way a patch answer can fail, per format: the
// kind, the operation named and a reason that names the cause.
func TestFailures(t *testing.T) {
	cases := []struct {
		format, name, raw string
		kind              string
		op                int
		wantReason        string // a substring the reason must hold
		reason            string
	}{
		{formats.JSONPatch, "prose", "I would add a bold mark.", formats.NotJSON, -1, "not JSON", "an answer with no JSON at all"},
		{formats.JSONPatch, "two fences", "```json\n[" + bold + "]\n```\nor\n```json\n[" + guard + "]\n```", formats.NotJSON, -1, "2 fenced blocks hold JSON arrays", "two candidate patches: which one was meant is not ours to guess"},
		{formats.JSONPatch, "an object", `{"op":"add","path":"/title","value":"x"}`, formats.NotFormat, -1, "an object, not an array", "one operation not wrapped in an array (or a whole document) is JSON but not a patch"},
		{formats.JSONPatch, "not an object", `[` + guard + `,"add"]`, formats.NotFormat, 1, "not a string", "an element that is not an operation object is named by index"},
		{formats.JSONPatch, "unknown op", `[` + guard + `,{"op":"append","path":"/title","value":"x"}]`, formats.NotFormat, 1, `unknown op "append"`, "an op name outside RFC 6902 is a format error, not a failed application"},
		{formats.JSONPatch, "missing value", `[{"op":"replace","path":"/title"}]`, formats.NotFormat, 0, `replace needs "value"`, "replace without value is malformed"},
		{formats.JSONPatch, "missing from", `[{"op":"move","path":"/title"}]`, formats.NotFormat, 0, `move needs "from"`, "move without from is malformed"},
		{formats.JSONPatch, "path not a pointer", `[{"op":"remove","path":"blocks/1"}]`, formats.NotFormat, 0, "not a JSON pointer", "a path must start with / (RFC 6901)"},
		{formats.JSONPatch, "path ill-typed", `[{"op":"remove","path":3}]`, formats.NotFormat, 0, `"path" must be a string`, "a path is a string"},
		{formats.JSONPatch, "bad path", `[` + guard + `,{"op":"replace","path":"/blocks/1/spans/1/colour","value":"red"}]`, formats.Failed, 1, "/blocks/1/spans/1/colour", "replace of a member that does not exist fails and names the path"},
		{formats.JSONPatch, "failed test", `[` + bold + `,{"op":"test","path":"/blocks/1/id","value":"blk-8e13"}]`, formats.Failed, 1, "testing value /blocks/1/id failed", "a failed test guard fails the patch at the test"},
		{formats.JSONPatch, "index out of range", `[` + guard + `,` + guard + `,{"op":"replace","path":"/blocks/999/kind","value":"quote"}]`, formats.Failed, 2, "999", "an index past the end of an array"},
		{formats.JSONPatch, "negative index", `[{"op":"remove","path":"/blocks/-1"}]`, formats.Failed, 0, "-1", "negative indexes are not RFC 6902 and are off"},
		{formats.JSONPatch, "add creates no path", `[{"op":"add","path":"/meta/extra/deep","value":1}]`, formats.Failed, 0, "/meta/extra/deep", "add does not create missing parents"},
		{formats.BendOps, "prose", "Sure! Bold the span.", formats.NotJSON, -1, "not JSON", "an answer with no JSON at all"},
		{formats.BendOps, "an object", `{"op":"set_title","title":"x"}`, formats.NotFormat, -1, "an object, not an array", "one operation not wrapped in an array"},
		{formats.BendOps, "unknown op", `[{"op":"set_title","title":"x"},{"op":"set_level","block":"blk-0c71","level":2}]`, formats.NotFormat, 1, `unknown op "set_level"`, "an operation the language does not have"},
		{formats.BendOps, "missing field", `[{"op":"set_text","block":"blk-4a90","span":"spn-02"}]`, formats.NotFormat, 0, `set_text needs "text"`, "a required field left out"},
		{formats.BendOps, "ill-typed field", `[{"op":"set_text","block":"blk-4a90","span":"spn-02","text":7}]`, formats.NotFormat, 0, `"text" must be a string`, "a field of the wrong type"},
		{formats.BendOps, "unknown block", `[{"op":"set_title","title":"x"},{"op":"add_mark","block":"blk-4a91","span":"spn-02","mark":"bold"}]`, formats.Failed, 1, `no block "blk-4a91"`, "an id the document does not have"},
		{formats.BendOps, "unknown span", `[{"op":"remove_span","block":"blk-4a90","span":"spn-09"}]`, formats.Failed, 0, `no span "spn-09"`, "a span id the block does not have"},
		{formats.BendOps, "mark already there", `[{"op":"add_mark","block":"blk-4a90","span":"spn-02","mark":"bold"},{"op":"add_mark","block":"blk-4a90","span":"spn-02","mark":"bold"}]`, formats.Failed, 1, "already has that mark", "add_mark of a mark present fails (the prompt says so)"},
	}
	given := source02(t)
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.format+"/"+c.name, func(t *testing.T) {
			out, fail := formats.Lookup(c.format).Apply(given, c.raw)
			if fail == nil {
				t.Fatalf("applied (%d bytes), want a %s failure: %s", len(out), c.kind, c.reason)
			}
			if out != nil {
				t.Errorf("a failure with output")
			}
			if fail.Kind != c.kind || fail.Op != c.op || !strings.Contains(fail.Reason, c.wantReason) {
				t.Errorf("got %s at %d: %q\nwant %s at %d, reason holding %q (%s)", fail.Kind, fail.Op, fail.Reason, c.kind, c.op, c.wantReason, c.reason)
			}
			if fail.Format != c.format {
				t.Errorf("Format %q, want %q", fail.Format, c.format)
			}
			if (fail.Op < 0) != (fail.Text == "") || len(fail.Text) > formats.MaxText {
				t.Errorf("Text %q for operation %d", fail.Text, fail.Op)
			}
			if strings.Contains(fail.Reason, "\n") {
				t.Errorf("reason is not one line: %q", fail.Reason)
			}
		})
	}
}

func TestFailureError(t *testing.T) {
	long := `{"op":"replace","path":"/blocks/9/spans/0/text","value":"` + strings.Repeat("é", 200) + `"}`
	_, fail := formats.Lookup(formats.JSONPatch).Apply(source02(t), "["+long+"]")
	if fail == nil {
		t.Fatal("applied")
	}
	got := fail.Error()
	if !strings.HasPrefix(got, `json-patch: operation 0 {"op":"replace","path":"/blocks/9/spans/0/text",`) || !strings.Contains(got, `...: `) {
		t.Errorf("Error() = %s", got)
	}
	if len(fail.Text) > formats.MaxText || !strings.HasSuffix(fail.Text, "...") || !bytes.ContainsRune([]byte(fail.Text), 'é') {
		t.Errorf("Text not cut to %d bytes on a rune boundary: %q", formats.MaxText, fail.Text)
	}
	w := (&formats.Failure{Format: formats.BendOps, Kind: formats.NotJSON, Op: -1, Reason: "the answer is empty"}).Error()
	if w != "bend-ops: the answer is empty" {
		t.Errorf("whole-answer Error() = %q", w)
	}
}

// TestDocumentApplyIsRaw: the document format hands the answer to the
// metric exactly as it came, so document runs score as before.
func TestDocumentApplyIsRaw(t *testing.T) {
	for _, raw := range []string{"", "not json", " {}\n", "```json\n{}\n```\nprose"} {
		out, fail := formats.Lookup(formats.Document).Apply(source02(t), raw)
		if fail != nil || string(out) != raw {
			t.Errorf("Apply(%q) = %q, %v", raw, out, fail)
		}
	}
}

// editTask is one class B/C task with what answers it: the document given,
// the expected document and the gold edit with concrete ids.
type editTask struct {
	name     string
	given    []byte
	source   *bend.Document
	expected *bend.Document
	ops      []*edit.Op
}

// editTasks returns every class B/C task of the embedded corpus: the gating
// tasks, their inverses and the natural tasks (bound to their default
// names, which is how their expected document was made).
func editTasks(t *testing.T) []editTask {
	set := tasktest.Set(t)
	var out []editTask
	add := func(kind string, ts []*task.Task) {
		for _, tk := range ts {
			if tk.Expected == nil {
				continue
			}
			ops := tk.GoldEdit
			if len(tk.Names) > 0 {
				var err error
				if ops, err = edit.Bind(ops, tk.Names); err != nil {
					t.Fatalf("%s %s: %v", kind, tk.ID, err)
				}
			}
			out = append(out, editTask{kind + "/" + tk.ID, tk.Source.Bytes, tk.Source.Doc, tk.Expected, ops})
		}
	}
	add("gating", set.Tasks)
	add("inverse", set.Inverse)
	add("natural", set.Natural)
	if len(out) != 120 {
		t.Fatalf("%d class B/C tasks, want 120 (40 gating, 40 inverse, 40 natural)", len(out))
	}
	return out
}

// TestRoundTrip: for every class B/C task, the oracle's answer in every
// format, applied to the document given, is the expected document
// (canonical forms equal) and scores drift 0 with the edit applied.
func TestRoundTrip(t *testing.T) {
	w := metric.DefaultWeights()
	for _, et := range editTasks(t) {
		want, err := bend.Canonical(et.expected)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range formats.Table {
			ans, err := f.Answer(et.given, et.expected, et.ops)
			if err != nil {
				t.Fatalf("%s %s: %v", et.name, f.Name, err)
			}
			out, fail := f.Apply(et.given, ans)
			if fail != nil {
				t.Errorf("%s %s: %v\n%s", et.name, f.Name, fail, ans)
				continue
			}
			d, err := bend.Parse(out)
			if err != nil {
				t.Errorf("%s %s: output does not parse: %v", et.name, f.Name, err)
				continue
			}
			if got, _ := bend.Canonical(d); !bytes.Equal(got, want) {
				t.Errorf("%s %s: output is not the expected document\nanswer %s", et.name, f.Name, ans)
			}
			if r := metric.Score(et.source, et.expected, et.ops, string(out), w); !r.Valid || r.Drift != 0 || !r.EditApplied {
				t.Errorf("%s %s: scored drift %v, valid %v, edit applied %v", et.name, f.Name, r.Drift, r.Valid, r.EditApplied)
			}
		}
	}
}

// TestEmptyPatchIsTheDocument: an empty patch gives the document given (what
// offline/identity answers).
func TestEmptyPatchIsTheDocument(t *testing.T) {
	given := source02(t)
	src, _ := bend.Parse(given)
	want, _ := bend.Canonical(src)
	for _, name := range []string{formats.JSONPatch, formats.BendOps} {
		out, fail := formats.Lookup(name).Apply(given, "[]")
		if fail != nil {
			t.Fatalf("%s: %v", name, fail)
		}
		d, err := bend.Parse(out)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := bend.Canonical(d); !bytes.Equal(got, want) {
			t.Errorf("%s: [] changed the document", name)
		}
	}
}

// TestFencedPatch: a patch in one Markdown fence with prose around it is
// read like a fenced document.
func TestFencedPatch(t *testing.T) {
	raw := "Here is the patch:\n\n```json\n[" + guard + "," + bold + "]\n```\n"
	out, fail := formats.Lookup(formats.JSONPatch).Apply(source02(t), raw)
	if fail != nil {
		t.Fatal(fail)
	}
	d, _ := bend.Parse(out)
	if m := d.FindBlock("blk-4a90").Spans[1].Marks; len(m) != 1 || m[0].Name != "bold" {
		t.Errorf("marks %v", m)
	}
}

// TestSlip: a slip changes the answer, says what it did, and is the same
// for the same seed; the document format makes none.
func TestSlip(t *testing.T) {
	slipped := map[string]int{}
	for _, et := range editTasks(t)[:40] {
		for _, f := range formats.Table {
			ans, _ := f.Answer(et.given, et.expected, et.ops)
			a, what := f.Slip(ans, rand.New(rand.NewPCG(7, 11)))
			b, again := f.Slip(ans, rand.New(rand.NewPCG(7, 11)))
			if a != b || what != again {
				t.Errorf("%s %s: two slips with one seed differ", et.name, f.Name)
			}
			switch {
			case what == "" && a != ans:
				t.Errorf("%s %s: no slip reported, but the answer changed", et.name, f.Name)
			case what != "" && a == ans:
				t.Errorf("%s %s: slip %q left the answer unchanged", et.name, f.Name, what)
			case what != "":
				slipped[f.Name]++
				if out, fail := f.Apply(et.given, a); fail == nil {
					if d, err := bend.Parse(out); err == nil && canonicalEqual(d, et.expected) {
						t.Errorf("%s %s: slip %q still gives the expected document", et.name, f.Name, what)
					}
				}
			}
		}
	}
	if slipped[formats.Document] != 0 || slipped[formats.JSONPatch] < 30 || slipped[formats.BendOps] < 30 {
		t.Errorf("slipped answers per format: %v; want none for document and most for the patches", slipped)
	}
}

func canonicalEqual(a, b *bend.Document) bool {
	x, err1 := bend.Canonical(a)
	y, err2 := bend.Canonical(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

func TestSlipExamples(t *testing.T) {
	cases := []struct{ format, answer, want, reason string }{
		{formats.JSONPatch, `[{"op":"remove","path":"/blocks/0"}]`, `[{"op":"remove","path":"/blocks/1"}]`, "index 0 can only go up"},
		{formats.JSONPatch, `[{"op":"replace","path":"/title","value":"x"}]`, "", "no index to miscount"},
		{formats.BendOps, `[{"op":"remove_block","block":"blk-7b09"}]`, `[{"op":"remove_block","block":"blk-7b00"}]`, "the last digit wraps"},
		{formats.BendOps, `[{"op":"set_title","title":"x"}]`, "", "no id to misread"},
		{formats.BendOps, `not json`, "", "nothing to slip in"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		got, what := formats.Lookup(c.format).Slip(c.answer, rand.New(rand.NewPCG(1, 2)))
		if c.want == "" {
			if got != c.answer || what != "" {
				t.Errorf("%s %s: slipped to %s (%s); want unchanged: %s", c.format, c.answer, got, what, c.reason)
			}
			continue
		}
		if got != c.want || what == "" {
			t.Errorf("%s %s: got %s (%q), want %s: %s", c.format, c.answer, got, what, c.want, c.reason)
		}
	}
}

func TestLookupAndParse(t *testing.T) {
	if f := formats.Lookup(""); f == nil || f.Name != formats.Document {
		t.Errorf(`Lookup("") = %v, want document`, f)
	}
	if formats.Lookup("yaml") != nil {
		t.Error("Lookup of an unknown format is not nil")
	}
	if f := formats.Of(""); f != formats.Lookup(formats.Document) || !f.Whole {
		t.Errorf(`Of("") = %v, want the document entry: a task or score recorded before formats`, f)
	}
	if f := formats.Of("yaml"); f == nil || f.Name != "yaml" || f.Whole || f.Apply != nil {
		t.Errorf(`Of("yaml") = %+v; want a format named yaml that is not whole and applies nothing`, f)
	}
	for _, f := range formats.Table {
		if formats.Lookup(f.Name) != f || f.Help == "" || f.Apply == nil || f.Answer == nil || f.Slip == nil {
			t.Errorf("%s: incomplete entry or lookup", f.Name)
		}
	}
	cases := []struct {
		in     string
		want   []string
		err    string
		reason string
	}{
		{"bend-ops,document", []string{"document", "bend-ops"}, "", "table order, not flag order"},
		{"json-patch, json-patch", []string{"json-patch"}, "", "no duplicates; spaces allowed"},
		{"document,xml", nil, `unknown answer format "xml" (have document, json-patch, bend-ops, search-replace, projection)`, "names the unknown one and lists the known"},
		{"", nil, "no answer format", "an empty list is an error"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		got, err := formats.Parse(c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Parse(%q) error %v, want %q: %s", c.in, err, c.err, c.reason)
		case c.err == "" && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("Parse(%q) = %v, %v; want %v: %s", c.in, got, err, c.want, c.reason)
		}
	}
}

// TestPromptFilesExist: every patch format's prompt is in the embedded
// instructions, and says what to return.
func TestPromptFilesExist(t *testing.T) {
	for _, f := range formats.Table {
		if f.Prompt == "" {
			continue
		}
		b, err := fs.ReadFile(instructions.FS, "prompts/"+f.Prompt)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		answer := "JSON array"
		if f.Name == formats.SearchReplace {
			answer = "Answer with SEARCH/REPLACE blocks only"
		}
		if f.Name == formats.Projection {
			answer = "Answer with the document written in the text projection only"
		}
		if !strings.Contains(string(b), answer) {
			t.Errorf("%s: the prompt does not say %q", f.Name, answer)
		}
		if n := strings.Count(string(b), "\n"); n > 70 {
			t.Errorf("%s: %d lines", f.Name, n)
		}
	}
}

// TestBendOpsPromptClaims pins what format-bend-ops.txt tells the model
// about edit.Apply, so that the prompt stays true.
func TestBendOpsPromptClaims(t *testing.T) {
	given := source02(t)
	src, _ := bend.Parse(given)
	full := "bend:" + src.ID + "#blk-4a90.spn-02"
	edge := `{"op":"add_edge","edge":{"subject":"` + full + `","predicate":"cites","object":"https://example.org/"}}`
	apply := func(t *testing.T, raw string) *bend.Document {
		t.Helper()
		out, fail := formats.Lookup(formats.BendOps).Apply(given, raw)
		if fail != nil {
			t.Fatal(fail)
		}
		d, err := bend.Parse(out)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	t.Run("a full self-reference is stored as written", func(t *testing.T) {
		if d := apply(t, "["+edge+"]"); len(d.Edges) != 1 || d.Edges[0].Subject != full {
			t.Errorf("edges %v", d.Edges)
		}
	})
	t.Run("the relative form matches the full one", func(t *testing.T) {
		rm := `{"op":"remove_edge","subject":"bend:#blk-4a90.spn-02","predicate":"cites","object":"https://example.org/"}`
		if d := apply(t, "["+edge+","+rm+"]"); len(d.Edges) != 0 {
			t.Errorf("edges %v", d.Edges)
		}
	})
	t.Run("add_edge of an existing edge adds it again", func(t *testing.T) {
		if d := apply(t, "["+edge+","+edge+"]"); len(d.Edges) != 2 {
			t.Errorf("%d edges, want the duplicate", len(d.Edges))
		}
	})
	t.Run("removing the last mark leaves [] without drop_empty", func(t *testing.T) {
		add := `{"op":"add_mark","block":"blk-4a90","span":"spn-02","mark":"bold"}`
		rm := `{"op":"remove_mark","block":"blk-4a90","span":"spn-02","mark":"bold"}`
		if s := apply(t, "["+add+","+rm+"]").FindBlock("blk-4a90").Spans[1]; s.Marks == nil || len(s.Marks) != 0 {
			t.Errorf("marks %v (nil %v), want []", s.Marks, s.Marks == nil)
		}
		drop := `{"op":"remove_mark","block":"blk-4a90","span":"spn-02","mark":"bold","drop_empty":true}`
		if s := apply(t, "["+add+","+drop+"]").FindBlock("blk-4a90").Spans[1]; s.Marks != nil {
			t.Errorf("marks %v, want none", s.Marks)
		}
	})
	t.Run("a kind or level changes by remove and insert with the same id", func(t *testing.T) {
		rm := `{"op":"remove_block","block":"blk-0c71"}`
		ins := `{"op":"insert_block","after":"","parent":"","block":{"id":"blk-0c71","kind":"heading","level":2,"spans":[{"id":"spn-01","text":"Why the metre was measured, not decreed"}]}}`
		if b := apply(t, "["+rm+","+ins+"]").Blocks[0]; b.ID != "blk-0c71" || b.Level == nil || *b.Level != 2 {
			t.Errorf("first block %s level %v", b.ID, b.Level)
		}
	})
}
