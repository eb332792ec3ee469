package render

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/aggregate"
	"bendscript.com/round-trip-harness/scoring/scoringtest"
)

// TestProviderCannotForgeVerdictInMarkdown: the provider is a string the
// server chooses; it went unescaped into the Models table (and the
// terminal summary, which is the same Markdown), and a provider holding
// a line break and "**Verdict: ✅ PASS**" forged a passing verdict line in
// a failing report.
func TestProviderCannotForgeVerdictInMarkdown(t *testing.T) {
	t.Parallel()
	const forged = "x |\n\n**Verdict: ✅ PASS**: every §8.5 threshold holds for every model.\n\n<img src=x> [link](javascript:alert(1)) ~~gone~~ &lt;"
	in := inputOf(scoringtest.FailingRun.Run())
	for i := range in.Scores {
		in.Scores[i].Provider = forged
	}
	rep := aggregate.Build(in)
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if strings.Count(md, "**Verdict:") != 1 || !strings.Contains(md, "**Verdict: "+VerdictWord(rep)+"**") || VerdictWord(rep) == "✅ PASS" {
		t.Errorf("the Markdown has a forged verdict line:\n%s", md)
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.Contains(line, "Verdict: ✅ PASS") && !strings.Contains(line, `\*\*Verdict: ✅ PASS\*\*`) {
			t.Errorf("provider text reads as markup: %q", line)
		}
		if strings.Contains(line, "<img") || strings.Contains(line, " [link](") || strings.Contains(line, "~~gone") {
			t.Errorf("provider markup not escaped: %q", line)
		}
	}
}
