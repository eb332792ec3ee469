package task

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/instructions"
)

// TestProducedShowsTheProjection: a produce task's instruction holds the
// document's projection, which the viewer and harness show print beside
// the diff of the answer, while its prompt gives the projection once (P:
// as the document) or not at all (R: the .bend is given), since the
// class templates do not quote the instruction.
func TestProducedShowsTheProjection(t *testing.T) {
	doc := loadEmbedded(t).Documents[15]
	ts, err := Produced(doc)
	if err != nil {
		t.Fatal(err)
	}
	p, err := LoadPrompts(instructions.FS)
	if err != nil {
		t.Fatal(err)
	}
	shown, _ := ShowProjection(doc)
	for _, tk := range ts {
		if !strings.Contains(tk.Text(), string(shown.Bytes)) {
			t.Errorf("%s: the instruction does not hold the projection", tk.ID)
		}
		_, given, body := p.Parts(tk)
		want := map[string]int{ClassP: 1, ClassR: 0}[tk.Class]
		if n := strings.Count(given+body, "{#blk-c104}"); n != want {
			t.Errorf("%s: the prompt holds the projection %d times, want %d", tk.ID, n, want)
		}
	}
}
