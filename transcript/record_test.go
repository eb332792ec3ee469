package transcript

import (
	"encoding/json"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/model"
)

// TestResponseKeepsWhatTheWireSaid: the archived response keeps, outside
// the raw body, what recorded traffic shows the live API sends and the
// reports need: the upstream's native finish reason, the reasoning text
// and the cache-write tokens (issue 52; pydantic-ai's
// test_openrouter_cache_all_settings_real_api.yaml recorded
// native_finish_reason "length" with cache_write_tokens 79). A
// transcript that has neither reads and hashes as before (omitted).
func TestResponseKeepsWhatTheWireSaid(t *testing.T) {
	r := ResponseOf(&model.Response{Content: "x", FinishReason: "length", NativeFinishReason: "max_tokens", Reasoning: "first the title",
		Usage: model.Usage{PromptTokens: 4000, CompletionTokens: 20, CacheWriteTokens: 79}})
	if r.NativeFinishReason != "max_tokens" || r.Reasoning != "first the title" || r.Usage.CacheWriteTokens != 79 {
		t.Errorf("response %+v: want native finish reason, reasoning and cache-write tokens kept", r)
	}
	old := sample()
	before, err := old.ComputeHash()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(old.Response)
	if strings.Contains(string(b), "native_finish_reason") || strings.Contains(string(b), `"reasoning"`) {
		t.Errorf("a response without them writes them: %s", b)
	}
	old.Response.NativeFinishReason = "end_turn"
	if after, _ := old.ComputeHash(); after == before {
		t.Error("the native finish reason is not hashed: a transcript could be changed unseen")
	}
}
