package offline

import (
	"fmt"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/task"
)

// RareSlip is the offline model that is exact at every step of a chain
// except for rare large slips at seeded steps (issue 48): at a slip it
// drops half the blocks of the chain's original document that it has not
// dropped yet, and it carries every slip it made on to the later steps of
// the chain (its answer at step s is the step's expected document less the
// blocks its slips at steps 1..s dropped). Outside a chain it answers as
// offline/oracle. So the decomposition's critical round trips are known in
// advance: exactly the round trips holding a slip (Slips).
const RareSlip = "offline/rare-slip"

// SlipRate is the chance that offline/rare-slip slips at a chain step.
const SlipRate = 0.05

// Slips returns the steps (1..steps) of a chain (its suite, chain and lane,
// task.Task's fields) at which offline/rare-slip slips with seed.
func Slips(seed int64, suite, chain, lane string, steps int) []int {
	var out []int
	for s := 1; s <= steps; s++ {
		if slipsAt(seed, suite, chain, lane, s) {
			out = append(out, s)
		}
	}
	return out
}

func slipsAt(seed int64, suite, chain, lane string, step int) bool {
	return newRand(seed, fmt.Sprintf("rare-slip/%s/%s/%s/%d", suite, chain, lane, step)).chance(SlipRate)
}

// slipped is t's expected document less the blocks rare-slip's slips at
// steps 1..t.Step dropped (t.Expected itself when none).
func (m *Model) slipped(t *task.Task, seed int64) *bend.Document {
	if t.Step == 0 {
		return t.Expected
	}
	original := m.original(t)
	if original == nil {
		return t.Expected
	}
	dropped := map[string]bool{}
	for s := 1; s <= t.Step; s++ {
		if !slipsAt(seed, t.Suite, t.Chain, t.Lane, s) {
			continue
		}
		var left []string
		for _, b := range original.Blocks[1:] { // the first block is never dropped
			if !dropped[b.ID] {
				left = append(left, b.ID)
			}
		}
		r := newRand(seed, fmt.Sprintf("rare-slip-blocks/%s/%s/%s/%d", t.Suite, t.Chain, t.Lane, s))
		r.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
		for _, id := range left[:(len(left)+1)/2] {
			dropped[id] = true
		}
	}
	if len(dropped) == 0 {
		return t.Expected
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
