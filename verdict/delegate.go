package verdict

// ReadyAt and ReadyMin are DELEGATE-52's readiness rule: a model is ready
// when its mean RS@20 is at least 0.98.
const (
	ReadyAt  = 20
	ReadyMin = 0.98
)

// CriticalLoss is the harness's own threshold of a critical round trip:
// one round trip that raises the chain's drift against the original by
// more than this (docs/interpretations.md, "A critical round trip").
const CriticalLoss = 0.05
