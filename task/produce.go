package task

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/projection"
)

// Produced returns the produce suite's two tasks of a document: NN-p
// (class P) gives its text projection (package projection) and asks for
// the .bend JSON; NN-r (class R) gives the .bend and asks for its
// projection (answer format projection, parsed back before scoring).
// Both expect the document itself: no gold edit, so every difference is
// a loss. A P task's Source is the document shown as its projection (the
// bytes the model sees), its parsed form the document's. NN is the
// document's number (its name's first two characters), or its name less
// ".bend.json" when it has none.
func Produced(d *Document) ([]*Task, error) {
	shown, err := ShowProjection(d)
	if err != nil {
		return nil, err
	}
	nn := ProducedNumber(d.Name)
	// The prompt's templates say what to do (class-p.txt, class-r.txt);
	// the instruction holds the document's projection, so that the viewer
	// and harness show give it beside the diff of the answer.
	expected := string(shown.Bytes)
	return []*Task{
		{ID: nn + "-p", Class: ClassP, DocumentName: d.Name,
			Instruction: "Write the .bend JSON document of this projection (in a produce chain, step 2 is given the projection the model wrote at step 1 instead):\n\n" + expected,
			Covers:      []string{"produce: the .bend JSON of the document's projection"},
			Hash:        produceHash(ClassP, d.Hash, shown.Hash), Source: shown, Expected: d.Doc, Show: ShowProjection},
		{ID: nn + "-r", Class: ClassR, DocumentName: d.Name,
			Instruction: "Write the .bend document in the text projection; the projection expected:\n\n" + expected,
			Covers:      []string{"render: the projection of the .bend document"},
			Hash:        produceHash(ClassR, d.Hash, ""), Source: d, Expected: d.Doc, Format: projection.Format},
	}, nil
}

// ProducedNumber is a document's number in produce task ids: its name's
// first two characters when they are digits followed by '-', else its
// name less ".bend.json".
func ProducedNumber(name string) string {
	if len(name) > 3 && name[2] == '-' && strings.Trim(name[:2], "0123456789") == "" {
		return name[:2]
	}
	return strings.TrimSuffix(name, ".bend.json")
}

// ShowProjection is a document as a class P task shows it: its text
// projection (package projection) as the bytes, its parsed form kept.
func ShowProjection(d *Document) (*Document, error) {
	text, err := projection.Render(d.Doc)
	if err != nil {
		return nil, fmt.Errorf("%s: no projection: %w", d.Name, err)
	}
	return NewDocument(d.Name, []byte(text), d.Doc), nil
}

// ProducedChain returns the produce suite's chain of a document (--steps
// 2): step 1 is its class R task (the .bend given, its projection asked),
// step 2 its class P task, given the projection the model wrote at step
// 1 (relay chains hand it on; Show renders it again from what it parses
// to) and scored against the document itself: a round trip through text.
// stepID names step s of chain nn (relay.TaskID: NN-s01, NN-s02).
func ProducedChain(d *Document, stepID func(nn string, step int) string) ([]*Task, error) {
	ts, err := Produced(d)
	if err != nil {
		return nil, err
	}
	nn := ProducedNumber(d.Name)
	r, p := *ts[1], *ts[0]
	r.ID, r.Chain, r.Step = stepID(nn, 1), nn, 1
	p.ID, p.Chain, p.Step = stepID(nn, 2), nn, 2
	r.Covers = []string{"produce chain step 1: render the .bend as its projection"}
	p.Covers = []string{"produce chain step 2: the .bend JSON of the projection written at step 1, against the start"}
	r.Hash, p.Hash = produceHash("chain R", r.Hash, ""), produceHash("chain P", p.Hash, "")
	return []*Task{&r, &p}, nil
}

// produceHash is a produce task's hash: its class, its document's and
// what it shows.
func produceHash(class, doc, shown string) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "produce %s %s %s", class, doc, shown))
	return hex.EncodeToString(sum[:])
}

// producedFromFile is the produce task id ("p", "r", or in full, 17-r)
// of the .bend document in file, for score and expect.
func producedFromFile(file, id string) (*Task, error) {
	data, err := bend.ReadFile(file, nil)
	if err != nil {
		return nil, err
	}
	d, err := bend.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	ts, err := Produced(NewDocument(filepath.Base(file), data, d))
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if id != "" && (t.ID == id || strings.HasSuffix(t.ID, "-"+id)) {
			return t, nil
		}
	}
	return nil, fmt.Errorf("%s is a document: name its produce task with --id, %s (P: JSON from the projection) or %s (R: the projection)", file, ts[0].ID, ts[1].ID)
}
