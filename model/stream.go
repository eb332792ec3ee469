package model

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"bendscript.com/round-trip-harness/internal/safetext"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// Every chat call streams. OpenRouter bills a non-streaming request in
// full even when the client gives up on it, and stops generation and
// billing when a stream is closed (api_reference/streaming.mdx): with a
// total attempt timeout, an answer that takes longer than the timeout was
// paid, discarded and asked again. A stream is bounded instead by an idle
// timeout (no byte, keep-alive comments included), so a long answer that
// keeps arriving completes, and a silent one is closed.

// errIdle is the cause of an attempt closed by its idle timeout.
var errIdle = errors.New("idle timeout")

// idleWatch calls its func once no byte has arrived for d; touch restarts
// the wait. A zero d never fires.
type idleWatch struct {
	d time.Duration
	t *time.Timer
}

func newIdleWatch(d time.Duration, fire func()) *idleWatch {
	w := &idleWatch{d: d}
	if d > 0 {
		w.t = time.AfterFunc(d, fire)
	}
	return w
}

func (w *idleWatch) touch() {
	if w.t != nil {
		w.t.Reset(w.d)
	}
}

func (w *idleWatch) stop() {
	if w.t != nil {
		w.t.Stop()
	}
}

// watchedBody counts every byte read as life, and keeps a copy of a body
// that is not an event stream (an error status, a JSON body) in tee.
type watchedBody struct {
	rc  io.ReadCloser
	w   *idleWatch
	mu  *sync.Mutex
	tee *bytes.Buffer // nil for an event stream
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.touch()
		if b.tee != nil {
			b.mu.Lock()
			b.tee.Write(p[:n])
			b.mu.Unlock()
		}
	}
	return n, err
}

func (b *watchedBody) Close() error { return b.rc.Close() }

// eventStream reports whether a Content-Type is text/event-stream.
func eventStream(h http.Header) bool {
	mt, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return mt == "text/event-stream"
}

// streamAttempt makes one streamed chat attempt with the SDK's streaming
// API. An event stream's data events are kept as a JSON array of the
// chunks as they arrived (the error event included), in exchange.body
// with sse set; any other body (an error status, a server that answered
// with plain JSON) is kept as it arrived. The attempt is closed when no
// byte arrives for the idle timeout, and when ctx ends: closing the
// stream is what stops generation and billing.
func (c *config) streamAttempt(ctx context.Context, chat *openai.ChatCompletionService, params openai.ChatCompletionNewParams) (exchange, *APIError) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watch := newIdleWatch(c.idleTimeout, func() { cancel(errIdle) })
	defer watch.stop()
	var (
		res *http.Response
		mu  sync.Mutex
		tee bytes.Buffer
	)
	mw := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		if resp != nil && resp.Body != nil {
			watch.touch()
			b := &watchedBody{rc: resp.Body, w: watch, mu: &mu}
			if !eventStream(resp.Header) || resp.StatusCode >= 400 {
				b.tee = &tee
			}
			resp.Body = b
		}
		return resp, err
	})
	start := time.Now()
	stream := chat.NewStreaming(actx, params, mw, option.WithResponseInto(&res))
	var log chunkLog
	for stream.Next() {
		log.add([]byte(strings.TrimSpace(stream.Current().RawJSON())), time.Since(start).Milliseconds())
	}
	err := stream.Err()
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		// OpenRouter's mid-stream error event: the chunk that carries it is
		// read like any other, and its error object decides.
		log.add(bytes.TrimSpace(se.Event.Data), time.Since(start).Milliseconds())
		err = nil
	}
	chunks := log.chunks()
	stream.Close()
	var ex exchange
	ex.durationMS = time.Since(start).Milliseconds()
	if res != nil {
		ex.status, ex.header = res.StatusCode, res.Header
	}
	mu.Lock()
	teed := bytes.Clone(tee.Bytes())
	mu.Unlock()
	if ex.status != 0 && eventStream(ex.header) && ex.status < 400 {
		ex.sse = true
		ex.body = c.redactBody(chunkArray(chunks))
		c.redactAssembled(&ex)
		ex.genID, ex.provider = firstChunkID(ex.body)
	} else {
		ex.body = c.redactBody(teed)
		// A server that answered with plain JSON names the generation
		// and the provider in the body, as a stream's first chunk does.
		ex.genID, ex.provider = bodyID(ex.body)
	}
	switch {
	case ex.status >= 400:
		return ex, httpError(ex)
	case err == nil:
		return ex, nil
	case errors.Is(context.Cause(actx), errIdle) && ctx.Err() == nil:
		return ex, (&APIError{Status: ex.status, Code: CodeIdle, Message: fmt.Sprintf("no byte for %v: the stream was closed", c.idleTimeout)}).classified()
	case ctx.Err() != nil:
		return ex, (&APIError{Status: ex.status, Code: CodeTransport, Message: "interrupted: " + ctx.Err().Error()}).classified()
	case errors.Is(err, ErrResponseTooLarge) || errors.Is(err, bufio.ErrTooLong):
		return ex, (&APIError{Status: ex.status, Code: CodeTooLarge, Message: ErrResponseTooLarge.Error()}).classified()
	case ex.status == 200:
		// The body broke mid-stream, or a chunk was not JSON.
		return ex, (&APIError{Status: ex.status, Code: CodeTransport, Message: safetext.Cap(c.redact(err.Error()), MaxMessage)}).classified()
	}
	return ex, c.transportError(err)
}

// chunkArray joins chunks into one JSON array; a chunk that is not JSON
// is kept as a JSON string, so the array is always JSON.
func chunkArray(chunks [][]byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, ch := range chunks {
		if i > 0 {
			b.WriteByte(',')
		}
		if json.Valid(ch) {
			b.Write(ch)
		} else {
			q, _ := json.Marshal(string(ch))
			b.Write(q)
		}
	}
	b.WriteByte(']')
	return b.Bytes()
}

// firstChunkID returns the id and provider of the first chunk of a chunk
// array: the generation id of the attempt, known from its first chunk
// whatever happens after.
func firstChunkID(array []byte) (id, provider string) {
	var chunks []struct {
		ID       json.RawMessage `json:"id"`
		Provider json.RawMessage `json:"provider"`
	}
	if json.Unmarshal(array, &chunks) != nil {
		return "", ""
	}
	for _, ch := range chunks {
		if id == "" {
			id = safetext.Cap(rawText(ch.ID), MaxName)
		}
		if provider == "" {
			provider = safetext.Cap(rawText(ch.Provider), MaxName)
		}
	}
	return id, provider
}

// bodyID returns the id and provider of a plain JSON body; "" for what
// it does not name (an error body names neither).
func bodyID(body []byte) (id, provider string) {
	var b struct {
		ID       json.RawMessage `json:"id"`
		Provider json.RawMessage `json:"provider"`
	}
	if json.Unmarshal(body, &b) != nil {
		return "", ""
	}
	return safetext.Cap(rawText(b.ID), MaxName), safetext.Cap(rawText(b.Provider), MaxName)
}

// wireChunk is the part of a chat.completion.chunk the client reads,
// leniently as wireChat is.
type wireChunk struct {
	ID       json.RawMessage `json:"id"`
	Model    json.RawMessage `json:"model"`
	Provider json.RawMessage `json:"provider"`
	Choices  []struct {
		Delta struct {
			Content          *string         `json:"content"`
			Reasoning        json.RawMessage `json:"reasoning"`
			ReasoningDetails json.RawMessage `json:"reasoning_details"`
		} `json:"delta"`
		FinishReason       *string    `json:"finish_reason"`
		NativeFinishReason *string    `json:"native_finish_reason"`
		Error              *wireError `json:"error"`
	} `json:"choices"`
	Usage json.RawMessage `json:"usage"`
	Error *wireError      `json:"error"`
}

// interpretStream assembles a streamed answer from its chunk array: the
// deltas' content and reasoning joined, the last finish reason and usage,
// the first id, model and provider. An error object, at the top level or
// in a choice, fails the attempt as it fails a body; a stream that ended
// without a finish reason was cut short (retried), or blank when nothing
// arrived (retried, not billed).
func interpretStream(ex exchange) (*Response, *APIError) {
	var chunks []json.RawMessage
	if err := json.Unmarshal(ex.body, &chunks); err != nil {
		return nil, (&APIError{Status: ex.status, Code: CodeBadResponse, Message: "stream is not a chunk array: " + err.Error()}).classified()
	}
	st := &streamState{r: &Response{}}
	for _, raw := range chunks {
		st.chunk(raw)
	}
	return st.result(ex)
}

// streamState is what interpretStream gathers from the chunks so far.
type streamState struct {
	r                  *Response
	content, reasoning strings.Builder
	failure            *wireError
	unreadable         int
	// afterLength is set when the failure came after the answer had
	// finished with "length": the provider's word on the cut, not a
	// failure of the request.
	afterLength bool
}

// chunk takes one chunk of the array: an unreadable one is counted, a
// readable one adds its names, usage, error and first choice.
func (st *streamState) chunk(raw json.RawMessage) {
	var ch wireChunk
	if json.Unmarshal(raw, &ch) != nil {
		st.unreadable++
		return
	}
	st.names(ch)
	if len(ch.Usage) > 0 && string(ch.Usage) != "null" {
		st.r.Usage = usage(ch.Usage)
	}
	st.fail(ch.Error)
	for _, c := range ch.Choices[:min(len(ch.Choices), 1)] {
		st.delta(c.Delta.Content, c.Delta.Reasoning, c.Delta.ReasoningDetails)
		// The choice's error before its finish reason: an error that
		// comes with finish_reason "error" after a "length" finish is
		// the cut's, as one at the top level is.
		st.fail(c.Error)
		st.finish(c.FinishReason, c.NativeFinishReason)
	}
}

// names keeps the first id, model and provider a chunk names, noting a
// change of id or model.
func (st *streamState) names(ch wireChunk) {
	r := st.r
	id, served := safetext.Cap(rawText(ch.ID), MaxName), safetext.Cap(rawText(ch.Model), MaxName)
	changed(&r.streamChanged, "generation id", r.ID, id)
	changed(&r.streamChanged, "model", r.ModelServed, served)
	if r.ID == "" {
		r.ID = id
	}
	if r.ModelServed == "" {
		r.ModelServed = served
	}
	if r.Provider == "" {
		r.Provider = safetext.Cap(rawText(ch.Provider), MaxName)
	}
}

// fail keeps the first error object, noting whether it came after a
// "length" finish.
func (st *streamState) fail(e *wireError) {
	if st.failure == nil && e != nil {
		st.failure, st.afterLength = e, st.r.FinishReason == "length"
	}
}

// delta appends a choice's content and reasoning.
func (st *streamState) delta(content *string, reasoning, details json.RawMessage) {
	st.content.WriteString(deref(content))
	wc := wireChoice{}
	wc.Message.Reasoning, wc.Message.ReasoningDetails = reasoning, details
	st.reasoning.WriteString(wc.reasoning())
}

// finish keeps a choice's finish reasons, unless an error already came
// after a "length" finish.
func (st *streamState) finish(reason, native *string) {
	if st.afterLength && st.failure != nil {
		return
	}
	if reason != nil {
		st.r.FinishReason = *reason
	}
	if native != nil {
		st.r.NativeFinishReason = *native
	}
}

// result is the assembled answer and how the attempt ended.
func (st *streamState) result(ex exchange) (*Response, *APIError) {
	r, failure, afterLength, unreadable := st.r, st.failure, st.afterLength, st.unreadable
	r.Content, r.Reasoning = st.content.String(), st.reasoning.String()
	switch {
	case failure != nil && afterLength:
		// Recorded from the live API: {"code":400,"message":"Token limit
		// reached"} right after finish_reason "length". The answer was
		// cut off at the output budget, and is reported as such; the error
		// stays in the archived chunks.
		r.FinishReason = "length"
		return r, finished(r, ex.status)
	case failure != nil:
		return r, failure.apiError(ex.status)
	case r.FinishReason == "error":
		return r, (&wireError{Message: `finish_reason "error"`}).apiError(ex.status)
	case unreadable > 0 && r.FinishReason == "":
		return r, (&APIError{Status: ex.status, Code: CodeBadResponse, Message: fmt.Sprintf("%d chunks of the stream are not JSON", unreadable)}).classified()
	case r.FinishReason == "" && r.Content != "":
		return r, (&APIError{Status: ex.status, Code: CodeCutShort, Message: "the stream ended before a finish reason"}).classified()
	}
	return r, finished(r, ex.status)
}

// maxChanges bounds what one stream's changes record: a stream whose
// every chunk names another model is said in a few.
const maxChanges = 4

// changed notes in *into that a stream's field changed from first to now
// ("model a → b"), once per pair and at most maxChanges in all; nothing
// when either is "" (a chunk that does not say).
func changed(into *[]string, field, first, now string) {
	if first == "" || now == "" || first == now || len(*into) >= maxChanges {
		return
	}
	note := field + " " + first + " → " + now
	if !slices.Contains(*into, note) {
		*into = append(*into, note)
	}
}

// redactAssembled removes the API key from what a stream's chunks join
// into. Each chunk was redacted as it arrived, but a key split across two
// chunks spells itself only once they are joined: then the chunks are
// not kept (whoever joins them would read the key) and the body becomes
// one chunk holding the joined content and reasoning, redacted, with the
// stream's finish reason and last usage.
func (c *config) redactAssembled(ex *exchange) {
	if len(c.apiKey) < 8 || !ex.sse {
		return
	}
	r, _ := interpretStream(*ex)
	if r == nil {
		return
	}
	content, reasoning := c.redactNested(r.Content, redactDepth), c.redactNested(r.Reasoning, redactDepth)
	if content == r.Content && reasoning == r.Reasoning && !spellsKey(content, c.apiKey) && !spellsKey(reasoning, c.apiKey) {
		return
	}
	if spellsKey(content, c.apiKey) {
		content = "[REDACTED: the answer spelled the API key in an encoded form]"
	}
	if spellsKey(reasoning, c.apiKey) {
		reasoning = "[REDACTED: the reasoning spelled the API key in an encoded form]"
	}
	var chunks []struct {
		Usage json.RawMessage `json:"usage"`
	}
	json.Unmarshal(ex.body, &chunks)
	var last json.RawMessage
	for _, ch := range chunks {
		if len(ch.Usage) > 0 && string(ch.Usage) != "null" {
			last = ch.Usage
		}
	}
	type choice struct {
		Index int `json:"index"`
		Delta struct {
			Content   string `json:"content"`
			Reasoning string `json:"reasoning,omitempty"`
		} `json:"delta"`
		FinishReason       *string `json:"finish_reason"`
		NativeFinishReason string  `json:"native_finish_reason,omitempty"`
	}
	ch := choice{NativeFinishReason: r.NativeFinishReason}
	ch.Delta.Content, ch.Delta.Reasoning = content, reasoning
	if r.FinishReason != "" {
		ch.FinishReason = &r.FinishReason
	}
	one, _ := json.Marshal([]any{map[string]any{
		"id": r.ID, "model": r.ModelServed, "provider": r.Provider, "choices": []choice{ch}, "usage": last,
		"note": "the stream spelled the API key across chunks: its chunks were joined and redacted",
	}})
	ex.body = one
}
