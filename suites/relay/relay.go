// Package relay builds the relay suite: chains of edits on one document,
// each step given the document the model returned at the step before, so
// that drift that compounds over repeated editing shows.
//
// # Chains
//
// The chain of corpus document NN has K steps (DefaultSteps, 8). Its steps
// cycle through four edits: the document's class B task, its class C task,
// the inverse of C and the inverse of B (instructions/inverse/), so every
// fourth step undoes the three before it:
//
//	step s:   1   2   3    4    5   6   7    8   …
//	edit:     B   C   C⁻¹  B⁻¹  B   C   C⁻¹  B⁻¹
//
// The expected document of step s is the source with the gold edits of
// steps 1..s applied, so the expected documents of steps 4, 8, … are the
// source itself (the round-trip points), byte for byte. A document whose
// edits do not chain (C does not apply after B, or step 4 does not give
// the source back exactly) has no chain; Build says which, and why.
//
// # Tasks
//
// Step s of chain NN is task NN-sSS (01-s05), of the class of its edit,
// whose Source is the expected document of step s−1 (what an exact model
// would have been given), whose Expected is that of step s, and whose
// instruction and gold edit are the forward or inverse task's. What the
// model is actually given at step s is its own answer to step s−1 (the
// suite builds that request when step s−1 is archived); scoring compares
// its answer with the task's Expected, so a slip at step 2 that the model
// carries on is drift at every later step.
package relay

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/task"
)

// DefaultSteps is the number of steps of a chain.
const DefaultSteps = 8

// MaxSteps bounds a chain's length: step ids are NN-sSS, two digits that
// sort in step order, and every step of every chain is a task allocated
// when the suite is built, so an absurd --steps is refused first.
const MaxSteps = 99

// Edits names the four edits of a cycle, for reports.
var Edits = [4]string{"B", "C", "C⁻¹", "B⁻¹"}

// EditAt names the edit step s (1-based) asks for: Edits, cycled.
func EditAt(step int) string {
	if step < 1 {
		return ""
	}
	return Edits[(step-1)%len(Edits)]
}

// RoundTrip reports whether step s expects the source itself (the end of
// a cycle: steps 4, 8, …), so that its drift is the drift against the
// source.
func RoundTrip(step int) bool { return step > 0 && step%len(Edits) == 0 }

// Inverse reports whether step s undoes an earlier edit (C⁻¹, B⁻¹).
func Inverse(step int) bool { return step > 0 && (step-1)%len(Edits) >= 2 }

// TaskID is the id of step s (1-based) of the chain of document NN.
func TaskID(doc string, step int) string { return fmt.Sprintf("%s-s%02d", doc, step) }

// Build returns the relay suite's task set for chains of steps steps: one
// document per chain (the corpus document), one task per step. skipped
// says which documents have no chain and why.
func Build(corpus *task.Set, steps int) (set *task.Set, skipped []string, err error) {
	if steps < 1 || steps > MaxSteps {
		return nil, nil, fmt.Errorf("a chain takes 1 to %d steps, not %d", MaxSteps, steps)
	}
	inverse := map[string]*task.Task{}
	for _, t := range corpus.Inverse {
		inverse[t.ID] = t
	}
	set = &task.Set{}
	for _, d := range corpus.Documents {
		nn := d.Name[:2]
		b, c := corpus.Task(nn+"-b"), corpus.Task(nn+"-c")
		ib, ic := inverse[nn+"-b"], inverse[nn+"-c"]
		if b == nil || c == nil || ib == nil || ic == nil {
			skipped = append(skipped, fmt.Sprintf("%s: no class B and C tasks with inverses", d.Name))
			continue
		}
		cycle := []*task.Task{b, c, ic, ib}
		chain, why := build(d, nn, cycle, steps)
		if why != "" {
			skipped = append(skipped, fmt.Sprintf("%s: %s", d.Name, why))
			continue
		}
		set.Documents = append(set.Documents, d)
		set.Tasks = append(set.Tasks, chain...)
	}
	slices.SortFunc(set.Tasks, func(a, b *task.Task) int { return strings.Compare(a.ID, b.ID) })
	return set, skipped, nil
}

// build makes one chain's tasks, or says why the document has none.
func build(d *task.Document, nn string, cycle []*task.Task, steps int) ([]*task.Task, string) {
	var out []*task.Task
	prev := d.Doc
	for s := 1; s <= steps; s++ {
		from := cycle[(s-1)%4]
		next, err := edit.Apply(prev, from.GoldEdit)
		if err != nil {
			return nil, fmt.Sprintf("step %d (%s of %s) does not apply: %v", s, Edits[(s-1)%4], from.ID, err)
		}
		if s%4 == 0 && !bytes.Equal(bend.Marshal(next), bend.Marshal(d.Doc)) {
			return nil, fmt.Sprintf("step %d does not give the source back exactly", s)
		}
		src := d
		if s > 1 {
			src = task.Marshalled(d.Name, prev)
		}
		h := sha256.New()
		fmt.Fprintf(h, "relay %s step %d of %s: %s\n", nn, s, Edits[(s-1)%4], from.Hash)
		out = append(out, &task.Task{
			ID: TaskID(nn, s), Class: from.Class, DocumentName: d.Name,
			Covers:      append([]string{fmt.Sprintf("relay step %d: %s (%s)", s, Edits[(s-1)%4], from.ID)}, from.Covers...),
			Instruction: from.Instruction, GoldEdit: from.GoldEdit,
			Hash:   hex.EncodeToString(h.Sum(nil)),
			Source: src, Expected: next, Step: s, Chain: nn,
		})
		prev = next
	}
	return out, ""
}
