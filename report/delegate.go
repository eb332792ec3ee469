package report

import (
	"cmp"
	"math"
	"slices"

	"bendscript.com/round-trip-harness/metric"
	"bendscript.com/round-trip-harness/scoring"
	"bendscript.com/round-trip-harness/stats"
	"bendscript.com/round-trip-harness/suites"
)

// SimilarityNote says what RS@k is here, wherever it shows.
const SimilarityNote = "RS@k = 1 − the §8.4 drift of the model's document after k interactions against the original: the harness's similarity, not DELEGATE-52's per-domain functions."

// ReadyAt and ReadyMin are DELEGATE-52's readiness rule: a model is ready
// when its mean RS@20 is at least 0.98.
const (
	ReadyAt  = 20
	ReadyMin = 0.98
)

// CriticalLoss is the harness's own threshold of a critical round trip:
// one round trip that raises the chain's drift against the original by
// more than this (docs/interpretations.md, "Critical steps").
const CriticalLoss = 0.05

// Delegation is a delegate section's reconstruction scores, per model and
// answer format (the editing surface), and where the loss comes from.
type Delegation struct {
	// Note is SimilarityNote.
	Note string `json:"note"`
	// Ks are the interactions RS@k is given at: 2, 4, 10, 20 and the
	// horizon, those the chains reach.
	Ks []int `json:"ks"`
	// Horizon is the chains' length in interactions.
	Horizon int `json:"horizon"`
	// CriticalLoss is the threshold of a critical round trip.
	CriticalLoss float64           `json:"critical_loss"`
	Surfaces     []DelegateSurface `json:"surfaces"`
	// Critical lists the critical round trips of every chain, largest
	// loss first.
	Critical []CriticalStep `json:"critical,omitempty"`
	// Chains are every chain's round trips, for the JSON report: the rise
	// of each round trip in drift against the original (they sum to the
	// chain's drift at the horizon) and that drift split into components.
	Chains []DelegateChain `json:"chains,omitempty"`
}

// DelegateChain is one chain's loss, round trip by round trip.
type DelegateChain struct {
	Model  string `json:"model"`
	Format string `json:"format"`
	Chain  string `json:"chain"`
	// Rung is the size-ladder rung the chain ran on (--rungs), "" for a
	// corpus document's chain.
	Rung   string `json:"rung,omitempty"`
	Repeat int    `json:"repeat"`
	// Rises are, per round trip in order, its rise in drift against the
	// original (negative when it won some back); only round trips scored
	// up to the first that is not.
	Rises []float64 `json:"rises"`
	// Loss is the drift at the horizon split into components; nil when the
	// last step is not scored.
	Loss *Loss `json:"loss,omitempty"`
	// Delta is what the chain's document at the horizon deleted, corrupted
	// and added against the original (metric.DeltaOf); nil when its last
	// answer held no document.
	Delta *metric.Delta `json:"delta,omitempty"`
}

// DelegateSurface is one model's chains in one answer format, and on one
// rung of the size ladder when the run has rungs (--rungs).
type DelegateSurface struct {
	Model  string `json:"model"`
	Format string `json:"format"`
	// Rung is the rung its chains ran on ("" for corpus documents): with
	// rungs, each rung is a row of its own, since the ladder is run to
	// tell sizes apart (docs/interpretations.md, issue 48).
	Rung string `json:"rung,omitempty"`
	// Documents is how many documents' chains it has.
	Documents int `json:"documents"`
	// RS is RS@k at each of Delegation.Ks.
	RS []RSAt `json:"rs"`
	// Ready is whether mean RS@20 ≥ 0.98 (nil when the chains are shorter
	// than 20 interactions or none reached step 20).
	Ready *bool `json:"ready,omitempty"`
	// Loss is the mean over chains of the loss at the horizon split into
	// the §8.4 components (each wᵢ·cᵢ/Σw), which sum to the mean drift.
	Loss *Loss `json:"loss,omitempty"`
	// Delta sums the chains' Delta at the horizon, over DeltaChains chains.
	Delta       *metric.Delta `json:"delta,omitempty"`
	DeltaChains int           `json:"delta_chains,omitempty"`
	// CriticalShare is the share of the chains' total loss at the horizon
	// that their critical round trips carry (nil when there is no loss).
	CriticalShare *float64 `json:"critical_share,omitempty"`
}

// RSAt is RS@k over the documents of one surface: per document the mean
// over its repeats, then the mean over documents with a Student-t 95%
// interval, and the share of chains lossless at k with its exact
// (Clopper–Pearson) 95% interval.
type RSAt struct {
	K         int     `json:"k"`
	Documents int     `json:"documents"`
	Mean      float64 `json:"mean"`
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	Chains    int     `json:"chains"`
	Lossless  int     `json:"lossless"`
	// LosslessLow and LosslessHigh bound the lossless share.
	LosslessLow  float64 `json:"lossless_low"`
	LosslessHigh float64 `json:"lossless_high"`
}

// Loss is drift split into the weighted §8.4 components.
type Loss struct {
	Drift               float64 `json:"drift"`
	BlockStructure      float64 `json:"block_structure"`
	EdgePreservation    float64 `json:"edge_preservation"`
	SpanCoverage        float64 `json:"span_coverage"`
	MarkFidelity        float64 `json:"mark_fidelity"`
	VocabularyIntegrity float64 `json:"vocabulary_integrity"`
}

// CriticalStep is one round trip that raised its chain's drift against
// the original by more than CriticalLoss.
type CriticalStep struct {
	Model  string `json:"model"`
	Format string `json:"format"`
	Chain  string `json:"chain"`
	Repeat int    `json:"repeat"`
	// Step is the round trip's last interaction (even); its forward edit
	// is Step−1.
	Step int `json:"step"`
	// Loss is the rise in drift against the original over the round trip;
	// Share its part of the chain's drift at the horizon (0 while the
	// chain's last step is not scored).
	Loss  float64 `json:"loss"`
	Share float64 `json:"share"`
	// TaskIDs and Transcripts are the round trip's forward and backward
	// steps.
	TaskIDs     [2]string `json:"task_ids"`
	Transcripts [2]string `json:"transcripts"`
	// Delta is the chain's delta against the original at the round
	// trip's end, and Before at the end of the round trip before it (nil
	// at the first): what the round trip lost is their difference.
	Delta  *metric.Delta `json:"delta,omitempty"`
	Before *metric.Delta `json:"before,omitempty"`
}

// LossOf splits a scored answer's drift into its weighted components.
func LossOf(r *metric.Result) Loss {
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
	return Loss{Drift: r.Drift, BlockStructure: part(0), EdgePreservation: part(1), SpanCoverage: part(2), MarkFidelity: part(3), VocabularyIntegrity: part(4)}
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
func (b *builder) delegation(part string) *Delegation {
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
	out := &Delegation{Note: SimilarityNote, Ks: Ks(horizon), Horizon: horizon, CriticalLoss: CriticalLoss}
	type surfaceKey [3]string // model, format, rung
	surfaces := map[surfaceKey]*DelegateSurface{}
	perDoc := map[surfaceKey]map[int]map[string][]float64{} // k → document → RS per repeat
	lossless := map[surfaceKey]map[int][2]int{}             // k → lossless, chains
	losses := map[surfaceKey][]Loss{}
	deltas, deltaChains := map[surfaceKey]*metric.Delta{}, map[surfaceKey]int{}
	total, critical := map[surfaceKey]float64{}, map[surfaceKey]float64{}
	var keys []surfaceKey
	for _, c := range order {
		k := surfaceKey{c.model, c.format, c.rung}
		if surfaces[k] == nil {
			surfaces[k] = &DelegateSurface{Model: c.model, Format: c.format, Rung: c.rung}
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
		ch := DelegateChain{Model: c.model, Format: c.format, Chain: c.doc, Rung: c.rung, Repeat: c.repeat, Rises: []float64{}}
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
			if rise := d - prev; rise > CriticalLoss {
				cs := CriticalStep{Model: c.model, Format: c.format, Chain: c.doc, Repeat: c.repeat, Step: st, Loss: rise}
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
			m, lo, hi := MeanInterval(means)
			n := lossless[k][kk]
			bound := stats.ShareBound(n[0], n[1], 0.95)
			sf.RS = append(sf.RS, RSAt{K: kk, Documents: len(means), Mean: m, Low: lo, High: hi,
				Chains: n[1], Lossless: n[0], LosslessLow: bound.Low, LosslessHigh: bound.High})
			if kk == ReadyAt {
				sf.Ready = ptr(m >= ReadyMin)
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
	slices.SortStableFunc(out.Critical, func(x, y CriticalStep) int {
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
func meanLoss(ls []Loss) *Loss {
	var out Loss
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

// MeanInterval is the mean of xs with its two-sided Student-t 95%
// interval (mean ± t₀.₉₇₅,ₙ₋₁·s/√n), clipped to [0, 1]; a single value is
// its own interval.
func MeanInterval(xs []float64) (mean, low, high float64) {
	mean = stats.Mean(xs)
	n := len(xs)
	if n < 2 {
		return mean, mean, mean
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := tQuantile975(n-1) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
	return mean, max(0, mean-half), min(1, mean+half)
}

// tTable is Student's t at 0.975 for 1 to 30 degrees of freedom.
var tTable = [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}

// tQuantile975 is Student's t at 0.975 for df degrees of freedom: the
// table to 30, then the Cornish–Fisher expansion about the normal's
// 1.95996 (within 0.001 of the exact value beyond 30).
func tQuantile975(df int) float64 {
	if df <= len(tTable) {
		return tTable[df-1]
	}
	const z = 1.959964
	v := float64(df)
	return z + (z*z*z+z)/(4*v) + (5*math.Pow(z, 5)+16*z*z*z+3*z)/(96*v*v)
}
