package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gowebpki/jcs"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func sample() *Transcript {
	cost := 0.0012
	return &Transcript{
		Kind: KindTask, RunID: "r1", Model: "anthropic/claude-opus-4.8", TaskID: "01-b", Class: "B",
		Hashes:  Hashes{Prompt: "p", Task: "t", Document: "d"},
		Request: Request{Model: "anthropic/claude-opus-4.8", Messages: []Message{{Role: "system", Content: "s"}, {Role: "user", Content: "u"}}, Temperature: ptr(0.0), Seed: ptr(int64(7))},
		Response: &Response{Content: `{"a":1}`, FinishReason: "stop", LatencyMS: 1234,
			Usage: Usage{PromptTokens: 10, CompletionTokens: 5, Cost: &cost}, RawBody: json.RawMessage(`{"id":"x","n":1e2}`)},
		Attempts:  []Attempt{{Number: 1, StartedAt: time.Unix(100, 0).UTC(), DurationMS: 1234, Status: 200}},
		StartedAt: time.Unix(100, 0).UTC(), FinishedAt: time.Unix(101, 0).UTC(),
	}
}

func ptr[T any](v T) *T { return &v }

// TestReadsTranscriptsThatAlwaysSentTemperatureAndSeed: before temperature
// and seed became optional, every transcript held both. Such a file (written
// by that code) must still read, with its recorded hash, and say what was
// sent.
func TestReadsTranscriptsThatAlwaysSentTemperatureAndSeed(t *testing.T) {
	got, err := Read("testdata/v1-always-temperature-seed.json")
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	r := got.Request
	if r.Temperature == nil || *r.Temperature != 0 || r.Seed == nil || *r.Seed != 7 {
		t.Errorf("temperature, seed = %v, %v; want 0 and 7 as recorded", r.Temperature, r.Seed)
	}
	want := sample()
	want.Schema = SchemaVersion
	if err := want.Seal(); err != nil {
		t.Fatal(err)
	}
	if got.Hash != want.Hash {
		t.Errorf("hash of the same call = %s now, %s then", want.Hash, got.Hash)
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	tr := sample()
	if err := Write(dir, tr); err != nil {
		t.Fatal(err)
	}
	got, err := Read(TaskPath(dir, tr.Model, tr.TaskID, 0))
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash != tr.Hash || got.Response.Content != tr.Response.Content || *got.Response.Usage.Cost != 0.0012 {
		t.Errorf("read back differs: %+v", got)
	}
	if !strings.HasSuffix(TaskPath(dir, tr.Model, "01-b", 2), "anthropic_claude-opus-4.8/01-b.r2.json") {
		t.Errorf("path %s", TaskPath(dir, tr.Model, "01-b", 2))
	}
}

// TestHashIgnoresWallClock: two runs that made the same call with the same
// answer have the same hash, whatever the timing.
func TestHashIgnoresWallClock(t *testing.T) {
	a, b := sample(), sample()
	b.StartedAt, b.FinishedAt = time.Now(), time.Now()
	b.Response.LatencyMS = 99
	b.Attempts[0].StartedAt, b.Attempts[0].DurationMS, b.Attempts[0].WaitMS = time.Now(), 5, 7
	ha, _ := a.ComputeHash()
	hb, _ := b.ComputeHash()
	if ha != hb {
		t.Error("timing changed the hash")
	}
	for name, mutate := range map[string]func(*Transcript){
		"content": func(x *Transcript) { x.Response.Content += " " },
		"cost":    func(x *Transcript) { c := 0.5; x.Response.Usage.Cost = &c },
		"unknown": func(x *Transcript) { x.Response.Usage.Cost = nil },
		"seed":    func(x *Transcript) { x.Request.Seed = ptr(int64(8)) },
		"no seed": func(x *Transcript) { x.Request.Seed = nil },
		"parts": func(x *Transcript) {
			x.Request.Messages[0] = Message{Role: "system", Parts: []Part{{Text: "s", Cache: true}}}
		},
		"message":  func(x *Transcript) { x.Request.Messages[1].Content = "v" },
		"status":   func(x *Transcript) { x.Attempts[0].Status = 500 },
		"error":    func(x *Transcript) { x.Error = &CallError{Message: "m"} },
		"raw body": func(x *Transcript) { x.Response.RawBody = json.RawMessage(`{"id":"y"}`) },
	} {
		c := sample()
		mutate(c)
		if h, _ := c.ComputeHash(); h == ha {
			t.Errorf("changing %s did not change the hash", name)
		}
	}
}

func TestTamperDetected(t *testing.T) {
	dir := t.TempDir()
	tr := sample()
	if err := Write(dir, tr); err != nil {
		t.Fatal(err)
	}
	p := TaskPath(dir, tr.Model, tr.TaskID, 0)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `{\"a\":1}`, `{\"a\":2}`, 1)), 0o644)
	_, err := Read(p)
	if !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), p) {
		t.Errorf("Read of an edited transcript = %v, want ErrTampered naming the file", err)
	}
}

func TestUnknownSchemaRefused(t *testing.T) {
	dir := t.TempDir()
	tr := sample()
	Write(dir, tr)
	p := TaskPath(dir, tr.Model, tr.TaskID, 0)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"schema": 1`, `"schema": 9`, 1)), 0o644)
	if _, err := Read(p); err == nil || !strings.Contains(err.Error(), "transcript schema 9, this harness reads 1") {
		t.Errorf("Read = %v", err)
	}
	m := &Manifest{RunID: "r"}
	if err := WriteManifest(dir, m); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadManifest(dir); err != nil || got.RunID != "r" {
		t.Errorf("ReadManifest = %v, %v", got, err)
	}
}

func TestSlug(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{"anthropic/claude-opus-4.8", "anthropic_claude-opus-4.8", "the vendor's slash becomes _, and dots and dashes stay: a model id is one directory"},
		{"offline/oracle", "offline_oracle", "offline models get directories as online ones do"},
		{"a b:c", "a_b_c", "a space and a colon, which some file systems refuse, become _"},
	}) {
		if got := Slug(c.in); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q (%s)", c.in, got, c.want, c.reason)
		}
	}
}

// TestHashMatchesJCS: the content hash is sha2-256 of the RFC 8785 form
// that gowebpki/jcs (the oracle) makes of the transcript's JSON, for
// transcripts with the shapes that stress canonicalization: non-ASCII and
// control characters, surrogate pairs, escapes, costs and other floats,
// large integers, empty objects and arrays, raw bodies of any JSON.
func TestHashMatchesJCS(t *testing.T) {
	cost := 0.000123456789
	tiny, huge := 5e-324, 1e21
	temp := 0.7
	seed := int64(1) << 53
	bodies := []string{`{}`, `[]`, `{"a":[1,2.50,-0,1E400]}`, `"\u00e9\ud83d\ude00\u2028"`, `{"z":1,"é":2,"\ud800\udc00":3,"a":null}`, `{"n":123456789012345678901234567890}`}
	for i, body := range bodies {
		tr := &Transcript{
			Schema: SchemaVersion, Kind: KindTask, RunID: "r", Model: "vendor/ünïcode", TaskID: "01-b", Class: "B", Repeat: i,
			Request: Request{Model: "m", Messages: []Message{{Role: "user", Content: "tab\\t\t nl\n quote\" <b>&amp; \u0007 \u00ad 😀"}},
				Temperature: &temp, Seed: &seed},
			Response: &Response{Content: "{\"blocks\": []}\r\n", FinishReason: "stop",
				Usage: Usage{PromptTokens: 1 << 40, Cost: []*float64{&cost, &tiny, &huge, nil, &cost, &tiny}[i]}, RawBody: json.RawMessage(body)},
			Attempts: []Attempt{{Number: 1, Status: 200, Error: "ünï\x1f"}},
		}
		if !json.Valid([]byte(body)) {
			continue
		}
		got, err := tr.ComputeHash()
		c := *tr
		b, _ := json.Marshal(&c)
		canon, jerr := jcs.Transform(b)
		if (err != nil) != (jerr != nil) {
			t.Fatalf("body %s: our error %v, jcs's %v: one refuses what the other hashes", body, err, jerr)
		}
		if err != nil {
			continue
		}
		sum := sha256.Sum256(canon)
		if want := hex.EncodeToString(sum[:]); got != want {
			t.Errorf("body %s: hash %s, jcs gives %s", body, got, want)
		}
	}
}

// TestReadKnownHashesOnlyTheUnknown: ReadKnown skips the hash check of a
// transcript whose recorded hash this process wrote (Known), and verifies
// every other one as ReadSlot does; it still checks the slot.
func TestReadKnownHashesOnlyTheUnknown(t *testing.T) {
	dir := t.TempDir()
	tr := sample()
	if err := Write(dir, tr); err != nil {
		t.Fatal(err)
	}
	p := TaskPath(dir, tr.Model, tr.TaskID, 0)
	slot := Slot{RunID: tr.RunID, Kind: KindTask, Model: tr.Model, TaskID: tr.TaskID}
	b, _ := os.ReadFile(p)
	// An edit that keeps the recorded hash: only a hash check finds it.
	os.WriteFile(p, []byte(strings.Replace(string(b), `{\"a\":1}`, `{\"a\":2}`, 1)), 0o644)
	var known Known
	if _, err := ReadKnown(p, slot, &known); !errors.Is(err, ErrTampered) {
		t.Errorf("ReadKnown with an empty set = %v, want ErrTampered", err)
	}
	if _, err := ReadKnown(p, slot, nil); !errors.Is(err, ErrTampered) {
		t.Errorf("ReadKnown with no set = %v, want ErrTampered", err)
	}
	known.Add("not a hash")
	known.Add(tr.Hash)
	got, err := ReadKnown(p, slot, &known)
	if err != nil || got.Hash != tr.Hash {
		t.Errorf("ReadKnown of a known hash = %v, %v; want it read without hashing", got, err)
	}
	other := slot
	other.Repeat = 1
	if _, err := ReadKnown(p, other, &known); err == nil {
		t.Error("ReadKnown of a known hash in another slot succeeded; the slot must still be checked")
	}
}
