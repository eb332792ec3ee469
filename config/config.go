// Package config reads the harness configuration (harness.yaml): models,
// judges, request parameters, concurrency, timeouts, retries, thresholds and
// metric weights. Unknown keys are errors, so a typo cannot silently fall
// back to a default.
package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/metric"
	"go.yaml.in/yaml/v3"
)

// Config is the effective configuration of a run. It is recorded in the
// run manifest and hashed into the report.
type Config struct {
	Models      []string    `yaml:"models" json:"models"`
	Judges      Judges      `yaml:"judges" json:"judges"`
	Request     Request     `yaml:"request" json:"request"`
	Concurrency Concurrency `yaml:"concurrency" json:"concurrency"`
	Timeouts    Timeouts    `yaml:"timeouts" json:"timeouts"`
	Retries     Retries     `yaml:"retries" json:"retries"`
	Repeats     int         `yaml:"repeats" json:"repeats"`
	Thresholds  Thresholds  `yaml:"thresholds" json:"thresholds"`
	Weights     Weights     `yaml:"weights" json:"weights"`
	// Gating says which runs may gate v0.1 (§8.6).
	Gating Gating `yaml:"gating" json:"gating"`
	// Reading sets the margins of §8.5's reading of a failure.
	Reading Reading `yaml:"reading" json:"reading"`

	// MaxCost is the spending cap in USD (--max-cost overrides it): no new
	// request once the known cost plus the estimate of the requests in
	// flight reaches it. 0 (absent) is no cap.
	MaxCost float64 `yaml:"max_cost" json:"max_cost,omitempty"`

	// ModelSettings holds per-model request settings, by model id: the
	// output budget, reasoning and provider pinning. A model without an
	// entry uses Request's max_tokens and the provider's defaults.
	ModelSettings map[string]ModelSettings `yaml:"model_settings" json:"model_settings,omitempty"`
}

// ModelSettings are one model's request settings.
type ModelSettings struct {
	// MaxTokens replaces request.max_tokens for this model. Reasoning
	// tokens count against it: give reasoning models room for both.
	MaxTokens int `yaml:"max_tokens" json:"max_tokens,omitempty"`
	// Reasoning is sent as OpenRouter's "reasoning" object.
	Reasoning *Reasoning `yaml:"reasoning" json:"reasoning,omitempty"`
	// Provider pins the upstream provider (OpenRouter's "provider" object),
	// so that every transcript of the model is served the same way.
	Provider *Provider `yaml:"provider" json:"provider,omitempty"`
}

// Reasoning is OpenRouter's reasoning setting: an effort or a token budget
// (not both), and whether to leave the reasoning out of the response.
type Reasoning struct {
	Effort    string `yaml:"effort" json:"effort,omitempty"`
	MaxTokens int    `yaml:"max_tokens" json:"max_tokens,omitempty"`
	Exclude   bool   `yaml:"exclude" json:"exclude,omitempty"`
	// Enabled turns reasoning on (true) or off (false); absent lets the
	// effort or budget decide.
	Enabled *bool `yaml:"enabled" json:"enabled,omitempty"`
}

// Provider is OpenRouter's provider routing: the providers allowed
// (only) and excluded (ignore), those to try first (order), whether
// others may serve when they fail (allow_fallbacks), and whether only
// providers that support every parameter sent may serve
// (require_parameters; OpenRouter's default drops an unsupported one
// silently).
type Provider struct {
	Only              []string `yaml:"only" json:"only,omitempty"`
	Ignore            []string `yaml:"ignore" json:"ignore,omitempty"`
	Order             []string `yaml:"order" json:"order,omitempty"`
	AllowFallbacks    *bool    `yaml:"allow_fallbacks" json:"allow_fallbacks,omitempty"`
	RequireParameters *bool    `yaml:"require_parameters" json:"require_parameters,omitempty"`
}

// efforts are the reasoning efforts OpenRouter accepts.
var efforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// Judges chooses the class A judges.
type Judges struct {
	Panel  bool     `yaml:"panel" json:"panel"`   // judge each answer by the other gating models
	Models []string `yaml:"models" json:"models"` // a fixed judge list, replacing the panel
}

// Request holds the parameters sent with every request.
type Request struct {
	Temperature float64 `yaml:"temperature" json:"temperature"`
	Seed        int64   `yaml:"seed" json:"seed"`
	MaxTokens   int     `yaml:"max_tokens" json:"max_tokens"`
}

// Concurrency limits requests in flight.
type Concurrency struct {
	PerModel int `yaml:"per_model" json:"per_model"`
	Global   int `yaml:"global" json:"global"`
}

// Timeouts bound a stream's silence and a whole job.
type Timeouts struct {
	// Attempt is the total attempt timeout of earlier versions. A
	// configuration file that sets it is refused with a message naming
	// Idle (a total timeout let a paid, non-streamed answer be discarded
	// and asked again); it is kept, first and omitted when unset, only so
	// that the manifest of an earlier run reads back with its hash.
	Attempt *Duration `yaml:"attempt" json:"attempt,omitempty"`
	// Idle closes a chat stream when no byte (keep-alive comments
	// included) has arrived for this long, and retries it. Calls stream,
	// so an answer that keeps arriving is never cut however long it takes.
	// Zero only in an earlier run's manifest.
	Idle Duration `yaml:"idle" json:"idle,omitzero"`
	// Job bounds one job: every attempt and wait.
	Job Duration `yaml:"job" json:"job"`
	// Bookkeeping bounds each call the harness makes for its own
	// accounting (GET /generation, /key, the model listings, a model's
	// endpoints): all its attempts and waits, with at most
	// BookkeepingRetries retries. Zero (absent) is DefaultBookkeeping.
	Bookkeeping Duration `yaml:"bookkeeping" json:"bookkeeping,omitzero"`
	// Reconcile bounds the whole end-of-run reconcile (GET /generation
	// for every attempt of unknown cost), and `harness runs --reconcile`:
	// what it could not price by then stays unknown, and scoring goes on.
	// Zero (absent) is DefaultReconcile.
	Reconcile Duration `yaml:"reconcile" json:"reconcile,omitzero"`
}

// The bookkeeping calls' bounds (issue 53: GET /generation had none, and
// a silent endpoint held a finished run's report for ten minutes per
// unpriced attempt).
const (
	DefaultBookkeeping = 20 * time.Second
	DefaultReconcile   = 60 * time.Second
	BookkeepingRetries = 2
	// MaxBookkeeping bounds both settings: they are for accounting, and
	// must never hold up a run's scoring for long.
	MaxBookkeeping = 10 * time.Minute
)

// BookkeepingTimeout is Bookkeeping, or DefaultBookkeeping when unset.
func (t Timeouts) BookkeepingTimeout() time.Duration {
	if t.Bookkeeping.Duration > 0 {
		return t.Bookkeeping.Duration
	}
	return DefaultBookkeeping
}

// ReconcileTimeout is Reconcile, or DefaultReconcile when unset.
func (t Timeouts) ReconcileTimeout() time.Duration {
	if t.Reconcile.Duration > 0 {
		return t.Reconcile.Duration
	}
	return DefaultReconcile
}

// Retries configures the retry budget of one job.
type Retries struct {
	Max         int      `yaml:"max" json:"max"`
	BackoffBase Duration `yaml:"backoff_base" json:"backoff_base"`
	BackoffMax  Duration `yaml:"backoff_max" json:"backoff_max"`
}

// Bounds of the retry settings: a job retried 2e9 times with a backoff
// of 1 ns sent 229 requests in 10 s (issue 32).
const (
	MaxRetries     = 20
	MinBackoffBase = 100 * time.Millisecond
	MaxBackoff     = 10 * time.Minute
)

// check returns what is wrong with r: max from 0 to MaxRetries, a backoff
// base from MinBackoffBase to MaxBackoff and a backoff max from the base
// to MaxBackoff.
func (r Retries) check() []error {
	var errs []error
	if r.Max < 0 || r.Max > MaxRetries {
		errs = append(errs, fmt.Errorf("retries: max must be from 0 to %d, not %d", MaxRetries, r.Max))
	}
	b, m := r.BackoffBase.Duration, r.BackoffMax.Duration
	if b < MinBackoffBase || b > MaxBackoff {
		errs = append(errs, fmt.Errorf("retries: backoff_base must be from %v to %v, not %v", MinBackoffBase, MaxBackoff, b))
	}
	if m < b || m > MaxBackoff {
		errs = append(errs, fmt.Errorf("retries: backoff_max must be from backoff_base to %v, not %v", MaxBackoff, m))
	}
	return errs
}

// Thresholds are the §8.5 acceptance thresholds.
type Thresholds struct {
	ClassAFaithfulnessMin float64 `yaml:"class_a_faithfulness_min" json:"class_a_faithfulness_min"`
	ClassBMedianMax       float64 `yaml:"class_b_median_max" json:"class_b_median_max"`
	ClassBP95Max          float64 `yaml:"class_b_p95_max" json:"class_b_p95_max"`
	ClassCMedianMax       float64 `yaml:"class_c_median_max" json:"class_c_median_max"`
	ClassCP95Max          float64 `yaml:"class_c_p95_max" json:"class_c_p95_max"`

	// ClassBEditAppliedMin and ClassCEditAppliedMin are the harness's own
	// thresholds beside §8.5: the least fraction of a model's scored class
	// B (C) answers whose gold edit was fully applied, so that a model that
	// does not edit cannot pass on low drift. 0 (absent, as in manifests
	// written before they existed) applies no gate.
	ClassBEditAppliedMin float64 `yaml:"class_b_edit_applied_min" json:"class_b_edit_applied_min,omitempty"`
	ClassCEditAppliedMin float64 `yaml:"class_c_edit_applied_min" json:"class_c_edit_applied_min,omitempty"`

	// The harness's own gates on what §8.4's five components cannot see
	// (metric/doc.go). Absent (as in manifests written before they
	// existed) applies no gate, so old runs keep their verdict and hash.
	//
	// ClassBResidualP95Max and ClassCResidualP95Max: the most the P95
	// over documents of the residual component (meta, unknown members,
	// the version, duplicated edges) may be.
	ClassBResidualP95Max *float64 `yaml:"class_b_residual_p95_max" json:"class_b_residual_p95_max,omitempty"`
	ClassCResidualP95Max *float64 `yaml:"class_c_residual_p95_max" json:"class_c_residual_p95_max,omitempty"`
	// ClassBInvalidMax and ClassCInvalidMax: the largest share of scored
	// answers that may be invalid (no document, or one bend.Validate
	// rejects: not a round trip).
	ClassBInvalidMax *float64 `yaml:"class_b_invalid_max" json:"class_b_invalid_max,omitempty"`
	ClassCInvalidMax *float64 `yaml:"class_c_invalid_max" json:"class_c_invalid_max,omitempty"`
	// ClassBUnchangedMin and ClassCUnchangedMin: the least share of scored
	// answers with no unrequested change (a valid document that changed
	// nothing the edit left alone); 0 applies no gate.
	ClassBUnchangedMin float64 `yaml:"class_b_unchanged_min" json:"class_b_unchanged_min,omitempty"`
	ClassCUnchangedMin float64 `yaml:"class_c_unchanged_min" json:"class_c_unchanged_min,omitempty"`
}

// DefaultResidualP95Max, DefaultInvalidMax and DefaultUnchangedMin are the
// defaults of the harness's own gates (docs/statistics.md, "What a pass means"):
// exact answers pass them all; answers that strip meta, are not valid
// documents, or change one unrequested thing in most documents fail.
const (
	DefaultResidualP95Max = 0.10
	DefaultInvalidMax     = 0.05
	DefaultUnchangedMin   = 0.90
)

// MaxRepeats bounds repeats: the run's jobs, scores and report rows are
// allocated per repeat, so an absurd count must be refused before anything
// is sized by it (100,000 repeats would ask for gigabytes before the first
// request). A thousand repeats of the gating suite is already 180,000
// paid calls.
const MaxRepeats = 1000

// MaxTemperature is the largest temperature OpenRouter accepts.
const MaxTemperature = 2

// Weights are the drift weights (§8.4): the metric's own type, so that the
// configuration, the metric and the report share one list of components.
type Weights = metric.Weights

// Duration is a time.Duration written as "30s" in YAML and JSON.
type Duration struct{ time.Duration }

// UnmarshalYAML reads "30s", "2m".
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	d.Duration = v
	return nil
}

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads what MarshalJSON writes.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	d.Duration = v
	return err
}

// Gating says which runs may gate v0.1 (§8.6): three frontier models, one
// from each vendor, none of them tier-down.
type Gating struct {
	// Vendors are the vendors a gating run takes one model of each, as
	// the OpenRouter id's prefix names them ("anthropic" of
	// "anthropic/claude-opus-5").
	Vendors []string `yaml:"vendors" json:"vendors"`
	// TierDown are the words that mark a tier-down model: a model whose
	// id, after the vendor, holds one of them as a word ("mini" in
	// "openai/gpt-5-mini") cannot gate. A new model name needs no code.
	TierDown []string `yaml:"tier_down" json:"tier_down"`
	// APIRoots are API roots other than OpenRouter's whose runs may gate
	// (§8.6: "All three are run via OpenRouter"): a gateway that forwards
	// to OpenRouter. A run through any other root is informational.
	APIRoots []string `yaml:"api_roots" json:"api_roots,omitempty"`
}

// Reading sets when a failure of §8.5's thresholds is narrow (§8.5: "a
// single model fails by a small margin"): a median or faithfulness
// failure is narrow when it misses its limit by at most the margin, a
// P95 failure when one document too many is over its limit (a count, not
// a setting: verdict.NarrowDocuments); a model passes cleanly when every
// threshold holds with at least the margin to spare. Changing either is
// custom configuration, and a custom run cannot gate.
type Reading struct {
	// NarrowFraction is the margin of a median drift limit, as a fraction
	// of the limit (0.2: a median of 0.06 against 0.05 is narrow).
	NarrowFraction float64 `yaml:"narrow_fraction" json:"narrow_fraction"`
	// NarrowShare is the margin of a share's limit, in share points (0.05:
	// faithfulness 0.86 against 0.90 is narrow).
	NarrowShare float64 `yaml:"narrow_share" json:"narrow_share"`
}

// Default returns the built-in configuration: the spec's thresholds and
// weights, and the same values as the checked-in harness.yaml.
func Default() *Config {
	return &Config{
		Models:      []string{"anthropic/claude-opus-5", "openai/gpt-5.6-sol", "google/gemini-3.1-pro-preview"},
		Judges:      Judges{Panel: true, Models: []string{}},
		Request:     Request{Temperature: 0, Seed: 20260427, MaxTokens: 32000},
		Concurrency: Concurrency{PerModel: 6, Global: 18},
		// Bookkeeping and Reconcile are left 0, their defaults, so that
		// the configuration (and its hash) of a run that sets neither is
		// what it was before they existed.
		Timeouts: Timeouts{Idle: Duration{120 * time.Second}, Job: Duration{20 * time.Minute}},
		Retries:  Retries{Max: 4, BackoffBase: Duration{2 * time.Second}, BackoffMax: Duration{60 * time.Second}},
		Repeats:  1,
		Thresholds: Thresholds{
			ClassAFaithfulnessMin: 0.90, ClassBMedianMax: 0.05, ClassBP95Max: 0.20, ClassCMedianMax: 0.10, ClassCP95Max: 0.30,
			ClassBEditAppliedMin: 0.90, ClassCEditAppliedMin: 0.90,
			ClassBResidualP95Max: ptr(DefaultResidualP95Max), ClassCResidualP95Max: ptr(DefaultResidualP95Max),
			ClassBInvalidMax: ptr(DefaultInvalidMax), ClassCInvalidMax: ptr(DefaultInvalidMax),
			ClassBUnchangedMin: DefaultUnchangedMin, ClassCUnchangedMin: DefaultUnchangedMin,
		},
		Weights: metric.DefaultWeights(),
		Gating: Gating{Vendors: []string{"anthropic", "openai", "google"},
			TierDown: []string{"haiku", "sonnet", "mini", "nano", "flash", "lite"}},
		Reading: Reading{NarrowFraction: 0.2, NarrowShare: 0.05},
	}
}

func ptr(v float64) *float64 { return &v }

// DefaultFile is the configuration file read when none is named.
const DefaultFile = "harness.yaml"

// LoadOrDefault reads the configuration file, or returns the defaults when
// the file is DefaultFile and does not exist: a named file that does not
// exist is an error, or a user would believe their settings were used.
func LoadOrDefault(path string) (*Config, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && path == DefaultFile {
		return Default(), nil
	}
	return Load(path)
}

// MaxFile bounds a configuration file: the default harness.yaml is under
// 4 KiB, and a 100 MB file took 469 MB to decode (issue 32).
const MaxFile = 1 << 20

// ErrAttemptTimeout refuses a configuration file that sets the total
// attempt timeout of earlier versions.
var ErrAttemptTimeout = errors.New("timeouts.attempt was replaced by timeouts.idle: chat calls stream, and a stream is closed when no byte arrives for timeouts.idle (a total attempt timeout discarded answers OpenRouter had billed)")

// Load reads a YAML file (at most MaxFile bytes, a regular file) over the
// defaults. Unknown keys are errors.
func Load(path string) (*Config, error) {
	b, err := regularfile.Read(path, MaxFile)
	if err != nil {
		return nil, err
	}
	c := Default()
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, syntaxLine(b, err))
	}
	if c.Timeouts.Attempt != nil {
		return nil, fmt.Errorf("%s: %w", path, ErrAttemptTimeout)
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// yamlLineRe is the line yaml.v3 puts in a syntax error's message.
var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): `)

// syntaxLine corrects the line of a YAML syntax error. yaml.v3 reports the
// line where the enclosing block began (its context mark), often the line
// before the mistake or further up; the mistake is on the line after the
// longest prefix of the file that still parses. Errors of type
// (*yaml.TypeError) carry right lines and are returned as they are.
func syntaxLine(b []byte, err error) error {
	var te *yaml.TypeError
	m := yamlLineRe.FindStringSubmatch(err.Error())
	lines := strings.SplitAfter(string(b), "\n")
	if errors.As(err, &te) || m == nil || len(lines) > 2000 {
		return err // (a configuration is a page; re-parsing is quadratic)
	}
	good := 0
	for k := 1; k < len(lines); k++ {
		var v any
		if yaml.Unmarshal([]byte(strings.Join(lines[:k], "")), &v) == nil {
			good = k
		}
	}
	return fmt.Errorf("line %d: %s", good+1, strings.TrimPrefix(err.Error(), m[0]))
}

// Validate checks that the configuration can drive a run. Each section
// is checked by its own validator, in the order the sections are read.
func (c *Config) Validate() error {
	var errs []error
	for _, check := range []func() []error{
		c.validateModels,
		c.validateRunLimits,
		c.validateReading,
		c.Retries.check,
		c.validateRequest,
		c.Thresholds.validate,
		c.validateTimeouts,
		c.validateWeights,
		c.validateModelSettings,
	} {
		errs = append(errs, check()...)
	}
	return errors.Join(errs...)
}

// validateModels refuses an empty or repeating model list.
func (c *Config) validateModels() []error {
	var errs []error
	if len(c.Models) == 0 {
		errs = append(errs, errors.New("models: at least one model"))
	}
	seen := map[string]bool{}
	for _, m := range c.Models {
		if seen[m] {
			errs = append(errs, fmt.Errorf("models: %q listed twice", m))
		}
		seen[m] = true
	}
	return errs
}

// validateRunLimits refuses concurrency, repeats and a cost cap no run
// can mean.
func (c *Config) validateRunLimits() []error {
	var errs []error
	if c.Concurrency.PerModel < 1 || c.Concurrency.Global < 1 {
		errs = append(errs, errors.New("concurrency: per_model and global must be at least 1"))
	}
	if c.Repeats < 1 || c.Repeats > MaxRepeats {
		errs = append(errs, fmt.Errorf("repeats: a whole number from 1 to %d, not %d", MaxRepeats, c.Repeats))
	}
	if c.MaxCost < 0 || math.IsNaN(c.MaxCost) || math.IsInf(c.MaxCost, 0) {
		errs = append(errs, fmt.Errorf("max_cost: a number of US dollars, 0 for no cap, not %v", c.MaxCost))
	}
	return errs
}

// validateReading refuses an empty vendor gate and reading fractions
// outside [0, 1).
func (c *Config) validateReading() []error {
	var errs []error
	if len(c.Gating.Vendors) == 0 {
		errs = append(errs, errors.New("gating: vendors: at least one vendor"))
	}
	for name, v := range map[string]float64{"narrow_fraction": c.Reading.NarrowFraction, "narrow_share": c.Reading.NarrowShare} {
		if !finite(v) || v < 0 || v >= 1 {
			errs = append(errs, fmt.Errorf("reading: %s must be a number from 0 up to 1, not %v", name, v))
		}
	}
	return errs
}

// validateRequest refuses a temperature out of range and a negative
// max_tokens.
func (c *Config) validateRequest() []error {
	var errs []error
	if t := c.Request.Temperature; !finite(t) || t < 0 || t > MaxTemperature {
		errs = append(errs, fmt.Errorf("request: temperature must be a number from 0 to %d, not %v", MaxTemperature, t))
	}
	if c.Request.MaxTokens < 0 {
		errs = append(errs, fmt.Errorf("request: max_tokens must not be negative (0 sends no cap), not %d", c.Request.MaxTokens))
	}
	return errs
}

// validateTimeouts refuses non-positive idle and job timeouts and
// bookkeeping or reconcile budgets out of range.
func (c *Config) validateTimeouts() []error {
	var errs []error
	if c.Timeouts.Attempt == nil && c.Timeouts.Idle.Duration <= 0 || c.Timeouts.Job.Duration <= 0 {
		errs = append(errs, errors.New("timeouts: idle and job must be positive"))
	}
	for name, d := range map[string]time.Duration{"bookkeeping": c.Timeouts.Bookkeeping.Duration, "reconcile": c.Timeouts.Reconcile.Duration} {
		if d < 0 || d > MaxBookkeeping {
			errs = append(errs, fmt.Errorf("timeouts: %s must be from 0 (the default) to %v, not %v", name, MaxBookkeeping, d))
		}
	}
	return errs
}

// validateWeights refuses invalid weights and weights that do not sum
// to 1.
func (c *Config) validateWeights() []error {
	if err := c.Weights.Validate(); err != nil {
		return []error{fmt.Errorf("weights: %w", err)}
	}
	if sum := weightSum(c.Weights); math.Abs(sum-1) > 1e-9 {
		// The metric would divide by the sum; a configuration whose weights
		// do not say what they weigh is refused instead of rescaled.
		return []error{fmt.Errorf("weights: they sum to %v, not 1 (§8.4): give weights that sum to 1", sum)}
	}
	return nil
}

// validateModelSettings refuses per-model settings that cannot be meant:
// negative budgets, both reasoning controls, an unknown effort, a
// reasoning budget that leaves no room for the answer.
func (c *Config) validateModelSettings() []error {
	var errs []error
	for _, m := range slices.Sorted(maps.Keys(c.ModelSettings)) {
		s := c.ModelSettings[m]
		switch r := s.Reasoning; {
		case r != nil && r.MaxTokens < 0:
			errs = append(errs, fmt.Errorf("model_settings: %s: reasoning max_tokens must not be negative", m))
		case s.MaxTokens < 0:
			errs = append(errs, fmt.Errorf("model_settings: %s: max_tokens must not be negative", m))
		case r != nil && r.Effort != "" && r.MaxTokens != 0:
			errs = append(errs, fmt.Errorf("model_settings: %s: reasoning takes effort or max_tokens, not both", m))
		case r != nil && r.Effort != "" && !slices.Contains(efforts, r.Effort):
			errs = append(errs, fmt.Errorf("model_settings: %s: reasoning effort %q is not one of %s", m, r.Effort, strings.Join(efforts, ", ")))
		case r != nil && r.MaxTokens != 0 && s.MaxTokens > 0 && r.MaxTokens >= s.MaxTokens:
			errs = append(errs, fmt.Errorf("model_settings: %s: the reasoning budget (%d) leaves no room for the answer within max_tokens (%d)", m, r.MaxTokens, s.MaxTokens))
		}
	}
	return errs
}

// validate refuses thresholds no run can mean: every threshold is a
// fraction (faithfulness, edits applied) or a drift, all in [0, 1], so a
// negative, non-finite or larger one would make the verdict a foregone
// conclusion and is a typo, never a setting.
func (t Thresholds) validate() []error {
	named := []struct {
		name string
		v    float64
	}{
		{"class_a_faithfulness_min", t.ClassAFaithfulnessMin},
		{"class_b_median_max", t.ClassBMedianMax}, {"class_b_p95_max", t.ClassBP95Max},
		{"class_c_median_max", t.ClassCMedianMax}, {"class_c_p95_max", t.ClassCP95Max},
		{"class_b_edit_applied_min", t.ClassBEditAppliedMin}, {"class_c_edit_applied_min", t.ClassCEditAppliedMin},
		{"class_b_unchanged_min", t.ClassBUnchangedMin}, {"class_c_unchanged_min", t.ClassCUnchangedMin},
	}
	for _, p := range []struct {
		name string
		v    *float64
	}{
		{"class_b_residual_p95_max", t.ClassBResidualP95Max}, {"class_c_residual_p95_max", t.ClassCResidualP95Max},
		{"class_b_invalid_max", t.ClassBInvalidMax}, {"class_c_invalid_max", t.ClassCInvalidMax},
	} {
		if p.v != nil {
			named = append(named, struct {
				name string
				v    float64
			}{p.name, *p.v})
		}
	}
	var errs []error
	for _, n := range named {
		if !finite(n.v) || n.v < 0 || n.v > 1 {
			errs = append(errs, fmt.Errorf("thresholds: %s must be a number from 0 to 1, not %v", n.name, n.v))
		}
	}
	return errs
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// weightSum is the sum of the drift weights.
func weightSum(w Weights) float64 {
	sum := 0.0
	for _, x := range w.List() {
		sum += x
	}
	return sum
}

// MaxTokens returns the output budget of model m's requests.
func (c *Config) MaxTokens(m string) int {
	if s := c.ModelSettings[m]; s.MaxTokens > 0 {
		return s.MaxTokens
	}
	return c.Request.MaxTokens
}

// JSON returns the configuration as indented JSON, for the manifest.
func (c *Config) JSON() json.RawMessage {
	b, _ := json.MarshalIndent(c, "", "  ")
	return b
}

// Hash returns the sha256 (hex) of the configuration's JSON form.
func (c *Config) Hash() string {
	b, _ := json.Marshal(c)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
