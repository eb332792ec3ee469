package aggregate

import (
	"cmp"
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
	type chain struct {
		model, format, doc, rung string
		repeat                   int
	}
	steps := map[chain]map[int]*scoring.Score{}
	var order []chain
	horizon := 0
	for i := range b.scores {
		s := &b.scores[i]
		if s.Step == 0 || b.partOf(s) != part {
			continue
		}
		c := chain{s.Model, formatName(s), s.Chain, s.Rung, s.Repeat}
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
	horizon -= horizon % 2
	if horizon == 0 {
		return nil
	}
	out := &report.Delegation{Note: SimilarityNote, Ks: Ks(horizon), Horizon: horizon, CriticalLoss: verdict.CriticalLoss}
	type surfaceKey [3]string // model, format, rung
	surfaces := map[surfaceKey]*report.DelegateSurface{}
	perDoc := map[surfaceKey]map[int]map[string][]float64{} // k → document → RS per repeat
	lossless := map[surfaceKey]map[int][2]int{}             // k → lossless, chains
	losses := map[surfaceKey][]report.Loss{}
	deltas, deltaChains := map[surfaceKey]*metric.Delta{}, map[surfaceKey]int{}
	total, critical := map[surfaceKey]float64{}, map[surfaceKey]float64{}
	var keys []surfaceKey
	for _, c := range order {
		k := surfaceKey{c.model, c.format, c.rung}
		if surfaces[k] == nil {
			surfaces[k] = &report.DelegateSurface{Model: c.model, Format: c.format, Rung: c.rung}
			perDoc[k], lossless[k] = map[int]map[string][]float64{}, map[int][2]int{}
			keys = append(keys, k)
		}
		at := steps[c]
		for _, kk := range out.Ks {
			s := at[kk]
			d, ok := driftOf(s)
			if !ok {
				continue
			}
			if perDoc[k][kk] == nil {
				perDoc[k][kk] = map[string][]float64{}
			}
			perDoc[k][kk][c.doc] = append(perDoc[k][kk][c.doc], 1-d)
			n := lossless[k][kk]
			n[1]++
			if s.Metric.Lossless {
				n[0]++
			}
			lossless[k][kk] = n
		}
		ch := report.DelegateChain{Model: c.model, Format: c.format, Chain: c.doc, Rung: c.rung, Repeat: c.repeat, Rises: []float64{}}
		end, ok := driftOf(at[horizon])
		if ok {
			l := LossOf(at[horizon].Metric)
			ch.Loss = &l
			losses[k] = append(losses[k], l)
			total[k] += end
		}
		if dl := at[horizon].Delta; ok && dl != nil {
			ch.Delta = dl
			sum := metric.Delta{}
			if p := deltas[k]; p != nil {
				sum = *p
			}
			sum.Deleted, sum.Corrupted, sum.Added = sum.Deleted.Add(dl.Deleted), sum.Corrupted.Add(dl.Corrupted), sum.Added.Add(dl.Added)
			deltas[k], deltaChains[k] = &sum, deltaChains[k]+1
		}
		prev := 0.0
		for st := 2; st <= horizon; st += 2 {
			d, scored := driftOf(at[st])
			if !scored {
				break
			}
			ch.Rises = append(ch.Rises, d-prev)
			if rise := d - prev; rise > verdict.CriticalLoss {
				cs := report.CriticalStep{Model: c.model, Format: c.format, Chain: c.doc, Repeat: c.repeat, Step: st, Loss: rise}
				if ok && end > 0 {
					cs.Share = rise / end
					critical[k] += rise
				}
				for i, s := range []*scoring.Score{at[st-1], at[st]} {
					if s != nil {
						cs.TaskIDs[i], cs.Transcripts[i] = s.TaskID, s.Transcript
					}
				}
				cs.Delta = at[st].Delta
				if st > 2 && at[st-2] != nil {
					cs.Before = at[st-2].Delta
				}
				out.Critical = append(out.Critical, cs)
			}
			prev = d
		}
		out.Chains = append(out.Chains, ch)
	}
	slices.SortStableFunc(keys, func(x, y surfaceKey) int {
		return cmp.Or(cmp.Compare(b.modelIndex[x[0]], b.modelIndex[y[0]]), cmp.Compare(b.formatIndex[x[1]], b.formatIndex[y[1]]), suites.RungLess(x[2], y[2]))
	})
	for _, k := range keys {
		sf := surfaces[k]
		docs := map[string]bool{}
		for _, kk := range out.Ks {
			var means []float64
			for _, doc := range slices.Sorted(mapKeys(perDoc[k][kk])) {
				means = append(means, stats.Mean(perDoc[k][kk][doc]))
				docs[doc] = true
			}
			if len(means) == 0 {
				continue
			}
			m, lo, hi := stats.MeanInterval(means)
			n := lossless[k][kk]
			bound := stats.ShareBound(n[0], n[1], 0.95)
			sf.RS = append(sf.RS, report.RSAt{K: kk, Documents: len(means), Mean: m, Low: lo, High: hi,
				Chains: n[1], Lossless: n[0], LosslessLow: bound.Low, LosslessHigh: bound.High})
			if kk == verdict.ReadyAt {
				sf.Ready = ptr(m >= verdict.ReadyMin)
			}
		}
		sf.Documents = len(docs)
		if ls := losses[k]; len(ls) > 0 {
			sf.Loss = meanLoss(ls)
		}
		sf.Delta, sf.DeltaChains = deltas[k], deltaChains[k]
		if total[k] > 0 {
			sf.CriticalShare = ptr(critical[k] / total[k])
		}
		out.Surfaces = append(out.Surfaces, *sf)
	}
	slices.SortStableFunc(out.Critical, func(x, y report.CriticalStep) int {
		return cmp.Or(cmp.Compare(y.Loss, x.Loss), cmp.Compare(b.modelIndex[x.Model], b.modelIndex[y.Model]),
			cmp.Compare(b.formatIndex[x.Format], b.formatIndex[y.Format]), cmp.Compare(x.Chain, y.Chain),
			cmp.Compare(x.Repeat, y.Repeat), cmp.Compare(x.Step, y.Step))
	})
	return out
}

// driftOf is a scored step's drift (false for a step not scored).
func driftOf(s *scoring.Score) (float64, bool) {
	if s == nil || s.Metric == nil {
		return 0, false
	}
	return s.Drift()
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
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
