package model

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Policy is what one model's requests carry, answers and judge votes
// alike, and why: decided once per run from the configuration and the
// model's listing (Decide), recorded in run.json, and applied to every
// request (Apply). What a vendor would ignore is not sent, with the
// reason, so that a transcript never claims a control that was not
// applied.
type Policy struct {
	// Temperature is sent when non-nil; TemperatureNote says why it is
	// not sent, or why it is not the configured value.
	Temperature     *float64 `json:"temperature"`
	TemperatureNote string   `json:"temperature_note,omitempty"`
	// Seed is the base seed sent (repeat r sends Seed+r) when non-nil;
	// SeedNote says why it is not sent.
	Seed     *int64 `json:"seed"`
	SeedNote string `json:"seed_note,omitempty"`
	// Reasoning is the explicit reasoning object sent with every request;
	// ReasoningSource says where it came from: "configured"
	// (model_settings), "listing default" (the listing's defaults, pinned
	// so that a change of upstream default cannot change the numbers
	// unseen) or "none" (the listing has no reasoning).
	Reasoning       *ReasoningPrefs `json:"reasoning"`
	ReasoningSource string          `json:"reasoning_source"`
	// ReasoningAllowance is the output tokens the policy leaves for
	// reasoning in each budget (reasoning counts against max_tokens), and
	// what the estimate counts per request (ReasoningAllowance).
	ReasoningAllowance int `json:"reasoning_allowance"`
	// Provider is the provider pin sent; nil leaves OpenRouter's routing.
	Provider *ProviderPrefs `json:"provider,omitempty"`
	// MaxTokens is the answers' output budget; JudgeMaxTokens the judge
	// votes'. Neither is above MaxOutput when it is known.
	MaxTokens      int `json:"max_tokens"`
	JudgeMaxTokens int `json:"judge_max_tokens"`
	// MaxOutput is the listing's top_provider.max_completion_tokens (0:
	// unknown): no request asks for more.
	MaxOutput int `json:"max_output"`
	// Notes are what else the policy decided, in words (a budget capped,
	// a reasoning setting the listing does not take).
	Notes []string `json:"notes,omitempty"`
}

// Wanted is what the configuration asks of a model, before its listing
// and its vendor's rules decide what is sent.
type Wanted struct {
	Temperature float64
	Seed        int64
	MaxTokens   int
	// Reasoning is the configured reasoning object; nil asks for the
	// listing's defaults, sent explicitly.
	Reasoning *ReasoningPrefs
	Provider  *ProviderPrefs
}

// JudgeAnswerTokens is the output a judge vote needs besides reasoning:
// a verdict object with its quotes is a few hundred tokens; the rest is
// room.
const JudgeAnswerTokens = 2048

// effortAllowance is the output tokens the harness leaves for reasoning
// at each effort, and what its estimate counts per request: the
// harness's own figures, about what the vendors' efforts spend on a
// document edit (docs/interpretations.md §8.7).
var effortAllowance = map[string]int{
	"none": 0, "minimal": 1024, "low": 2048, "medium": 8192, "high": 16384, "xhigh": 24576, "max": 32768,
}

// ReasoningAllowance is the output tokens reasoning r takes in a budget:
// 0 when it is off, its max_tokens when it sets one, its effort's
// allowance, or the medium allowance when it is on without an effort.
func ReasoningAllowance(r *ReasoningPrefs) int {
	switch {
	case r == nil, r.Enabled != nil && !*r.Enabled:
		return 0
	case r.MaxTokens > 0:
		return r.MaxTokens
	case r.Effort != "":
		if n, ok := effortAllowance[r.Effort]; ok {
			return n
		}
	}
	return effortAllowance["medium"]
}

// vendorRule is what one family of models does with the determinism
// controls, as its vendor documents it: a rule, not a capability the
// listing shows (the listing of Claude Opus 4.8 still names temperature).
type vendorRule struct {
	match func(id string) bool
	// temperature is what is sent instead of the configured value: nil
	// sends nothing.
	temperature *float64
	reason      string
}

var vendorRules = []vendorRule{
	{match: claudeIgnoresTemperature,
		reason: "not sent: Claude Opus 4.7 and later (and Sonnet 5) ignore temperature silently (OpenRouter's model migration guides)"},
	{match: func(id string) bool { return strings.HasPrefix(id, "google/gemini-3") }, temperature: new(1.0),
		reason: "sent as 1.0, Gemini 3's default: Google asks to keep it, and warns that lower values may cause looping or degraded output (Vertex AI, Gemini 3 prompting guide)"},
}

var claudeVersion = regexp.MustCompile(`^anthropic/claude-(opus|sonnet)-(\d+)(?:[.-](\d+))?`)

// claudeIgnoresTemperature: Claude Opus 4.7 and later, Sonnet 5 and later.
func claudeIgnoresTemperature(id string) bool {
	m := claudeVersion.FindStringSubmatch(id)
	if m == nil {
		return false
	}
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	if m[1] == "sonnet" {
		return major >= 5
	}
	return major > 4 || major == 4 && minor >= 7
}

// notListed is the note of a control the listing does not support.
const notListed = "not supported, not sent (the listing's supported_parameters lacks it)"

// Decide is model id's policy under w and its listing (info; a zero
// ModelInfo when there is none: nothing is known, everything configured
// is sent).
func Decide(id string, w Wanted, info ModelInfo) Policy {
	p := Policy{MaxOutput: info.MaxCompletionTokens, Provider: w.Provider}
	p.Temperature, p.TemperatureNote = new(w.Temperature), ""
	for _, r := range vendorRules {
		if r.match(id) {
			p.Temperature, p.TemperatureNote = r.temperature, r.reason
			if r.temperature != nil && *r.temperature == w.Temperature {
				p.TemperatureNote = ""
			}
		}
	}
	if !info.Supports("temperature") {
		p.Temperature, p.TemperatureNote = nil, notListed
	}
	p.Seed = new(w.Seed)
	if !info.Supports("seed") {
		p.Seed, p.SeedNote = nil, notListed
	}
	p.Reasoning, p.ReasoningSource = reasoningOf(w.Reasoning, info, &p.Notes)
	p.ReasoningAllowance = ReasoningAllowance(p.Reasoning)
	p.MaxTokens = p.cap(w.MaxTokens, "the answers' max_tokens")
	p.JudgeMaxTokens = p.cap(JudgeAnswerTokens+p.ReasoningAllowance, "the judge votes' max_tokens")
	return p
}

// reasoningOf is the reasoning object to send: the configured one, else
// the listing's defaults made explicit, else none.
func reasoningOf(wanted *ReasoningPrefs, info ModelInfo, notes *[]string) (*ReasoningPrefs, string) {
	ri := info.Reasoning
	if wanted != nil {
		r := *wanted
		if ri != nil {
			if r.Effort != "" && len(ri.SupportedEfforts) > 0 && !slices.Contains(ri.SupportedEfforts, r.Effort) {
				*notes = append(*notes, fmt.Sprintf("reasoning effort %q is not among the listing's (%s)", r.Effort, strings.Join(ri.SupportedEfforts, ", ")))
			}
			if r.MaxTokens > 0 && !ri.SupportsMaxTokens {
				*notes = append(*notes, "reasoning max_tokens is not honoured by this model (the listing's supports_max_tokens is false): the vendor decides the reasoning length")
			}
			if r.Enabled != nil && !*r.Enabled && ri.Mandatory {
				*notes = append(*notes, "reasoning cannot be turned off for this model (the listing's mandatory): it reasons anyway")
			}
		}
		return &r, "configured"
	}
	if ri == nil {
		return nil, "none"
	}
	on := ri.Mandatory || ri.DefaultEnabled != nil && *ri.DefaultEnabled
	if !on {
		return &ReasoningPrefs{Enabled: new(false)}, "listing default"
	}
	effort := ri.DefaultEffort
	if effort == "" {
		return &ReasoningPrefs{Enabled: new(true)}, "listing default"
	}
	return &ReasoningPrefs{Effort: effort}, "listing default"
}

// cap returns n, or MaxOutput with a note when n is above it.
func (p *Policy) cap(n int, what string) int {
	if p.MaxOutput > 0 && n > p.MaxOutput {
		p.Notes = append(p.Notes, fmt.Sprintf("%s capped from %d to the model's maximum output of %d", what, n, p.MaxOutput))
		return p.MaxOutput
	}
	return n
}

// Apply sets on req what the policy sends to every request: temperature,
// seed (base seed + repeat), reasoning and provider pin. The budget is
// the caller's (answers, votes and size-suite rungs differ).
func (p Policy) Apply(req *Request, repeat int) {
	req.Temperature = p.Temperature
	req.Seed = nil
	if p.Seed != nil {
		req.Seed = new(*p.Seed + int64(repeat))
	}
	req.Reasoning, req.Provider = p.Reasoning, p.Provider
}
