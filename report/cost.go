package report

// NightCost is what a whole run cost, as its archive records it: every
// answer, feedback round and judge vote, every attempt that was asked
// again (its transcript kept as .superseded-N), and the costs GET
// /generation gave later for attempts whose transcript knew none
// (reconciled.json). It is the figure `harness runs` shows for the run:
// one function computes both (pipeline.NightCost).
type NightCost struct {
	// USD is the sum of every known cost: the parts below together.
	USD float64 `json:"usd"`
	// Unknown counts the calls whose cost is not known (a response that
	// reported none, a file that could not be read): USD leaves them out.
	Unknown int `json:"unknown"`
	// Answers, FeedbackRounds and JudgeVotes are the archived calls of
	// each kind; Superseded the attempts asked again whose response
	// reported a cost; Reconciled the attempts priced afterwards by GET
	// /generation.
	Answers        CostPart `json:"answers"`
	FeedbackRounds CostPart `json:"feedback_rounds"`
	JudgeVotes     CostPart `json:"judge_votes"`
	Superseded     CostPart `json:"superseded"`
	Reconciled     CostPart `json:"reconciled"`
	// Unresolved counts the attempts reconciled.json names that OpenRouter
	// has not priced yet (`harness runs --reconcile` asks again).
	Unresolved int `json:"unresolved,omitempty"`
	// BYOK is set when some call was served with the account's own
	// provider key (usage.is_byok): what OpenRouter charged and what the
	// providers charged, apart; absent otherwise.
	BYOK *BYOKCost `json:"byok,omitempty"`
}

// CostPart is one kind of call's share of a night's cost.
type CostPart struct {
	// Calls counts the calls (or attempts) of this kind.
	Calls int `json:"calls"`
	// USD sums their known costs.
	USD float64 `json:"usd"`
	// Unknown counts those whose cost is not known.
	Unknown int `json:"unknown,omitempty"`
}

// BYOKCost splits the known cost of a night some of whose calls used the
// account's own provider keys: OpenRouter bills its fee (usage.cost),
// the provider bills the inference to the user's key
// (cost_details.upstream_inference_cost). OpenRouterUSD + ProviderUSD is
// NightCost.USD.
type BYOKCost struct {
	// Calls counts the calls that were BYOK.
	Calls int `json:"calls"`
	// OpenRouterUSD is what OpenRouter charged for the night, its fee on
	// the BYOK calls and the whole cost of the others.
	OpenRouterUSD float64 `json:"openrouter_usd"`
	// ProviderUSD is what the providers charged to the user's own keys.
	ProviderUSD float64 `json:"provider_usd"`
}
