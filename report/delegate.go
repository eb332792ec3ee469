package report

import (
	"bendscript.com/round-trip-harness/metric"
)

// Delegation is a delegate section's reconstruction scores, per model and
// answer format (the editing surface), and where the loss comes from.
type Delegation struct {
	// Note says what RS@k is here (aggregate.SimilarityNote).
	Note string `json:"note"`
	// Ks are the interactions RS@k is given at: 2, 4, 10, 20 and the
	// horizon, those the chains reach.
	Ks []int `json:"ks"`
	// Horizon is the chains' length in interactions.
	Horizon int `json:"horizon"`
	// CriticalLoss is the threshold of a critical round trip
	// (verdict.CriticalLoss).
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
// the original by more than Delegation.CriticalLoss.
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
