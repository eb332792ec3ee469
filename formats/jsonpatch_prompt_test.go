package formats_test

import (
	"io/fs"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestJSONPatchPromptClaims pins what format-json-patch.txt tells the
// model about test and add (issue 35): each claim is in the prompt, and
// the applier does what it says.
func TestJSONPatchPromptClaims(t *testing.T) {
	b, err := fs.ReadFile(instructions.FS, "prompts/format-json-patch.txt")
	if err != nil {
		t.Fatal(err)
	}
	prompt := string(b)
	// Task 17-c's inverse: its document's last edge (index 6 of 7) has the
	// relative subject bend:#blk-e002.spn-02.
	var inv *task.Task
	for _, tk := range tasktest.Set(t).Inverse {
		if tk.ID == "17-c" {
			inv = tk
		}
	}
	given := inv.Source.Bytes
	full := "bend:" + inv.Source.Doc.ID + "#blk-e002.spn-02"
	const rm = `{"op":"remove","path":"/edges/6"}`
	cases := []struct {
		claim, patch string
		applies      bool
		reason       string
	}{
		{"A test compares exactly", `[{"op":"test","path":"/edges/6/subject","value":"bend:#blk-e002.spn-02"},` + rm + `]`, true,
			"the form the document holds passes"},
		{"fails a test written in the relative form", `[{"op":"test","path":"/edges/6/subject","value":"` + full + `"},` + rm + `]`, false,
			"the other form of the same reference fails"},
		{`test its "subject" and its "object"`, `[{"op":"test","path":"/edges/6/object","value":"bend:bagaaieraj4zbrj56jl6us6rkju5frfj7fvucumxmanorlh4tx7jdwhr46gva"},` + rm + `]`, true,
			"an edge is guarded by its members"},
		{"Member order inside an object does not matter", `[{"op":"test","path":"/edges/6/meta","value":{"outcome":"success","confidence_delta":0.03}}]`, true,
			"objects compare as JSON"},
		{"(0.03, not 3e-2)", `[{"op":"test","path":"/edges/6/meta/confidence_delta","value":3e-2}]`, false,
			"numbers compare as written"},
		{"an add at the index equal to the array's length", `[{"op":"add","path":"/edges/7","value":{"subject":"bend:","predicate":"cites","object":"https://example.org/"}}]`, true,
			"index = length appends"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if !strings.Contains(prompt, c.claim) {
			t.Errorf("the prompt does not say %q", c.claim)
		}
		_, fail := formats.Lookup(formats.JSONPatch).Apply(given, c.patch)
		if (fail == nil) != c.applies {
			t.Errorf("%s: applied %v (%v), want %v: %s", c.claim, fail == nil, fail, c.applies, c.reason)
		}
	}
}
