package aggregate

import (
	"cmp"
	"maps"
	"slices"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/report"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
	"bendscript.com/round-trip-harness/verdict"
)

// SimilarityNote says what RS@k is here, wherever it shows.
const SimilarityNote = "RS@k = 1 − the §8.4 drift of the model's document after k interactions against the original: the harness's similarity, not DELEGATE-52's per-domain functions."

// LossOf splits a scored answer's drift into its weighted components.
func LossOf(r *metric.Result) report.Loss {
	c, w := r.Components.List(), r.Weights.List()
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	part := func(i int) float64 {
		if sum == 0 {
			return 0
		}
		return float64(w[i]*c[i]) / sum
	}
	return report.Loss{Drift: r.Drift, BlockStructure: part(0), EdgePreservation: part(1), SpanCoverage: part(2), MarkFidelity: part(3), VocabularyIntegrity: part(4)}
}

// Ks returns the interactions RS@k is given at for chains of horizon
// interactions.
func Ks(horizon int) []int {
	var out []int
	for _, k := range []int{2, 4, 10, 20, horizon} {
		if k <= horizon && k > 0 && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// delegation computes a delegate section's Delegation from the part's
// scores. A step with no score (an unfinished run) leaves its chain out
// of RS at that k; a step not run after a chain ended counts as drift 1
// (scoring.EndChains), as the relay's do.
func (b *builder) delegation(part string) *report.Delegation {
	steps, order, horizon := b.chainSteps(part)
	if horizon == 0 {
		return nil
	}
	out := &report.Delegation{Note: SimilarityNote, Ks: Ks(horizon), Horizon: horizon, CriticalLoss: verdict.CriticalLoss}
	surfaces := map[surfaceKey]*surfaceSum{}
	var keys []surfaceKey
	for _, c := range order {
		k := surfaceKey{c.model, c.format, c.rung}
		if surfaces[k] == nil {
			surfaces[k] = newSurfaceSum(k)
			keys = append(keys, k)
		}
		ch, critical := surfaces[k].add(c, steps[c], out.Ks, horizon)
		out.Chains = append(out.Chains, ch)
		out.Critical = append(out.Critical, critical...)
	}
	slices.SortStableFunc(keys, func(x, y surfaceKey) int {
		return cmp.Or(cmp.Compare(b.modelIndex[x.model], b.modelIndex[y.model]), cmp.Compare(b.formatIndex[x.format], b.formatIndex[y.format]), suites.RungLess(x.rung, y.rung))
	})
	for _, k := range keys {
		out.Surfaces = append(out.Surfaces, surfaces[k].finish(out.Ks))
	}
	slices.SortStableFunc(out.Critical, func(x, y report.CriticalStep) int {
		return cmp.Or(cmp.Compare(y.Loss, x.Loss), cmp.Compare(b.modelIndex[x.Model], b.modelIndex[y.Model]),
			cmp.Compare(b.formatIndex[x.Format], b.formatIndex[y.Format]), cmp.Compare(x.Chain, y.Chain),
			cmp.Compare(x.Repeat, y.Repeat), cmp.Compare(x.Step, y.Step))
	})
	return out
}

// chainKey is one chain: a model's repeat of one document's round trips
// in one answer format (and on one rung).
type chainKey struct {
	model, format, doc, rung string
	repeat                   int
}

// surfaceKey is one surface: a model's chains in one answer format, on
// one rung.
type surfaceKey struct{ model, format, rung string }

// chainSteps gathers a delegate part's scored steps by chain, the chains
// in the scores' order, and the horizon: the longest chain's last step
// (the task set's, when the run has it, so that an unfinished run keeps
// its length), rounded down to a whole round trip; 0 for none.
func (b *builder) chainSteps(part string) (map[chainKey]map[int]*scoring.Score, []chainKey, int) {
	steps := map[chainKey]map[int]*scoring.Score{}
	var order []chainKey
	horizon := 0
	for i := range b.scores {
		s := &b.scores[i]
		if s.Step == 0 || b.partOf(s) != part {
			continue
		}
		c := chainKey{s.Model, formatName(s), s.Chain, s.Rung, s.Repeat}
		if steps[c] == nil {
			steps[c] = map[int]*scoring.Score{}
			order = append(order, c)
		}
		steps[c][s.Step] = s
		horizon = max(horizon, s.Step)
	}
	if t := b.set; t != nil {
		for _, x := range t.Tasks {
			if x.Suite == part {
				horizon = max(horizon, x.Step)
			}
		}
	}
	return steps, order, horizon - horizon%2
}

// surfaceSum accumulates one surface's chains (add) into its
// report.DelegateSurface (finish).
type surfaceSum struct {
	out report.DelegateSurface
	// rs holds, per k, each document's RS per repeat; lossless and
	// chains count, per k, the chains scored there and those lossless.
	rs               map[int]map[string][]float64
	lossless, chains map[int]int
	// losses are the chains' losses at the horizon; delta sums their
	// deltas over deltaChains chains.
	losses      []report.Loss
	delta       *metric.Delta
	deltaChains int
	// total is the chains' drift at the horizon, critical the part of it
	// their critical round trips carry.
	total, critical float64
}

// newSurfaceSum is an empty sum for the surface k.
func newSurfaceSum(k surfaceKey) *surfaceSum {
	return &surfaceSum{out: report.DelegateSurface{Model: k.model, Format: k.format, Rung: k.rung},
		rs: map[int]map[string][]float64{}, lossless: map[int]int{}, chains: map[int]int{}}
}

// add counts one chain, its steps by number, at each of ks; it returns
// the chain's report row and its critical round trips.
func (s *surfaceSum) add(c chainKey, at map[int]*scoring.Score, ks []int, horizon int) (report.DelegateChain, []report.CriticalStep) {
	for _, k := range ks {
		d, ok := driftOf(at[k])
		if !ok {
			continue
		}
		if s.rs[k] == nil {
			s.rs[k] = map[string][]float64{}
		}
		s.rs[k][c.doc] = append(s.rs[k][c.doc], 1-d)
		s.chains[k]++
		if at[k].Metric.Lossless {
			s.lossless[k]++
		}
	}
	ch := report.DelegateChain{Model: c.model, Format: c.format, Chain: c.doc, Rung: c.rung, Repeat: c.repeat}
	end, ok := driftOf(at[horizon])
	if ok {
		l := LossOf(at[horizon].Metric)
		ch.Loss = &l
		s.losses = append(s.losses, l)
		s.total += end
	}
	if dl := at[horizon].Delta; ok && dl != nil {
		ch.Delta = dl
		sum := metric.Delta{}
		if s.delta != nil {
			sum = *s.delta
		}
		sum.Deleted, sum.Corrupted, sum.Added = sum.Deleted.Add(dl.Deleted), sum.Corrupted.Add(dl.Corrupted), sum.Added.Add(dl.Added)
		s.delta, s.deltaChains = &sum, s.deltaChains+1
	}
	var critical []report.CriticalStep
	ch.Rises, critical = roundTrips(c, at, horizon)
	if ok && end > 0 {
		for i := range critical {
			critical[i].Share = critical[i].Loss / end
			s.critical += critical[i].Loss
		}
	}
	return ch, critical
}

// roundTrips are a chain's rises in drift against the original, round
// trip by round trip up to the first not scored, and its critical round
// trips: those whose rise is over verdict.CriticalLoss (their Share left
// to the caller, who knows the chain's drift at the horizon).
func roundTrips(c chainKey, at map[int]*scoring.Score, horizon int) ([]float64, []report.CriticalStep) {
	rises := []float64{}
	var critical []report.CriticalStep
	prev := 0.0
	for st := 2; st <= horizon; st += 2 {
		d, scored := driftOf(at[st])
		if !scored {
			break
		}
		rise := d - prev
		rises = append(rises, rise)
		prev = d
		if rise <= verdict.CriticalLoss {
			continue
		}
		cs := report.CriticalStep{Model: c.model, Format: c.format, Chain: c.doc, Repeat: c.repeat, Step: st, Loss: rise, Delta: at[st].Delta}
		for i, s := range []*scoring.Score{at[st-1], at[st]} {
			if s != nil {
				cs.TaskIDs[i], cs.Transcripts[i] = s.TaskID, s.Transcript
			}
		}
		if st > 2 && at[st-2] != nil {
			cs.Before = at[st-2].Delta
		}
		critical = append(critical, cs)
	}
	return rises, critical
}

// finish is the surface's report row: RS@k at each of ks it has chains
// at, the mean loss, the summed delta and the critical share.
func (s *surfaceSum) finish(ks []int) report.DelegateSurface {
	sf := s.out
	docs := map[string]bool{}
	for _, k := range ks {
		var means []float64
		for _, doc := range slices.Sorted(maps.Keys(s.rs[k])) {
			means = append(means, stats.Mean(s.rs[k][doc]))
			docs[doc] = true
		}
		if len(means) == 0 {
			continue
		}
		m, lo, hi := stats.MeanInterval(means)
		bound := stats.ShareBound(s.lossless[k], s.chains[k], 0.95)
		sf.RS = append(sf.RS, report.RSAt{K: k, Documents: len(means), Mean: m, Low: lo, High: hi,
			Chains: s.chains[k], Lossless: s.lossless[k], LosslessLow: bound.Low, LosslessHigh: bound.High})
		if k == verdict.ReadyAt {
			sf.Ready = ptr(m >= verdict.ReadyMin)
		}
	}
	sf.Documents = len(docs)
	if len(s.losses) > 0 {
		sf.Loss = meanLoss(s.losses)
	}
	sf.Delta, sf.DeltaChains = s.delta, s.deltaChains
	if s.total > 0 {
		sf.CriticalShare = ptr(s.critical / s.total)
	}
	return sf
}

// driftOf is a scored step's drift (false for a step not scored).
func driftOf(s *scoring.Score) (float64, bool) {
	if s == nil || s.Metric == nil {
		return 0, false
	}
	return s.Drift()
}

// meanLoss is the component-wise mean of ls.
func meanLoss(ls []report.Loss) *report.Loss {
	var out report.Loss
	for _, l := range ls {
		out.Drift += l.Drift
		out.BlockStructure += l.BlockStructure
		out.EdgePreservation += l.EdgePreservation
		out.SpanCoverage += l.SpanCoverage
		out.MarkFidelity += l.MarkFidelity
		out.VocabularyIntegrity += l.VocabularyIntegrity
	}
	n := float64(len(ls))
	out.Drift /= n
	out.BlockStructure /= n
	out.EdgePreservation /= n
	out.SpanCoverage /= n
	out.MarkFidelity /= n
	out.VocabularyIntegrity /= n
	return &out
}
