package ladder

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/task"
)

// TaskSet turns rungs into a task set, so that the size suite runs, scores
// and resumes through the same pipeline as the corpus: each rung is a
// document (named by its file, e.g. "8k.bend.json"), each placed edit a
// task whose id is the placed task's ("8k-start-02-b"), whose source is
// the rung and whose expected document is the rung with the edit applied.
// A task's hash covers its id, instruction and gold edit; the set's hash
// (Set.Hash) therefore changes whenever the ladder does.
func TaskSet(rungs []*Rung) (*task.Set, error) {
	s := &task.Set{}
	for _, r := range rungs {
		doc := task.NewDocument(r.File(), r.Bytes, r.Doc)
		s.Documents = append(s.Documents, doc)
		for _, t := range r.Tasks {
			h := sha256.New()
			fmt.Fprintf(h, "%s\n%s\n", t.ID, t.Instruction)
			for _, op := range t.GoldEdit {
				h.Write(bend.MarshalValue(op.Value()))
			}
			s.Tasks = append(s.Tasks, &task.Task{
				ID: t.ID, Class: t.Source.Class, DocumentName: doc.Name,
				Covers:      slices.Clone(t.Source.Covers),
				Instruction: t.Instruction, GoldEdit: t.GoldEdit,
				Hash:   hex.EncodeToString(h.Sum(nil)),
				Source: doc, Expected: t.Expected, Rung: r.Name, Position: t.Position,
			})
		}
	}
	slices.SortFunc(s.Documents, func(a, b *task.Document) int { return strings.Compare(a.Name, b.Name) })
	slices.SortFunc(s.Tasks, func(a, b *task.Task) int { return strings.Compare(a.ID, b.ID) })
	return s, nil
}
