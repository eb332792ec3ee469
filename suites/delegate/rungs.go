package delegate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/suites/ladder"
	"bendscript.com/round-trip-harness/task"
)

// BuildRungs returns the delegate suite's chains on the size ladder's
// rungs (--rungs): one chain per rung, its document the rung's, its pool
// every pair of the documents composed into it that has a place in a rung
// (ladder.Transplant), on the first copy of each document, and whose
// backward edit still gives the rung back byte for byte. The chain of rung
// 32k is chain "32k", its steps 32k-d001, …, each task's Rung the rung's
// name. corpus must hold the pools (or their directory, as Build).
func BuildRungs(corpus *task.Set, rungs []*ladder.Rung, roundTrips int, seed int64, recorded []string) (*task.Set, error) {
	if roundTrips < 1 || roundTrips > MaxRoundTrips {
		return nil, fmt.Errorf("a chain takes 1 to %d round trips, not %d", MaxRoundTrips, roundTrips)
	}
	pooled, err := pools(corpus)
	if err != nil {
		return nil, err
	}
	set := &task.Set{}
	for _, r := range rungs {
		doc := task.Marshalled(r.File(), r.Doc)
		var pool []*task.Pair
		seen := map[string]bool{}
		for _, c := range r.Copies {
			if seen[c.Document] {
				continue
			}
			seen[c.Document] = true
			for _, p := range pooled.PoolOf(c.Document) {
				if q := onRung(p, doc, c.Name); q != nil {
					pool = append(pool, q)
				}
			}
		}
		if len(pool) < task.MinPairs {
			set.Skipped = append(set.Skipped, fmt.Sprintf("%s: %d reversible edits have a place in the rung, want at least %d", r.Name, len(pool), task.MinPairs))
			continue
		}
		order := Order(pool, roundTrips, seed, r.File())
		ids := make([]string, len(order))
		for i, p := range order {
			ids[i] = p.ID
			for _, t := range []*task.Task{step(r.Name, 2*i+1, p, p.Forward, "forward"), step(r.Name, 2*i+2, p, p.Backward, "backward")} {
				t.Rung = r.Name
				set.Tasks = append(set.Tasks, t)
			}
		}
		set.Documents = append(set.Documents, doc)
		set.Order = append(set.Order, r.Name+": "+strings.Join(ids, " "))
	}
	if len(recorded) > 0 && !slices.Equal(recorded, set.Order) {
		return nil, fmt.Errorf("the delegate order drawn now differs from the run's recorded order (a changed pool or seed): %s", firstDiff(recorded, set.Order))
	}
	slices.SortFunc(set.Tasks, func(a, b *task.Task) int { return strings.Compare(a.ID, b.ID) })
	return set, nil
}

// pools is corpus with its pools loaded (Build's rule).
func pools(corpus *task.Set) (*task.Set, error) {
	pairs := corpus.Pairs
	if pairs == nil && corpus.PoolFS != nil {
		var probs []task.Problem
		pairs, probs = task.LoadPool(corpus, corpus.PoolFS)
		if len(probs) > 0 {
			return nil, fmt.Errorf("the pools of reversible edits have problems (run harness corpus check): %v", probs[0])
		}
	}
	return &task.Set{Documents: corpus.Documents, Pairs: pairs}, nil
}

// onRung is pair p on copy name of the rung document doc, or nil when it
// has no place there or does not give the rung back exactly.
func onRung(p *task.Pair, doc *task.Document, name string) *task.Pair {
	fi, fops, err := ladder.Transplant(p.Forward, name)
	if err != nil {
		return nil
	}
	bi, bops, err := ladder.Transplant(p.Backward, name)
	if err != nil {
		return nil
	}
	fexp, err := edit.Apply(doc.Doc, fops)
	if err != nil {
		return nil
	}
	back, err := edit.Apply(fexp, bops)
	if err != nil || !bytes.Equal(bend.Marshal(back), doc.Bytes) || bytes.Equal(bend.Marshal(fexp), doc.Bytes) {
		return nil
	}
	hash := func(side *task.Task) string {
		sum := sha256.Sum256(fmt.Appendf(nil, "%s on %s of %s", side.Hash, name, doc.Hash))
		return hex.EncodeToString(sum[:])
	}
	q := *p
	q.ID = name + "/" + p.ID
	f, b := *p.Forward, *p.Backward
	f.Source, f.Instruction, f.GoldEdit, f.Expected, f.DocumentName, f.Hash = doc, fi, fops, fexp, doc.Name, hash(p.Forward)
	b.Source, b.Instruction, b.GoldEdit, b.Expected, b.DocumentName, b.Hash = task.Marshalled(doc.Name, fexp), bi, bops, back, doc.Name, hash(p.Backward)
	f.Forward, b.Forward = nil, nil
	q.Forward, q.Backward = &f, &b
	return &q
}
