package model_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/model"
	"bendscript.com/round-trip-harness/model/modeltest"
)

// costReply is a good answer whose usage reports cost usd.
func costReply(usd float64) modeltest.Reply {
	return modeltest.Reply{Content: "ok", Usage: &modeltest.Usage{PromptTokens: 1, CompletionTokens: 1, Cost: &usd}}
}

// TestAbsurdOrNegativeCostNeverTaken: a server that reported a cost of
// 1e308 per answer made the run's total +Inf, which no report can encode;
// one that reported -1 let every request past --max-cost. Both are named
// in usage.unread and the cost is unknown, never taken.
func TestAbsurdOrNegativeCostNeverTaken(t *testing.T) {
	for _, usd := range []float64{1e308, -1, model.MaxCallCost * 2} {
		srv := modeltest.NewScripted(t, costReply(usd))
		c, _ := newClient(srv)
		resp, err := c.Complete(context.Background(), request())
		if err != nil {
			t.Fatal(err)
		}
		if resp.Usage.Cost != nil || !slices.ContainsFunc(resp.Usage.Unread, func(s string) bool { return strings.HasPrefix(s, "cost: ") }) {
			t.Errorf("cost %g: Usage.Cost %v, unread %q; want no cost and the value named", usd, resp.Usage.Cost, resp.Usage.Unread)
		}
	}
}

// TestHugeTokenCountsNeverTaken: three prompt_tokens of 2^63-1 summed to
// 9223372036854775805; a count beyond MaxTokenCount is unread, so no sum
// of counts can overflow.
func TestHugeTokenCountsNeverTaken(t *testing.T) {
	srv := modeltest.NewScripted(t, modeltest.OddUsage("ok", `{"prompt_tokens": 9223372036854775807, "completion_tokens": 1099511627777}`))
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage.PromptTokens != 0 || resp.Usage.CompletionTokens != 0 || len(resp.Usage.Unread) != 2 {
		t.Errorf("usage %+v; want both counts unread", resp.Usage)
	}
}

// TestRetriedPaidAttemptsAllCounted: three 200 responses without choices
// at $0.50 each, then a good answer at $0.50, were counted as $0.50: only
// the last attempt's charge was kept.
func TestRetriedPaidAttemptsAllCounted(t *testing.T) {
	half := 0.5
	noChoices := modeltest.Reply{Body: `{"id":"g","object":"chat.completion","model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"cost":0.5}}`}
	srv := modeltest.NewScripted(t, noChoices, noChoices, costReply(half))
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage.Cost == nil || *resp.Usage.Cost != 1.5 || len(resp.Attempts) != 3 {
		t.Errorf("cost %v after %d attempts; want 1.5 after 3", resp.Usage.Cost, len(resp.Attempts))
	}
	// A call that fails after paid attempts still carries their cost.
	srv = modeltest.NewScripted(t, noChoices)
	c, _ = newClient(srv, model.WithMaxRetries(1))
	resp, err = c.Complete(context.Background(), request())
	if err == nil || resp.Usage.Cost == nil || *resp.Usage.Cost != 1.0 {
		t.Errorf("failed call: err %v, cost %v; want an error and a cost of 1.0", err, resp.Usage.Cost)
	}
}

// TestKeyEscapedInAnswerNeverShown: a server echoed the key inside the
// answer's own JSON, escaped (sk\u002dor…), so the body spelled it
// \\u002d: the redaction decoded the body one level, scoring decoded the
// answer again, and the viewer's diff and `harness show` printed the key.
// Every level is redacted; a body that still spells the key where no
// literal holds it is not kept at all.
func TestKeyEscapedInAnswerNeverShown(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct{ format, reason string }{
		{`{"title": "%s"}`, "the key in a string of the answer's JSON"},
		{`{"a": "{\"b\": \"%s\"}"}`, "the key in a string inside a string of the answer"},
		{`he said "x" and %s"`, "the key outside any well-formed literal"},
	}) {
		format := c.format
		srv := modeltest.NewServer(t, func(_ int, req modeltest.ChatRequest) modeltest.Reply { return modeltest.NestedKeyEcho(req, format) })
		c2, _ := newClient(srv, model.WithMaxRetries(0))
		resp, _ := c2.Complete(context.Background(), request())
		for _, s := range []string{resp.Content, string(resp.RawBody)} {
			if decodedSpellsKey(s) {
				t.Errorf("%s: %q spells the key once decoded", c.reason, s)
			}
		}
	}
}

// decodedSpellsKey decodes s as JSON, and each string in it again, four
// levels deep, and reports whether any level holds testKey.
func decodedSpellsKey(s string) bool {
	for range 5 {
		if strings.Contains(s, testKey) {
			return true
		}
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			// Not JSON: decode the escapes of each quoted part.
			q, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
			if err != nil || q == s {
				return false
			}
			s = q
			continue
		}
		b, _ := json.Marshal(v)
		var all []string
		collectStrings(v, &all)
		s = string(b) + "\n" + strings.Join(all, "\n")
		if !strings.Contains(s, `\`) && !strings.Contains(s, testKey) {
			return false
		}
	}
	return strings.Contains(s, testKey)
}

// collectStrings appends every string of v.
func collectStrings(v any, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, x)
	case []any:
		for _, e := range x {
			collectStrings(e, out)
		}
	case map[string]any:
		for _, e := range x {
			collectStrings(e, out)
		}
	}
}

// TestServerStringsCapped: ten 10 MB provider names made 190 MB of every
// report format and of the terminal output (1.56 GB RSS), and 5 MB error
// messages went whole into progress lines and the HTML.
func TestServerStringsCapped(t *testing.T) {
	huge := strings.Repeat("p", 100<<10) // far over both caps; the probe sent 10 MB
	srv := modeltest.NewScripted(t, modeltest.Reply{Content: "ok", Provider: huge, Model: huge, ID: huge})
	c, _ := newClient(srv)
	resp, err := c.Complete(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]string{"provider": resp.Provider, "model": resp.ModelServed, "id": resp.ID} {
		if len(s) > model.MaxName+64 {
			t.Errorf("%s is %d bytes, want at most about %d", name, len(s), model.MaxName)
		}
	}
	srv = modeltest.NewScripted(t, modeltest.Reply{Status: 400, Error: &modeltest.ErrorObject{Code: 400, Message: huge,
		Metadata: map[string]any{"provider_name": huge, "raw": huge}}})
	c, _ = newClient(srv)
	_, err = c.Complete(context.Background(), request())
	if err == nil || len(err.Error()) > 3*model.MaxMessage {
		t.Errorf("error of %d bytes, want at most about %d", len(err.Error()), model.MaxMessage)
	}
}

// TestDotEnvSymlinkToDeviceRefused: a .env that was a symlink to
// /dev/zero killed every command with "fatal error: out of memory".
func TestDotEnvSymlinkToDeviceRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, ".env")); err != nil {
		t.Skip(err)
	}
	t.Chdir(dir)
	t.Setenv(model.EnvAPIKey, "")
	if _, err := model.APIKeyFromEnv(); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("APIKeyFromEnv = %v; want not a regular file", err)
	}
}
