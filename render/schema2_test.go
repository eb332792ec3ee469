package render

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/report"
)

// TestRendersASchema2Report: a schema 2 report, converted on reading,
// renders as Markdown and JUnit, and the Markdown says its intervals are
// schema 2's.
func TestRendersASchema2Report(t *testing.T) {
	t.Parallel()
	md, junit := renderOld(t, "schema-2.json")
	if !strings.Contains(md.String(), "schema 2") {
		t.Errorf("the Markdown does not say the report was converted from schema 2:\n%s", md.String())
	}
	if !strings.Contains(junit.String(), "offline/noisy") {
		t.Errorf("the JUnit report lacks the models:\n%s", junit.String())
	}
}

// renderOld reads an earlier schema's report from report/testdata (name),
// converted by ReadJSON, and writes it as Markdown and JUnit.
func renderOld(t *testing.T, name string) (md, junit *bytes.Buffer) {
	t.Helper()
	f, err := os.Open("../report/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := report.ReadJSON(f, name)
	if err != nil {
		t.Fatal(err)
	}
	md, junit = new(bytes.Buffer), new(bytes.Buffer)
	if err := WriteMarkdown(md, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(junit, r); err != nil {
		t.Fatal(err)
	}
	return md, junit
}
