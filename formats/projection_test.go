package formats_test

import (
	"io/fs"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/projection"
)

// TestProjectionPromptExample: the whole projection the prompt shows
// models (prompts/projection.txt) is one the parser accepts, and a valid
// document, so the rules never teach what the parser refuses.
func TestProjectionPromptExample(t *testing.T) {
	b, err := fs.ReadFile(instructions.FS, "prompts/projection.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(b), "Example, a whole projection:\n")
	if !ok {
		t.Fatal("prompts/projection.txt shows no example")
	}
	d, err := projection.Parse(example)
	if err != nil {
		t.Fatalf("the prompt's example does not parse: %v", err)
	}
	if errs := bend.Validate(d); len(errs) > 0 {
		t.Errorf("the prompt's example is not a valid document: %v", errs)
	}
}

// TestProjectionApply: an answer in the projection format is parsed
// whether bare or in one fence with prose around it; one that is not the
// projection fails at its line, with the line's text and the rule.
func TestProjectionApply(t *testing.T) {
	const doc = "---\nbendscript: \"0.1\"\nvocabulary: \"core\"\n---\n\n[a]{#s1} {#b1}\n"
	f := formats.Lookup(formats.Projection)
	cases := []struct {
		name, raw, failLine string
		reason              string
	}{
		{"bare", doc, "", "the projection as it is"},
		{"fenced", "Here it is:\n\n```markdown\n" + doc + "```\n", "", "one fence, prose around it, as the prompt allows"},
		{"broken", strings.Replace(doc, " {#b1}", "", 1), "[a]{#s1}", "a paragraph without its attributes fails at its line"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		out, fail := f.Apply(nil, c.raw)
		switch {
		case c.failLine == "" && fail != nil:
			t.Errorf("%s: %v (%s)", c.name, fail, c.reason)
		case c.failLine == "" && !strings.Contains(string(out), `"blk-`) && !strings.Contains(string(out), `"b1"`):
			t.Errorf("%s: no document: %s (%s)", c.name, out, c.reason)
		case c.failLine != "" && (fail == nil || fail.Op != 6 || fail.Text != c.failLine):
			t.Errorf("%s: failure %+v, want line 6 %q (%s)", c.name, fail, c.failLine, c.reason)
		}
	}
}
