package offline

import (
	"fmt"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/task"
)

// RareSlip is the offline model that is exact at every step of a chain
// except for one rare large slip at a seeded step (issue 48): at its slip
// it loses every block of the chain's original document but the first,
// and it carries the loss on to the later steps of the chain (its answer
// at step s is the step's expected document less those blocks). Outside a
// chain it answers as offline/oracle. So the decomposition's critical
// round trips are known in advance: exactly the round trips holding a
// slip (Slips). (In bend-ops its answers are the gold operations, which
// drop nothing: no slip shows there.)
const RareSlip = "offline/rare-slip"

// SlipRate is the chance that offline/rare-slip slips at a chain step,
// until it has slipped once.
const SlipRate = 0.05

// Slips returns the step (1..steps) of a chain (its suite, chain and lane,
// task.Task's fields) at which offline/rare-slip slips with seed: none or
// one.
func Slips(seed int64, suite, chain, lane string, steps int) []int {
	for s := 1; s <= steps; s++ {
		if newRand(seed, fmt.Sprintf("rare-slip/%s/%s/%s/%d", suite, chain, lane, s)).chance(SlipRate) {
			return []int{s}
		}
	}
	return nil
}

// slipped is t's expected document, less the original's blocks but the
// first from the chain's slip on (t.Expected itself before it).
func (m *Model) slipped(t *task.Task, seed int64) *bend.Document {
	if t.Step == 0 || len(Slips(seed, t.Suite, t.Chain, t.Lane, t.Step)) == 0 {
		return t.Expected
	}
	original := m.original(t)
	if original == nil || len(original.Blocks) < 2 {
		return t.Expected
	}
	dropped := map[string]bool{}
	for _, b := range original.Blocks[1:] {
		dropped[b.ID] = true
	}
	d := t.Expected.Clone()
	var kept []*bend.Block
	for _, b := range d.Blocks {
		if !dropped[b.ID] {
			kept = append(kept, b)
		}
	}
	d.Blocks = kept
	return d
}

// original is the document step 1 of t's chain was given: the chain's
// original.
func (m *Model) original(t *task.Task) *bend.Document {
	for _, x := range m.set.Tasks {
		if x.Step == 1 && x.Suite == t.Suite && x.Chain == t.Chain && x.Lane == t.Lane {
			return x.Source.Doc
		}
	}
	return nil
}
