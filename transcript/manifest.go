package transcript

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/model"
)

// ManifestName is the manifest's file name in a run directory.
const ManifestName = "run.json"

// Manifest describes a run: what was asked of whom, with which inputs.
type Manifest struct {
	Schema         int      `json:"schema"`          // SchemaVersion
	RunID          string   `json:"run_id"`          // the directory name
	HarnessVersion string   `json:"harness_version"` // e.g. 0.1.0
	GitCommit      string   `json:"git_commit,omitempty"`
	Models         []string `json:"models"` // answering models, in report order
	Judges         []string `json:"judges"` // judge models (class A)
	// ModelDirs maps every model (answering or judging) to the name of its
	// transcript directory (Slug): task transcripts in <dir>/, votes in
	// judges/<dir>/. No two models share one.
	ModelDirs  map[string]string `json:"model_dirs,omitempty"`
	Repeats    int               `json:"repeats"`     // runs per (model, task)
	Seed       int64             `json:"seed"`        // base seed; repeat r uses Seed+r
	TaskIDs    []string          `json:"task_ids"`    // the tasks run
	CorpusHash string            `json:"corpus_hash"` // task.Set.Hash
	PromptHash string            `json:"prompt_hash"` // task.Prompts.Hash
	ConfigHash string            `json:"config_hash"` // sha256 of Config
	Config     json.RawMessage   `json:"config"`      // the effective configuration
	// Determinism is, per model (answering and judging), which
	// determinism controls its requests carry (§8.7 "where supported").
	Determinism map[string]Determinism `json:"determinism,omitempty"`
	// Policies are, per online model (answering and judging), the request
	// policy the preflight decided (what was sent: reasoning, temperature
	// or why not, the provider pin, the budgets) and the listing it was
	// decided from (limits, reasoning defaults, prices, expiry); absent
	// without a preflight. A resume records the policy it sent.
	Policies map[string]ModelPolicy `json:"policies,omitempty"`
	// Wire is what every online request carried beside its body: the
	// headers (the key aside) and the session_id scheme; nil for a run
	// without an online model.
	Wire *Wire `json:"wire,omitempty"`
	// Inputs are the run's settings outside its configuration, so that
	// `harness run --resume DIR` alone continues the run as it started.
	Inputs     Inputs      `json:"inputs"`
	StartedAt  time.Time   `json:"started_at"` // first start
	ResumedAt  []time.Time `json:"resumed_at,omitempty"`
	FinishedAt *time.Time  `json:"finished_at,omitempty"` // nil while running or interrupted
	// SealedAt is when the run was sealed with HARNESS_SEAL_KEY (its
	// requests done, just before seal.json was written); nil for a run
	// never sealed. Written into run.json, under the seal's hashes, so
	// that a run whose seal.json is gone says its seal was removed
	// (issue 53: deleting the seal went unremarked).
	SealedAt *time.Time `json:"sealed_at,omitempty"`
}

// Wire is what a run's online requests carried beside their bodies.
type Wire struct {
	// Headers are the request headers sent besides the key: OpenRouter's
	// attribution headers and X-OpenRouter-Metadata, which asks for its
	// routing details in every response (model.DefaultHeaders).
	Headers map[string]string `json:"headers"`
	// Session is the session_id scheme of the answers and judge votes of
	// models with a policy (model.SessionScheme); "" when none was sent
	// (--no-preflight).
	Session string `json:"session,omitempty"`
}

// ModelPolicy is one model's request policy and the listing it read.
type ModelPolicy struct {
	Sent    model.Policy    `json:"sent"`
	Listing model.ModelInfo `json:"listing"`
}

// CanonicalSlugs maps each model whose recorded listing gives a
// canonical_slug to it: what the server names the model it served
// (model.ServedAsAsked). Empty for a run without a preflight, or recorded
// before the slug was kept.
func (m *Manifest) CanonicalSlugs() map[string]string {
	out := map[string]string{}
	for id, p := range m.Policies {
		if p.Listing.CanonicalSlug != "" {
			out[id] = p.Listing.CanonicalSlug
		}
	}
	return out
}

// Where a model's Determinism comes from.
const (
	DeterminismListing   = "listing"   // the provider's model list (supported_parameters)
	DeterminismOffline   = "offline"   // an offline model: deterministic by construction
	DeterminismUnchecked = "unchecked" // no preflight: both sent, support unknown
)

// Determinism is which determinism controls a model's requests carried.
type Determinism struct {
	// Honoured are the controls sent ("temperature", "seed").
	Honoured []string `json:"honoured"`
	// Lacking are the controls the model does not support, not sent: its
	// answers are not reproducible call for call.
	Lacking []string `json:"lacking"`
	// Source says how it is known: listing, offline or unchecked.
	Source string `json:"source"`
	// Notes say, per control, why it was not sent or not sent as
	// configured (the vendor ignores it, the vendor asks for its default);
	// absent when the listing alone decided.
	Notes map[string]string `json:"notes,omitempty"`
}

// Inputs are the settings of a run that its configuration does not hold.
type Inputs struct {
	// BaseURL is the API root online models were asked through; "" when
	// the run has no online model.
	BaseURL string `json:"base_url,omitempty"`
	// CorpusDir and InstructionsDir are the corpus and task directories;
	// "" means the embedded ones.
	CorpusDir       string `json:"corpus_dir,omitempty"`
	InstructionsDir string `json:"instructions_dir,omitempty"`
	// ReportDir is where the run's reports are written.
	ReportDir string `json:"report_dir"`
	// Suite is the task suite run, a name of the suite table (package
	// suites: gating, natural, size, relay, all); "" is gating.
	Suite string `json:"suite"`
	// Rungs are the size suite's rung sizes ("8k", "32k", ...); empty for
	// the defaults and for other suites.
	Rungs []string `json:"rungs,omitempty"`
	// Steps is the relay suite's chain length; 0 for the default and for
	// other suites.
	Steps int `json:"steps,omitempty"`
	// RoundTrips is the delegate suite's round trips per chain; 0 for the
	// default and for other suites.
	RoundTrips int `json:"round_trips,omitempty"`
	// Shuffle is the seed of the delegate suite's forward order (the
	// run's --seed); 0 for other suites.
	Shuffle int64 `json:"shuffle,omitempty"`
	// Order is the delegate suite's forward edits, one line per chain
	// (task.Set.Order), as the run drew them; empty for other suites.
	Order []string `json:"order,omitempty"`
	// Formats are the answer formats class B and C tasks are asked in
	// (package formats: document, json-patch, bend-ops), in table order;
	// empty for the whole document alone, as §8 asks.
	Formats []string `json:"formats,omitempty"`
	// Feedback is the most feedback rounds asked after a class B/C answer
	// that does not parse, apply or validate (--feedback, 0 to 3); 0 asks
	// none, as a run before feedback rounds did.
	Feedback int `json:"feedback,omitempty"`
	// NoPreflight is set when the model-list check was skipped (servers
	// without /models).
	NoPreflight bool `json:"no_preflight,omitempty"`
	// Selection, when not nil, is the part of the suite the run was asked
	// to run (--tasks, --classes, --docs, --limit): the run is partial,
	// and a partial run never gives the gating verdict pass.
	Selection *Selection `json:"selection,omitempty"`
	// MaxCost is the spending cap in USD (--max-cost, or max_cost in the
	// configuration): no new request once the known cost plus the
	// estimate of the requests in flight reaches it. 0 is no cap. A
	// resume may raise it.
	MaxCost float64 `json:"max_cost,omitempty"`
	// ConfiguredModels are the configuration's answering models when
	// --models replaced them with others: such a run is informational
	// (§8.6 names the models that gate; issue 45). Empty when the run
	// answers with the configuration's models.
	ConfiguredModels []string `json:"configured_models,omitempty"`
}

// Selection is the part of a suite a run runs: each list is what was
// given on the command line, empty when not given.
type Selection struct {
	Tasks   []string `json:"tasks,omitempty"`   // task ids and globs (03-b, 17-*)
	Classes []string `json:"classes,omitempty"` // a, b, c
	Docs    []string `json:"docs,omitempty"`    // document numbers or names (03, 03-*)
	Limit   int      `json:"limit,omitempty"`   // at most this many tasks (a relay chain counts as one)
	// Of is the number of the suite's tasks before selecting.
	Of int `json:"of"`
}

// String is the selection as the flags that made it.
func (s *Selection) String() string {
	var parts []string
	if len(s.Tasks) > 0 {
		parts = append(parts, "--tasks "+strings.Join(s.Tasks, ","))
	}
	if len(s.Classes) > 0 {
		parts = append(parts, "--classes "+strings.Join(s.Classes, ","))
	}
	if len(s.Docs) > 0 {
		parts = append(parts, "--docs "+strings.Join(s.Docs, ","))
	}
	if s.Limit > 0 {
		parts = append(parts, fmt.Sprintf("--limit %d", s.Limit))
	}
	return strings.Join(parts, " ")
}

// WriteManifest stores m atomically as runDir/run.json.
func WriteManifest(runDir string, m *Manifest) error {
	m.Schema = SchemaVersion
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(runDir, ManifestName), append(b, '\n'))
}

// MaxManifestSize bounds run.json: its largest parts are the task ids and
// the configuration, a few megabytes at the 2,000,000-job bound.
const MaxManifestSize = 64 << 20

// runIDRe is what a run id may be: one path element of safe characters,
// so that it cannot climb out of the runs or reports directory.
var runIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// ValidRunID reports whether id can name a run directory and its reports:
// one path element of letters, digits, '.', '-' and '_', at most 128
// bytes, starting with a letter or digit, without "..".
func ValidRunID(id string) bool { return runIDRe.MatchString(id) && !strings.Contains(id, "..") }

// ReadManifest loads runDir/run.json and checks its run id (ValidRunID).
func ReadManifest(runDir string) (*Manifest, error) {
	path := filepath.Join(runDir, ManifestName)
	b, err := regularfile.Read(path, MaxManifestSize)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: not a run manifest: %w", path, err)
	}
	if m.Schema != SchemaVersion {
		return nil, fmt.Errorf("%s: /schema: manifest schema %d, this harness reads %d", path, m.Schema, SchemaVersion)
	}
	// The run id names the reports that rescore and resume write: an id
	// read from a file is held to the rule of --run-id (issue 32: a shared
	// archive's "../../x" wrote reports outside the reports folder, and
	// run.json is covered by no hash).
	if !ValidRunID(m.RunID) {
		return nil, fmt.Errorf("%s: /run_id: %q is not one path element of letters, digits, '.', '-' and '_'", path, m.RunID)
	}
	return &m, nil
}
