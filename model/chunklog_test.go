package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestStreamRecordKeepsWhatIsNotContent: the record of a stream (its raw
// body) keeps as they arrived the first and last chunks and every chunk
// that differs from its neighbours in more than its content, and joins
// the runs of content-only chunks; the answer read from the record is
// the stream's, and a stream cut short keeps its last chunk as it came.
func TestStreamRecordKeepsWhatIsNotContent(t *testing.T) {
	for _, tc := range tabletest.Cases(t, []struct {
		name   string
		chunks []string
		want   []string // the record: "=" a chunk as it arrived, "+N" N joined
		reason string
	}{
		{"runs", []string{
			`{"id":"g","choices":[{"index":0,"delta":{"role":"assistant","content":"a"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"role":"assistant","content":"b"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"role":"assistant","content":"c"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"role":"assistant","content":"d","reasoning":"r"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"role":"assistant","content":"e"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"role":"assistant","content":"f"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}]}`,
			`{"id":"g","choices":[],"usage":{"prompt_tokens":1}}`,
		}, []string{"=", "+2", "=", "+2", "=", "="}, "a chunk carrying reasoning ends a run; the finish and usage chunks stay"},
		{"cut short", []string{
			`{"id":"g","choices":[{"index":0,"delta":{"content":"a"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"content":"b"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"content":"c"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"content":"d"}}]}`,
		}, []string{"=", "+2", "="}, "the stream's last chunk stays as it arrived"},
		{"another id", []string{
			`{"id":"g","choices":[{"index":0,"delta":{"content":"a"}}]}`,
			`{"id":"g","choices":[{"index":0,"delta":{"content":"b"}}]}`,
			`{"id":"h","choices":[{"index":0,"delta":{"content":"c"}}]}`,
			`not json`,
		}, []string{"=", "=", "=", "="}, "a chunk of another id is not joined with the run before it; a chunk that is not JSON stays"},
	}) {
		var l chunkLog
		var content strings.Builder
		for i, c := range tc.chunks {
			l.add([]byte(c), int64(i))
			var ch wireChunk
			if json.Unmarshal([]byte(c), &ch) == nil && len(ch.Choices) == 1 && ch.Choices[0].Delta.Content != nil {
				content.WriteString(*ch.Choices[0].Delta.Content)
			}
		}
		rec := l.chunks()
		var got []string
		for _, c := range rec {
			var m struct {
				Merged *MergedChunk `json:"harness_merged"`
			}
			switch {
			case json.Unmarshal(c, &m) == nil && m.Merged != nil:
				got = append(got, fmt.Sprintf("+%d", m.Merged.Chunks))
			case slices.Contains(tc.chunks, string(c)):
				got = append(got, "=")
			default:
				got = append(got, "?"+string(c))
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: the record is %v, want %v (%s)", tc.name, got, tc.want, tc.reason)
		}
		r, _ := interpretStream(exchange{body: chunkArray(rec), sse: true, status: 200})
		if r == nil || r.Content != content.String() {
			t.Errorf("%s: the record reads as %+v, want content %q (%s)", tc.name, r, content.String(), tc.reason)
		}
	}
}

// TestFinishAfterCutErrorKept: once an error follows a "length" finish
// (recorded: "Token limit reached"), the answer is the one cut off at
// the output budget, whether the error comes at the top level or in the
// choice, each with the documented finish reason "error", and a finish
// reason a later chunk still sends does not replace the provider's
// native reason for the cut.
func TestFinishAfterCutErrorKept(t *testing.T) {
	const (
		cut  = `{"id":"gen-1","model":"m","choices":[{"delta":{"content":"partial"},"finish_reason":"length","native_finish_reason":"max_tokens"}]}`
		late = `{"id":"gen-1","model":"m","choices":[{"delta":{},"finish_reason":"stop","native_finish_reason":"end_turn"}]}`
	)
	for _, tc := range tabletest.Cases(t, []struct {
		name, errChunk, reason string
	}{
		{"top level", `{"id":"gen-1","model":"m","error":{"code":400,"message":"Token limit reached"},"choices":[{"delta":{},"finish_reason":"error"}]}`,
			"OpenRouter's documented mid-stream error: the error at the top level, the choice finishing with error"},
		{"in the choice", `{"id":"gen-1","model":"m","choices":[{"delta":{},"finish_reason":"error","error":{"code":400,"message":"Token limit reached"}}]}`,
			"the error in the choice beside its finish reason error: after length all the same"},
	}) {
		r, apiErr := interpretStream(exchange{body: []byte("[" + cut + "," + tc.errChunk + "," + late + "]"), sse: true, status: 200})
		if r == nil || apiErr != nil {
			t.Errorf("%s: read %+v, error %v; want an answer (%s)", tc.name, r, apiErr, tc.reason)
			continue
		}
		if r.Content != "partial" || r.FinishReason != "length" || r.NativeFinishReason != "max_tokens" {
			t.Errorf("%s: read content %q, finish %q (native %q); want the answer cut off: partial, length (max_tokens) (%s)", tc.name, r.Content, r.FinishReason, r.NativeFinishReason, tc.reason)
		}
	}
}
