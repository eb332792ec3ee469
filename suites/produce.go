package suites

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/formats"
	"bendscript.com/round-trip-harness/projection"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/transcript"
)

// produce is the produce suite: for every corpus document, task NN-p
// (class P) gives its text projection (package projection) and asks for
// the .bend JSON, and task NN-r (class R) gives the .bend and asks for its
// projection (answer format projection, parsed back before scoring). Both
// expect the corpus document itself: no gold edit, so every difference
// is a loss. A P task's Source is the document shown as its projection
// (the bytes the model sees), its parsed form the corpus document's.
func produce(corpus *task.Set, _ transcript.Inputs) (*task.Set, error) {
	out := &task.Set{Documents: corpus.Documents}
	for _, d := range corpus.Documents {
		text, err := projection.Render(d.Doc)
		if err != nil {
			return nil, fmt.Errorf("%s: no projection: %w", d.Name, err)
		}
		nn := d.Name[:2]
		shown := task.NewDocument(d.Name, []byte(text), d.Doc)
		out.Tasks = append(out.Tasks,
			&task.Task{ID: nn + "-p", Class: task.ClassP, DocumentName: d.Name, Suite: Produce,
				Covers: []string{"produce: the .bend JSON of the document's projection"},
				Hash:   produceHash("P", d.Hash, shown.Hash), Source: shown, Expected: d.Doc},
			&task.Task{ID: nn + "-r", Class: task.ClassR, DocumentName: d.Name, Suite: Produce,
				Covers: []string{"render: the projection of the .bend document"},
				Hash:   produceHash("R", d.Hash, ""), Source: d, Expected: d.Doc, Format: formats.Projection})
	}
	slices.SortFunc(out.Tasks, func(x, y *task.Task) int { return strings.Compare(x.ID, y.ID) })
	return out, nil
}

// produceHash is a produce task's hash: its class, its document's and
// what it shows.
func produceHash(class, doc, shown string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "produce %s %s %s", class, doc, shown))
	return hex.EncodeToString(sum[:])
}

var produceSection = func() *Section {
	s := classSection("Produce and render (information)",
		"Class P gives each corpus document as the harness's text projection (`docs/projection.md`) and asks for the `.bend` JSON; class R gives the `.bend` and asks for the projection, parsed back before scoring (a text that does not parse is invalid, drift 1, its line and rule in the score). Both expect the corpus document itself, so every difference is a loss; the declared id is not asked for in P (id_status records it). Information: no threshold applies.")
	return s
}()
