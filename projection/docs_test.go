package projection_test

import (
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/projection"
)

// TestDocsExamples: every projection example of docs/projection.md (a
// ```markdown or ~~~markdown block) is one Parse accepts, behind a
// metadata block when it is a fragment, so the manual never shows what
// the parser refuses.
func TestDocsExamples(t *testing.T) {
	b, err := os.ReadFile("../docs/projection.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, open := range []string{"```markdown\n", "~~~markdown\n"} {
		closing := "\n" + open[:3] + "\n"
		rest := string(b)
		for {
			_, after, ok := strings.Cut(rest, open)
			if !ok {
				break
			}
			example, next, ok := strings.Cut(after, closing)
			if !ok {
				t.Fatalf("an example is not closed: %.60q", after)
			}
			rest = next
			n++
			text := example + "\n"
			if !strings.HasPrefix(text, "---\n") {
				text = "---\nbendscript: \"0.1\"\nvocabulary: \"core\"\n---\n\n" + text
			}
			if _, err := projection.Parse(text); err != nil {
				t.Errorf("docs/projection.md example %d does not parse: %v\n%s", n, err, example)
			}
		}
	}
	if n < 10 {
		t.Errorf("docs/projection.md shows %d examples, want one per construct", n)
	}
}
