package jobs_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/jobs"
	"bendscript.com/round-trip-harness/runner"
	"bendscript.com/round-trip-harness/suites/relay"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
	"bendscript.com/round-trip-harness/transcript"
)

// relaySteps is the chain length of these tests: one full cycle.
const relaySteps = 4

// relaySet returns the relay tasks of the embedded corpus.
func relaySet(t *testing.T) *task.Set {
	t.Helper()
	set, skipped, err := relay.Build(tasktest.Set(t), relaySteps)
	if err != nil || len(skipped) > 0 {
		t.Fatalf("relay.Build: %v, skipped %q", err, skipped)
	}
	return set
}

// stepAnswer is model m's archived answer to relay task id in repeat r.
func stepAnswer(m, id string, r int, content string) *transcript.Transcript {
	return &transcript.Transcript{Kind: transcript.KindTask, Model: m, TaskID: id, Repeat: r,
		Response: &transcript.Response{Content: content, FinishReason: "stop"}}
}

// TestRelayFirst: every chain starts at step 1, once per model and
// repeat, given the corpus document itself; an archived step 1 is kept
// only if it was given that document.
func TestRelayFirst(t *testing.T) {
	set := relaySet(t)
	models := []string{"z/last", "a/first"}
	r := jobs.NewChains(set, loadPrompts(t), models, 2, nil, "run")
	first := r.First()
	var want []string
	for _, m := range models {
		for _, d := range set.Documents {
			for rep := range 2 {
				want = append(want, fmt.Sprintf("%s %s r%d", m, relay.TaskID(d.Name[:2], 1), rep))
			}
		}
	}
	if got := keys(first); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("first jobs:\n%q\nwant (by model, document, repeat)\n%q", got, want)
	}
	for _, j := range first {
		src := set.Task(j.Record.TaskID).Source
		if !bytes.Equal(j.Request.Document, src.Bytes) || j.Record.Hashes.Document != src.Hash || j.Counted {
			t.Errorf("%s: not given the corpus document (or counted)", key(j))
		}
		if !j.Keep(&transcript.Transcript{Hashes: transcript.Hashes{Document: src.Hash}}) ||
			j.Keep(&transcript.Transcript{Hashes: transcript.Hashes{Document: "other"}}) {
			t.Errorf("%s: Keep does not keep exactly the answers given the same document", key(j))
		}
	}
	later := r.Later()
	per := len(set.Documents) * (relaySteps - 1) * 2
	if !maps.Equal(later, map[string]int{"z/last": per, "a/first": per}) {
		t.Errorf("Later() = %v, want %d per model (steps 2..%d of every chain and repeat)", later, per, relaySteps)
	}
}

// TestRelayThenGivesTheModelsAnswer: step s+1 is asked with the document
// the model returned at step s, not with the task's expected source, for
// the same model and repeat; it is counted (Later planned it).
func TestRelayThenGivesTheModelsAnswer(t *testing.T) {
	set := relaySet(t)
	prompts := loadPrompts(t)
	params := map[string]jobs.Params{"a/alpha": {Seed: new(int64(100)), MaxTokens: 900}}
	r := jobs.NewChains(set, prompts, []string{"a/alpha"}, 2, params, "run")
	d := set.Documents[0]
	nn := d.Name[:2]
	// The model made no edit at step 1: it hands on the corpus document,
	// which is not what an exact model would have given step 2.
	returned := string(d.Bytes)
	if bytes.Equal(set.Task(relay.TaskID(nn, 2)).Source.Bytes, d.Bytes) {
		t.Fatal("step 2's source is the corpus document: the test could not tell them apart")
	}
	jobs := r.Then(runner.Result{Transcript: stepAnswer("a/alpha", relay.TaskID(nn, 1), 1, returned)})
	if len(jobs) != 1 {
		t.Fatalf("%d jobs after step 1, want step 2", len(jobs))
	}
	j := jobs[0]
	if j.Model != "a/alpha" || j.Record.TaskID != relay.TaskID(nn, 2) || j.Record.Repeat != 1 || !j.Counted {
		t.Errorf("next job %s (counted %v), want a/alpha %s r1, counted", key(j), j.Counted, relay.TaskID(nn, 2))
	}
	sum := sha256.Sum256(d.Bytes)
	given := hex.EncodeToString(sum[:])
	if !bytes.Equal(j.Request.Document, d.Bytes) || j.Record.Hashes.Document != given {
		t.Errorf("step 2 is not given the model's answer")
	}
	if user := j.Request.Messages[1].Text(); !strings.Contains(user, strings.TrimRight(returned, "\n")) {
		t.Errorf("the prompt of step 2 does not carry the model's answer")
	}
	if j.Request.Seed == nil || *j.Request.Seed != 101 || j.Request.MaxTokens != 900 {
		t.Errorf("seed %v, max tokens %d; want the model's params (seed 100+repeat, 900)", j.Request.Seed, j.Request.MaxTokens)
	}
	if !j.Keep(&transcript.Transcript{Hashes: transcript.Hashes{Document: given}}) ||
		j.Keep(&transcript.Transcript{Hashes: transcript.Hashes{Document: set.Task(relay.TaskID(nn, 2)).Source.Hash}}) {
		t.Error("a resumed step 2 is kept on another document than the one the model returned")
	}
}

// TestRelayThenEndsChain: only an answered step with a document and a
// step after it goes on; anything else asks nothing more.
func TestRelayThenEndsChain(t *testing.T) {
	set := relaySet(t)
	r := jobs.NewChains(set, loadPrompts(t), []string{"a/alpha"}, 1, nil, "run")
	doc := string(set.Documents[0].Bytes)
	failed := stepAnswer("a/alpha", "01-s01", 0, doc)
	failed.Error = &transcript.CallError{Code: "timeout", Message: "timed out"} // the partial response kept
	judged := stepAnswer("a/alpha", "01-s01", 0, doc)
	judged.Kind = transcript.KindJudge
	tests := []struct {
		name   string
		tr     *transcript.Transcript
		want   int
		reason string
	}{
		{"document", stepAnswer("a/alpha", "01-s01", 0, doc), 1, "the chain goes on"},
		{"fenced document", stepAnswer("a/alpha", "01-s02", 0, "Here it is:\n```json\n"+doc+"```\n"), 1, "a fenced document is a document"},
		{"no document", stepAnswer("a/alpha", "01-s01", 0, "I cannot do that."), 0, "an answer without a document ends the chain"},
		{"blocks not an array", stepAnswer("a/alpha", "01-s01", 0, `{"blocks": 3}`), 0, "not a document"},
		{"last step", stepAnswer("a/alpha", relay.TaskID("01", relaySteps), 0, doc), 0, "the chain is done"},
		{"API failure", failed, 0, "left for a resume to ask again, even with a response"},
		{"judge transcript", judged, 0, "only answers hand documents on"},
		{"not a relay task", stepAnswer("a/alpha", "01-b", 0, doc), 0, "single tasks have no next step"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		if got := r.Then(runner.Result{Transcript: tt.tr}); len(got) != tt.want {
			t.Errorf("%s: %d jobs, want %d (%s)", tt.name, len(got), tt.want, tt.reason)
		}
	}
}

// TestReturned: the document an answer hands on is its JSON object with
// a "blocks" array, bare or fenced, rewritten as bend.Marshal writes it
// and hashed over those bytes; anything else hands on nothing.
func TestReturned(t *testing.T) {
	d := tasktest.Set(t).Documents[0]
	var compact bytes.Buffer
	if err := json.Compact(&compact, d.Bytes); err != nil {
		t.Fatal(err)
	}
	found := []struct {
		name, content, reason string
	}{
		{"bare", string(d.Bytes), "the answer is the document"},
		{"fenced with prose", "Done.\n\n```json\n" + string(d.Bytes) + "```\nAnything else?", "prose around one fence"},
		{"compact", compact.String(), "the next step sees the document as bend.Marshal writes it, not as the model laid it out"},
	}
	for _, tt := range tabletest.Cases(t, found) {
		got := jobs.Returned("", nil, tt.content)
		if got == nil {
			t.Errorf("%s: no document (%s)", tt.name, tt.reason)
			continue
		}
		sum := sha256.Sum256(got.Bytes)
		if !bytes.Equal(got.Bytes, d.Bytes) || got.Hash != hex.EncodeToString(sum[:]) || !bytes.Equal(bend.Marshal(got.Doc), got.Bytes) {
			t.Errorf("%s: %d bytes, hash %s; want the corpus file's bytes and their hash (%s)", tt.name, len(got.Bytes), got.Hash, tt.reason)
		}
	}
	none := []struct {
		name, content, reason string
	}{
		{"empty", "", "no answer"},
		{"prose", "I would rather not.", "no JSON"},
		{"no blocks", `{"id": "doc", "title": "x"}`, "an object without blocks is no document"},
		{"blocks not an array", `{"blocks": {"blk-1": {}}}`, "blocks must be an array"},
		{"array", `[{"blocks": []}]`, "the document is an object"},
		{"fenced not JSON", "```json\n{\"blocks\": [\n```", "a broken fence"},
	}
	for _, tt := range tabletest.Cases(t, none) {
		if got := jobs.Returned("", nil, tt.content); got != nil {
			t.Errorf("%s: a document of %d bytes, want none (%s)", tt.name, len(got.Bytes), tt.reason)
		}
	}
}

// dropped is a runner.Progress that keeps what was taken off each
// model's total.
type dropped map[string]int

func (d dropped) Add(model string, n int) { d[model] -= n }
func (d dropped) Done(runner.Result)      {}

// TestChainsEndedTakesStepsOff: a chain that ends early takes exactly
// its later steps, of its own lane, off its model's progress total: an
// answer without a document at step 1 its 3 later steps, an API failure
// at step 2 of the JSON Patch lane its 2; a chain that goes on or is done
// takes nothing off.
func TestChainsEndedTakesStepsOff(t *testing.T) {
	set := relaySet(t).WithFormats([]string{"", "json-patch"}) // "": the document lane
	doc := string(set.Documents[0].Bytes)
	failed := stepAnswer("a/alpha", task.FormatID("01-s02", "json-patch"), 1, "")
	failed.Error = &transcript.CallError{Code: "timeout", Message: "timed out"}
	for _, c := range tabletest.Cases(t, []struct {
		name   string
		tr     *transcript.Transcript
		want   int
		reason string
	}{
		{"no document", stepAnswer("a/alpha", "01-s01", 0, "I cannot do that."), relaySteps - 1, "the chain ends at step 1: its later steps are not asked"},
		{"API failure", failed, relaySteps - 2, "the JSON Patch lane's chain waits for a resume from step 2: steps 3 and 4 of that lane only"},
		{"goes on", stepAnswer("a/alpha", "01-s01", 0, doc), 0, "the next step is asked: nothing comes off"},
		{"done", stepAnswer("a/alpha", relay.TaskID("01", relaySteps), 0, doc), 0, "the last step ends the chain as planned"},
	}) {
		d := dropped{}
		r := jobs.NewChains(set, loadPrompts(t), []string{"a/alpha"}, 2, nil, "run").WithProgress(d)
		r.Then(runner.Result{Transcript: c.tr})
		if d["a/alpha"] != c.want || len(d) > 1 {
			t.Errorf("%s: took %v off; want %d off a/alpha (%s)", c.name, d, c.want, c.reason)
		}
	}
}
