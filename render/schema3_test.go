package render

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestRendersASchema3Report: a schema 3 report, converted on reading,
// renders as Markdown and JUnit, its drift table printing the class
// numbers schema 3 wrote under the names schema 4 changed (n from
// documents, edits applied, lossless and unchanged from the *_rate keys).
func TestRendersASchema3Report(t *testing.T) {
	t.Parallel()
	md, junit := renderOld(t, "schema-3.json")
	// schema-3.json: offline/noisy class B has documents 4,
	// edit_compliance_rate 0.75, lossless_rate 0.25, unchanged_rate 0.5.
	const row = "| `offline/noisy` | B | 4 | 0.0089 [≥ 0 at 93.8%, ≤ 0.1 at 93.8%] | 0.1 | 0.1 | n/a | 0 | 0 | 0 | 0 | 0 | 75.0% | 25.0% | 0 / 0 | 50.0% | 0 / 2 | 0 |"
	if !strings.Contains(md.String(), row) {
		t.Errorf("the Markdown's drift table lacks offline/noisy's class B row as schema 3 wrote it:\n%s", md.String())
	}
	// Schema 3 wrote its warnings as sentences: they print as written.
	raw, err := os.ReadFile("../report/testdata/schema-3.json")
	if err != nil {
		t.Fatal(err)
	}
	var old struct {
		Warnings []string `json:"warnings"`
	}
	if err := json.Unmarshal(raw, &old); err != nil || len(old.Warnings) == 0 {
		t.Fatalf("the fixture's warnings: %v (%d)", err, len(old.Warnings))
	}
	for i, w := range old.Warnings {
		if want := fmt.Sprintf("%d. %s\n", i+1, mdText(w)); !strings.Contains(md.String(), want) {
			t.Errorf("the Markdown lacks schema 3's warning %q", want)
		}
	}
	if !strings.Contains(junit.String(), "offline/noisy") {
		t.Errorf("the JUnit report lacks the models:\n%s", junit.String())
	}
}
