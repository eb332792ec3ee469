package compare

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestComparePairingSaidFirst: issue 56: make demo's size ladder against
// its formats run (one rung of three in common) printed "0.0030 → 0.3000
// … = (no difference)", the pairing only in a footnote, and "answer
// formats differ: none → document" for a run that named no format (which
// asks for the whole document). The opening now says first how many
// documents pair, each row how many it compared, and a run without
// --formats reads document.
func TestComparePairingSaidFirst(t *testing.T) {
	t.Parallel()
	old, new := comparePair()
	new.Formats = []string{"document", "json-patch"}
	// The new report lacks the first 5 documents of vendor/steady's class B.
	b := new.Results["vendor/steady"].Class("B")
	dropped := b.PerDocument[:5]
	b.PerDocument = slices.Clone(b.PerDocument[5:])
	c := Compare(old, new, "a", "b")
	var out bytes.Buffer
	if err := c.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if c.Documents != c.Paired+len(dropped) {
		t.Errorf("documents %d, paired %d: want %d unpaired", c.Documents, c.Paired, len(dropped))
	}
	opening, _, _ := strings.Cut(text, "\nverdict: ")
	if want := "pairs: only "; !strings.Contains(opening, want) || !strings.Contains(opening, " documents are in both reports") {
		t.Errorf("the opening does not say first how many documents pair:\n%s", opening)
	}
	if !strings.Contains(text, "answer formats differ: document → document, json-patch") {
		t.Errorf("a run without --formats does not read document:\n%s", text)
	}
	if want := fmt.Sprintf("%d of %d documents paired", len(b.PerDocument), len(b.PerDocument)+len(dropped)); !strings.Contains(text, want) {
		t.Errorf("the unpaired row does not say %q:\n%s", want, text)
	}
	// Both reports whole: no pairing line.
	old, new = comparePair()
	out.Reset()
	if err := Compare(old, new, "a", "b").WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "pairs: ") || strings.Contains(out.String(), "documents paired") {
		t.Errorf("reports that pair whole say they do not:\n%s", out.String())
	}
}
