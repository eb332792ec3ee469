package task

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/formats"
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
	text, err := projection.Render(d.Doc)
	if err != nil {
		return nil, fmt.Errorf("%s: no projection: %w", d.Name, err)
	}
	nn := strings.TrimSuffix(d.Name, ".bend.json")
	if len(d.Name) > 3 && d.Name[2] == '-' && strings.Trim(d.Name[:2], "0123456789") == "" {
		nn = d.Name[:2]
	}
	shown := NewDocument(d.Name, []byte(text), d.Doc)
	return []*Task{
		{ID: nn + "-p", Class: ClassP, DocumentName: d.Name,
			Covers: []string{"produce: the .bend JSON of the document's projection"},
			Hash:   produceHash(ClassP, d.Hash, shown.Hash), Source: shown, Expected: d.Doc},
		{ID: nn + "-r", Class: ClassR, DocumentName: d.Name,
			Covers: []string{"render: the projection of the .bend document"},
			Hash:   produceHash(ClassR, d.Hash, ""), Source: d, Expected: d.Doc, Format: formats.Projection},
	}, nil
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
