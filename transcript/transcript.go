// Package transcript is the archive of a run: one immutable, content-hashed
// JSON file per model call, and the run manifest. Transcripts are the
// evidence every score is computed from; rescoring reads nothing else.
//
// Layout of a run directory:
//
//	runs/<run-id>/run.json                                  the manifest
//	runs/<run-id>/<model-slug>/<task-id>.r<repeat>.json     task transcripts
//	runs/<run-id>/judges/<judge-slug>/<task-id>.<answerer-slug>.r<repeat>.json
//
// Files are written atomically (a temporary file renamed into place) the
// moment a call completes, so a killed run leaves only whole files.
package transcript

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/atomicfile"
	"bendscript.com/round-trip-harness/internal/regularfile"
	"bendscript.com/round-trip-harness/model"
)

// SchemaVersion is the version of the transcript and manifest formats.
// Readers refuse any other version.
const SchemaVersion = 1

// Kinds of transcript.
const (
	KindTask  = "task"  // a model answering a task
	KindJudge = "judge" // a judge judging a class A answer
)

// Transcript is the record of one model call.
type Transcript struct {
	Schema int    `json:"schema"`  // SchemaVersion
	Kind   string `json:"kind"`    // KindTask or KindJudge
	RunID  string `json:"run_id"`  // the run it belongs to
	Model  string `json:"model"`   // the model id that was asked
	TaskID string `json:"task_id"` // NN-x
	Class  string `json:"class"`   // A, B or C
	Repeat int    `json:"repeat"`  // 0-based repeat index

	// Judged names the task transcript a judge transcript judges.
	Judged *Ref `json:"judged,omitempty"`

	Hashes Hashes `json:"hashes"` // of the inputs the prompt was built from

	Request  Request   `json:"request"`
	Response *Response `json:"response,omitempty"` // nil when no answer arrived
	Attempts []Attempt `json:"attempts"`

	// Error is set when the call failed after its retries (or was skipped
	// after a fatal error of the same model). Such a transcript is an API
	// failure: it is counted, never scored as drift.
	Error *CallError `json:"error,omitempty"`

	StartedAt  time.Time `json:"started_at,omitzero"`  // not hashed
	FinishedAt time.Time `json:"finished_at,omitzero"` // not hashed

	// Hash is the sha2-256 (hex) of the RFC 8785 form of this transcript
	// without "hash" and without the wall-clock fields (started_at,
	// finished_at, latency_ms, and per attempt started_at, duration_ms,
	// wait_ms), so that archives are tamper-evident and two runs that made
	// the same calls with the same answers have the same hashes.
	Hash string `json:"hash,omitzero"`
}

// Ref names one task transcript.
type Ref struct {
	Model  string `json:"model"`
	TaskID string `json:"task_id"`
	Repeat int    `json:"repeat"`
	Hash   string `json:"hash"` // the judged transcript's hash
}

// Hashes identify the inputs of a call.
type Hashes struct {
	Prompt   string `json:"prompt"`   // the prompt templates (task.Prompts.Hash)
	Task     string `json:"task"`     // the task file (or, for a judge, the judge template)
	Document string `json:"document"` // the corpus document
}

// Message is one chat message: plain text in Content, or text parts in
// Parts when it was sent as content parts.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Parts   []Part `json:"parts,omitempty"`
}

// Part is one text content part; Cache marks the cache breakpoint sent as
// cache_control {"type": "ephemeral"}.
type Part struct {
	Text  string `json:"text"`
	Cache bool   `json:"cache,omitempty"`
}

// Request is exactly what was asked, parameters included. A parameter
// that was not sent is absent: temperature and seed are recorded only when
// they were sent, so the record never claims a control that was not asked
// for. Older transcripts, which always hold both, read the same.
type Request struct {
	Model       string                `json:"model"`
	Messages    []Message             `json:"messages"`
	Temperature *float64              `json:"temperature,omitempty"`
	Seed        *int64                `json:"seed,omitempty"`
	MaxTokens   int                   `json:"max_tokens,omitempty"`
	JSONSchema  json.RawMessage       `json:"json_schema,omitempty"`
	SchemaName  string                `json:"schema_name,omitempty"`
	Provider    *model.ProviderPrefs  `json:"provider,omitempty"`
	Reasoning   *model.ReasoningPrefs `json:"reasoning,omitempty"`
	SessionID   string                `json:"session_id,omitempty"`
}

// Response is what came back.
type Response struct {
	Content      string `json:"content"`       // the completion text, as returned
	FinishReason string `json:"finish_reason"` // stop, length, ...
	// NativeFinishReason is the upstream's own finish reason before
	// OpenRouter normalised it ("end_turn", "max_tokens", "MAX_TOKENS");
	// "" when not sent.
	NativeFinishReason string `json:"native_finish_reason,omitempty"`
	// Reasoning is the reasoning text the model returned (message.reasoning,
	// or the readable reasoning_details), joined; "" when none (or only
	// encrypted reasoning) was returned. It repeats what the raw body
	// holds in pieces, so that show and the viewer read it without
	// reassembling chunks; bounded, as the body is, by the response limit.
	Reasoning   string          `json:"reasoning,omitempty"`
	Provider    string          `json:"provider,omitempty"`
	ModelServed string          `json:"model_served,omitempty"`
	ID          string          `json:"id,omitempty"`
	Usage       Usage           `json:"usage"`
	LatencyMS   int64           `json:"latency_ms,omitzero"` // not hashed
	RawBody     json.RawMessage `json:"raw_body,omitempty"`
}

// Usage is token accounting; Cost is nil when unknown, never 0 for unknown.
type Usage struct {
	PromptTokens     int64    `json:"prompt_tokens"`
	CompletionTokens int64    `json:"completion_tokens"`
	CachedTokens     int64    `json:"cached_tokens"`
	ReasoningTokens  int64    `json:"reasoning_tokens"`
	Cost             *float64 `json:"cost"` // USD; null = unknown
	// CacheWriteTokens and UpstreamCost are model.Usage's: prompt tokens
	// written to the cache, and a BYOK call's provider charge (in Cost).
	CacheWriteTokens int64    `json:"cache_write_tokens,omitempty"`
	UpstreamCost     *float64 `json:"upstream_cost,omitempty"`
	// Unread names the usage fields the response held in a shape that
	// could not be read, with their values (model.Usage.Unread).
	Unread []string `json:"unread,omitempty"`
	// Estimated is set when the token counts are estimates from the
	// text's length (model.Tokens), not counted by a provider: the offline
	// models count none.
	Estimated bool `json:"estimated,omitempty"`
}

// Attempt is one HTTP attempt.
type Attempt struct {
	Number       int       `json:"number"`
	StartedAt    time.Time `json:"started_at,omitzero"`  // not hashed
	DurationMS   int64     `json:"duration_ms,omitzero"` // not hashed
	Status       int       `json:"status"`
	Error        string    `json:"error,omitempty"`
	RetryAfterMS int64     `json:"retry_after_ms,omitempty"`
	WaitMS       int64     `json:"wait_ms,omitempty"` // not hashed
	// GenerationID is the attempt's generation id from its first chunk,
	// and Provider the upstream that served it (model.Attempt).
	GenerationID string `json:"generation_id,omitempty"`
	Provider     string `json:"provider,omitempty"`
	// Cost is the usage.cost the attempt reported; nil when unknown (an
	// interrupted stream reports none; `harness runs --reconcile` asks
	// GET /generation for it).
	Cost *float64 `json:"cost,omitempty"`
	// Interrupted says the attempt was in flight when the caller gave up
	// (a job deadline, a cancelled run, a signal): its stream was closed,
	// and it is archived as sent.
	Interrupted bool `json:"interrupted,omitempty"`
	// Changed names what changed mid-stream (a served model or a
	// generation id other than the first chunk's; model.Attempt).
	Changed []string `json:"changed,omitempty"`
}

// CodeInterrupted is the CallError code of a job whose call was in flight
// when the run was cancelled (a signal, a cancelled context): its
// attempts are archived as sent, and a resume asks it again, saying so
// when an interrupted attempt may have been paid (Transcript.PaidInterrupted).
const CodeInterrupted = "interrupted"

// PaidInterrupted returns the generation ids of t's interrupted
// attempts: each was sent, and may have been billed for what was
// generated before its stream was closed. An attempt that received no
// chunk is named by its number.
func (t *Transcript) PaidInterrupted() []string {
	var ids []string
	for _, a := range t.Attempts {
		if a.Interrupted {
			ids = append(ids, cmp.Or(a.GenerationID, fmt.Sprintf("attempt %d, no chunk arrived", a.Number)))
		}
	}
	return ids
}

// CodeSkipped is the CallError code of a job that was never sent because
// its model had already failed fatally: it has no attempt and costs nothing.
const CodeSkipped = "skipped"

// CodeNotSent is the CallError code of a job the harness chose not to send
// (its prompt and output budget cannot fit the model's context): no
// attempt, no cost, counted as an API error and never as drift.
const CodeNotSent = "not_sent"

// CallError is an API failure that outlasted its retries.
type CallError struct {
	Status  int    `json:"status"`          // HTTP status of the last attempt; 0 if none
	Code    string `json:"code,omitempty"`  // provider or client error code
	Message string `json:"message"`         // what went wrong
	Fatal   bool   `json:"fatal,omitempty"` // the model's other jobs were stopped
	// Scope is what the failure was about: "model", "request" or "retry"
	// (model.Scope); "" for failures the client did not classify.
	Scope string `json:"scope,omitempty"`
	// Reason says why, in the words of the classification table; Type is
	// OpenRouter's error.metadata.error_type when it sent one.
	Reason string `json:"reason,omitempty"`
	Type   string `json:"error_type,omitempty"`
}

// Resumable names the cause of a failure that a resume can cure once the
// cause is gone, "" for any other: "out of credit" (402, or error_type
// payment_required, that ended the model: not the reservation of one
// request's max_tokens) and "rate limited" (429 retries exhausted).
func (e *CallError) Resumable() string {
	code := e.Status
	if n, err := strconv.Atoi(e.Code); err == nil && e.Status == 200 {
		code = n
	}
	switch {
	case e.Scope == "model" && (code == 402 || e.Type == "payment_required"):
		return "out of credit"
	case e.Scope == "retry" && (code == 429 || e.Type == "rate_limit_exceeded"):
		return "rate limited"
	}
	return ""
}

// OK reports whether the call produced a response to score.
func (t *Transcript) OK() bool { return t.Error == nil && t.Response != nil }

// ComputeHash returns the content hash of t (see Transcript.Hash). The
// unhashed fields are zeroed in a copy, and their omitzero tags leave them
// out of its JSON.
func (t *Transcript) ComputeHash() (string, error) {
	c := *t
	c.Hash = ""
	c.StartedAt, c.FinishedAt = time.Time{}, time.Time{}
	if c.Response != nil {
		r := *c.Response
		r.LatencyMS = 0
		c.Response = &r
	}
	c.Attempts = make([]Attempt, len(t.Attempts))
	for i, a := range t.Attempts {
		a.StartedAt, a.DurationMS, a.WaitMS = time.Time{}, 0, 0
		c.Attempts[i] = a
	}
	b, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	// RFC 8785 bytes from bend's reader and canonical writer, which are
	// several times faster than gowebpki/jcs; jcs stays the test oracle
	// (TestHashMatchesJCS).
	v, err := bend.ParseValueLimit(b, MaxSize)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if err := bend.HashValue(v, h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Seal sets t.Hash.
func (t *Transcript) Seal() error {
	h, err := t.ComputeHash()
	if err != nil {
		return err
	}
	t.Hash = h
	return nil
}

// Slug turns a model id into a directory name: characters other than
// letters, digits, '.', '-' and '_' become '_' (anthropic/claude-opus-4.8 →
// anthropic_claude-opus-4.8).
func Slug(model string) string {
	var b strings.Builder
	for _, r := range model {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Path returns where t is stored below the run directory.
func (t *Transcript) Path(runDir string) string {
	if t.Kind == KindJudge && t.Judged != nil {
		return JudgePath(runDir, t.Model, t.TaskID, t.Judged.Model, t.Repeat)
	}
	return TaskPath(runDir, t.Model, t.TaskID, t.Repeat)
}

// TaskPath is the file of a task transcript.
func TaskPath(runDir, model, taskID string, repeat int) string {
	return filepath.Join(runDir, Slug(model), fmt.Sprintf("%s.r%d.json", taskID, repeat))
}

// JudgePath is the file of a judge transcript.
func JudgePath(runDir, judge, taskID, answerer string, repeat int) string {
	return filepath.Join(runDir, "judges", Slug(judge), fmt.Sprintf("%s.%s.r%d.json", taskID, Slug(answerer), repeat))
}

// Write seals t and stores it atomically under runDir.
func Write(runDir string, t *Transcript) error {
	t.Schema = SchemaVersion
	if err := t.Seal(); err != nil {
		return fmt.Errorf("hashing transcript %s/%s: %w", t.Model, t.TaskID, err)
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(t.Path(runDir), append(b, '\n'))
}

// MaxSize bounds a transcript file. A transcript holds its answer twice
// (the content and reasoning, and the body they came in) besides the prompt, so it is
// bounded in proportion to the largest response the client reads
// (model.MaxResponseSize): every answer the client accepted can be
// archived and verified (issue 20: a 9 MB answer made a transcript over
// the 16 MB document limit that its own hash check refused, and the paid
// answer was lost).
const MaxSize = 3*model.MaxResponseSize + 16<<20

// Withheld is the content, and the body, of an answer the runner withheld
// because, read in its answer format, it spelled the API key: the answer
// is not kept, and it is scored as an answer without a document, with
// that reason.
const Withheld = "[REDACTED: the answer spelled the API key once read in its answer format; the answer is not kept]"

// ErrTampered is returned when a transcript's content does not match its hash.
var ErrTampered = errors.New("transcript does not match its hash")

// Read loads and verifies one transcript file.
func Read(path string) (*Transcript, error) { return read(path, nil) }

// read loads one transcript file and verifies it, unless known holds its
// recorded hash.
func read(path string, known *Known) (*Transcript, error) {
	b, err := regularfile.Read(path, MaxSize)
	if err != nil {
		return nil, fmt.Errorf("%w of a transcript", err)
	}
	var t Transcript
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: not a transcript: %w", path, err)
	}
	if t.Schema != SchemaVersion {
		return nil, fmt.Errorf("%s: /schema: transcript schema %d, this harness reads %d", path, t.Schema, SchemaVersion)
	}
	if known.Has(t.Hash) {
		return &t, nil
	}
	h, err := t.ComputeHash()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if h != t.Hash {
		return nil, fmt.Errorf("%s: /hash: %w (recorded %s, computed %s)", path, ErrTampered, t.Hash, h)
	}
	return &t, nil
}

// Known is a set of transcript hashes that this process computed (it
// wrote the transcript) or checked (it verified it). A run's runner fills
// it and its score phase reads the archive back with it (ReadKnown), so
// that a transcript is hashed once per run rather than twice: at 24,000
// transcripts, hashing them again cost more than scoring them. It is safe
// for concurrent use; the zero Known is empty, and a nil *Known holds
// nothing.
type Known struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]struct{}
}

// Add records hash h (hex, as Transcript.Hash); anything else is ignored.
func (k *Known) Add(h string) {
	var key [sha256.Size]byte
	if k == nil {
		return
	}
	if n, err := hex.Decode(key[:], []byte(h)); err != nil || n != len(key) || len(h) != 2*len(key) {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[[sha256.Size]byte]struct{}{}
	}
	k.m[key] = struct{}{}
}

// Has reports whether h was added.
func (k *Known) Has(h string) bool {
	var key [sha256.Size]byte
	if k == nil || len(h) != 2*len(key) {
		return false
	}
	if n, err := hex.Decode(key[:], []byte(h)); err != nil || n != len(key) {
		return false
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.m[key]
	return ok
}

// Slot is the place a transcript was read from: the run, and the job the
// file's path names. A transcript verifies against its own hash wherever
// it is copied; CheckSlot is what ties it to the slot it sits in.
type Slot struct {
	RunID  string
	Kind   string // KindTask or KindJudge
	Model  string // the answering model, or the judge
	TaskID string
	Repeat int
	// Answerer is, for a judge transcript, the model whose answer it
	// judges; "" for a task transcript.
	Answerer string
}

// String names the slot as run/model/task/r<repeat> (a vote adds "on
// answerer").
func (s Slot) String() string {
	out := fmt.Sprintf("%s/%s/%s/r%d", s.RunID, s.Model, s.TaskID, s.Repeat)
	if s.Kind == KindJudge {
		out = fmt.Sprintf("%s/%s/%s/r%d (vote on %s)", s.RunID, s.Model, s.TaskID, s.Repeat, s.Answerer)
	}
	return out
}

// ErrWrongSlot is returned when a transcript that verifies against its own
// hash belongs to another run, model, task or repeat than the slot it sits
// in: a copied transcript, which would change the score of the slot.
var ErrWrongSlot = errors.New("transcript belongs to another slot")

// CheckSlot reports whether t belongs in slot s; the error names the
// first field that differs by its JSON pointer, and both slots.
func (t *Transcript) CheckSlot(s Slot) error {
	got := Slot{RunID: t.RunID, Kind: t.Kind, Model: t.Model, TaskID: t.TaskID, Repeat: t.Repeat}
	if t.Judged != nil {
		got.Answerer = t.Judged.Model
	}
	var ptr string
	switch {
	case got.RunID != s.RunID:
		ptr = "/run_id"
	case got.Kind != s.Kind:
		ptr = "/kind"
	case got.Model != s.Model:
		ptr = "/model"
	case got.TaskID != s.TaskID:
		ptr = "/task_id"
	case got.Repeat != s.Repeat:
		ptr = "/repeat"
	case s.Kind == KindJudge && t.Judged == nil:
		ptr = "/judged"
	case s.Kind == KindJudge && (t.Judged.Model != s.Answerer || t.Judged.TaskID != s.TaskID || t.Judged.Repeat != s.Repeat):
		ptr = "/judged"
	default:
		return nil
	}
	return fmt.Errorf("%s: %w: it is the transcript of %s, in the slot of %s", ptr, ErrWrongSlot, got, s)
}

// ReadSlot is Read, and CheckSlot against the slot the file sits in.
func ReadSlot(path string, s Slot) (*Transcript, error) { return ReadKnown(path, s, nil) }

// ReadKnown is ReadSlot, except that a transcript whose recorded hash
// known holds is not hashed again: this process wrote or verified a
// transcript with that hash, and CheckSlot still ties it to its slot.
func ReadKnown(path string, s Slot, known *Known) (*Transcript, error) {
	t, err := read(path, known)
	if err != nil {
		return nil, err
	}
	if err := t.CheckSlot(s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// String formats a reference as model/task/r<repeat>; a nil one as "-".
func (r *Ref) String() string {
	if r == nil {
		return "-"
	}
	return fmt.Sprintf("%s/%s/r%d", r.Model, r.TaskID, r.Repeat)
}

// Supersede moves an archived transcript at path out of the way before a
// new call for the same job is written there: a resume asks again for an
// API failure (which is not a result) or a vote on an answer that changed.
// The old file is kept as path + ".superseded-N" (N = 1, 2, ...), which
// ReadAll does not read, so every attempt ever sent stays in the archive
// and no transcript is rewritten. A missing file is not an error.
func Supersede(path string) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	for n := 1; ; n++ {
		dst := fmt.Sprintf("%s.superseded-%d", path, n)
		if _, err := os.Stat(dst); errors.Is(err, os.ErrNotExist) {
			if err := os.Rename(path, dst); err != nil {
				return fmt.Errorf("keeping the superseded transcript: %w", err)
			}
			return nil
		}
	}
}
