package report

// Warning is one finding that qualifies the verdict without deciding it,
// as data: its kind and what the kind is about. render words each kind
// (its warnings table) and prints them as footnotes; the report holds no
// sentence of them.
type Warning struct {
	// Kind is one of the Warn constants.
	Kind string `json:"kind"`
	// Model and Class are whom it is about, when it is about one.
	Model string `json:"model,omitempty"`
	Class string `json:"class,omitempty"`
	// N and Of are its count and, when it has one, what the count is of.
	N  int `json:"n,omitempty"`
	Of int `json:"of,omitempty"`
	// Items are the kind's names (tasks, providers, controls, values), in
	// order; Notes, when set, go with Items one for one ("" for none), and
	// Counts too.
	Items  []string `json:"items,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	Counts []int    `json:"counts,omitempty"`
}

// IDAlone is the note of a WarnServed or WarnJudgeServed item checked on
// the asked id alone: no listing gave the model's canonical_slug (a run
// with --no-preflight reads none), so a served name the listing would have accepted
// ("anthropic/claude-4.7-opus-20260416" for "anthropic/claude-opus-4.7")
// counts as another model.
const IDAlone = "id_alone"

// The kinds of warning.
const (
	WarnInterrupted     = "interrupted"             // the manifest records no finish
	WarnFewModels       = "few_models"              // N answering models of a gating suite, fewer than 3
	WarnCustom          = "custom"                  // Items: the custom configured values (verdict.Custom)
	WarnPartial         = "partial"                 // Items[0]: the selection; N of Of tasks
	WarnInformational   = "informational"           // Items[0]: the suite
	WarnOneRepeat       = "one_repeat"              // noise is not measured
	WarnMetricVersion   = "metric_version"          // Items: the scores' version and the current one
	WarnNotReproducible = "not_reproducible"        // Items: the controls Model lacks; Notes: why
	WarnControlNote     = "control_note"            // Items[0]: a control Model honours; Notes[0]: its note
	WarnNoPreflight     = "no_preflight"            // Model's controls were sent unchecked
	WarnProviders       = "providers"               // Items: the providers that served Model
	WarnNoClass         = "no_class"                // Model has no task of Class
	WarnFewDocuments    = "few_documents"           // N documents of a gating class, fewer than 20
	WarnCutOffReasoning = "cut_off_reasoning"       // N answers out of budget while reasoning
	WarnCutOffOutput    = "cut_off_output"          // N answers cut off at the output budget
	WarnFlaky           = "flaky"                   // N of Of tasks flaky; Items: which
	WarnUngrounded      = "ungrounded_votes"        // N judge votes quote text the document lacks
	WarnServed          = "served_by_another_model" // N answers of Model served by Items (Counts each; Notes IDAlone when no listing named the model's canonical slug)
	WarnCostUnknown     = "cost_unknown"            // N of Of calls of Model without a cost
	WarnStreamChanged   = "stream_changed"          // N answers of Model whose stream changed model or generation id; Items: the answers, Notes: what changed
	WarnUnpriced        = "unpriced"                // N attempts GET /generation left unpriced; Items: transcript (generation id), Notes: why
	// WarnWritten is a warning of a schema 2 or 3 report, which wrote
	// its warnings as sentences: Items[0] is the sentence as written.
	WarnWritten = "written"
)

// WarnJudgeServed: N class A votes of judge Model served by Items (Counts
// each; Notes IDAlone when no listing named the judge's canonical slug);
// they still count as the judge's votes.
const WarnJudgeServed = "judge_served_by_another_model"
