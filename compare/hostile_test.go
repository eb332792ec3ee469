package compare

import (
	"strings"
	"testing"
)

// TestCompareClassColumnCannotForgeMarkdown: compare --format md wrote the
// class column (a report's format name, rung and class) unescaped; a
// hostile report made a "## ✅ PASS" heading and raw <script> in the
// output the README suggests appending to $GITHUB_STEP_SUMMARY.
func TestCompareClassColumnCannotForgeMarkdown(t *testing.T) {
	t.Parallel()
	old, new := comparePair()
	const forged = "B |\n\n## ✅ PASS\n\n<script>alert(1)</script>"
	c := Compare(old, new, "a.json", "b.json")
	for i := range c.Rows {
		c.Rows[i].Class = forged
	}
	var b strings.Builder
	if err := c.WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "#") || strings.Contains(line, "<script>") {
			t.Errorf("forged markup in the comparison: %q", line)
		}
	}
}
