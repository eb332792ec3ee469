// Package modeltest provides a fake OpenAI-compatible server for tests of
// anything that calls a model over HTTP: the model client itself, the
// runner and the judge. It answers POST {URL}/chat/completions and, as
// today's OpenRouter documents them, GET {URL}/models, /models/user,
// /models/{author}/{slug}/endpoints and /key (listing.go) on the loopback
// interface, records every request, and
// can misbehave on cue (rate limits, server errors, hangs, garbage bodies,
// truncated or failed generations) so retry paths are tested without the
// network.
//
// A test scripts the replies:
//
//	srv := modeltest.NewScripted(t,
//		modeltest.RateLimited(1),
//		modeltest.Text(`{"answer": 42}`),
//	)
//	c := model.NewOpenRouter(model.WithBaseURL(srv.URL), model.WithAPIKey("test-key-123"))
//
// or computes them from the request:
//
//	srv := modeltest.NewServer(t, func(call int, req modeltest.ChatRequest) modeltest.Reply {
//		return modeltest.Text("echo: " + req.Messages[0].Content)
//	})
//
// A request with "stream": true is answered as today's OpenRouter streams
// (api_reference/streaming.mdx): keep-alive comments (": OPENROUTER
// PROCESSING") while it waits, the content in chunks, the finish reason,
// usage in the last chunk, then [DONE]; a reply's Error is sent as the
// mid-stream error event. The fake keeps a billing account
// ([Server.Billing], [Server.Generations]): a non-streaming request whose
// client left is billed in full ("abandoned"), a stream the client closed
// stops billing ("closed"), a blank completion is not billed; and it
// answers GET /generation?id= from that account. [DocumentedErrors] are
// the error bodies of OpenRouter's errors page.
//
// The fake can also answer as the live API was recorded answering
// (model/testdata/recorded/README.md): every listing entry carries
// canonical_slug ([RecordedSlug]: Claude's version first), and after
// [Server.ServeAsRecorded] a reply names the model that served it by that
// slug, as OpenRouter does; [Reply.SSE] replays a stream written in a
// recorded shape byte for byte ([TokenLimitAfterLength]).
//
// GET /models lists [DefaultModels] until the test sets its own list with
// [Server.SetModels] or overrides one entry with [Server.SetModel]. Entries
// of the gating families ("anthropic/claude…", "openai/gpt-5…",
// "google/gemini-3…") carry the supported_parameters the real listing
// gives them ([FamilyParameters]), so a test sees the same gaps in the
// determinism controls as a real run: Claude lacks seed, GPT-5 lacks
// temperature.
package modeltest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// HangLimit bounds a [Reply] with Hang set: if the client has not given up
// by then, the server answers 504, so a test with a broken client fails
// instead of hanging.
const HangLimit = 10 * time.Second

// Handler computes the reply to the call-th chat request (1-based, counted
// over all models).
type Handler func(call int, req ChatRequest) Reply

// Message is one chat message as received. Its content may be a string or
// an array of content parts; either way Content holds the text, so a
// handler can read it without caring which.
type Message struct {
	Role string `json:"role"`
	// Content is the string content, or the texts of the parts joined
	// without separator.
	Content string `json:"content"`
	// Parts are the content parts when content was an array; nil when it
	// was a string.
	Parts []Part `json:"-"`
}

// Part is one content part as received.
type Part struct {
	Type         string          `json:"type"` // "text"
	Text         string          `json:"text"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"` // as sent; nil when absent
}

// UnmarshalJSON accepts content as a string or as an array of parts.
func (m *Message) UnmarshalJSON(b []byte) error {
	var w struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = Message{Role: w.Role}
	if len(w.Content) == 0 || string(w.Content) == "null" {
		return nil
	}
	if w.Content[0] != '[' {
		return json.Unmarshal(w.Content, &m.Content)
	}
	if err := json.Unmarshal(w.Content, &m.Parts); err != nil {
		return err
	}
	var text strings.Builder
	for _, p := range m.Parts {
		text.WriteString(p.Text)
	}
	m.Content = text.String()
	return nil
}

// ChatRequest is a received chat-completion request. Pointer fields are
// nil when the field was absent, so tests can assert that e.g. a zero
// temperature was sent rather than left out.
type ChatRequest struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	Temperature    *float64        `json:"temperature"`
	Seed           *int64          `json:"seed"`
	MaxTokens      *int            `json:"max_tokens"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Provider       json.RawMessage `json:"provider"`  // OpenRouter's routing object, as sent
	Reasoning      json.RawMessage `json:"reasoning"` // OpenRouter's reasoning object, as sent
	Stream         bool            `json:"stream"`    // the client asked for an event stream

	Call      int         `json:"-"` // 1-based among all chat requests
	ModelCall int         `json:"-"` // 1-based among chat requests for Model
	Header    http.Header `json:"-"` // request headers, Authorization included
	Body      []byte      `json:"-"` // the request body as sent
}

// Usage is the usage object of a completion body.
type Usage struct {
	PromptTokens, CompletionTokens, CachedTokens, ReasoningTokens int64
	Cost                                                          *float64 // nil leaves usage.cost out

	// CacheWriteTokens is prompt_tokens_details.cache_write_tokens.
	CacheWriteTokens int64
	// BYOK sets usage.is_byok; then Cost is OpenRouter's fee alone and
	// UpstreamCost the provider's charge, cost_details.upstream_inference_cost.
	BYOK         bool
	UpstreamCost *float64
}

// ErrorObject is an OpenAI/OpenRouter error object: {"code", "message",
// "metadata"}. OpenRouter's code is the HTTP status as a number; its
// metadata may type the error ("error_type", "provider_code"), name the
// upstream ("provider_name") and quote the upstream's own error ("raw");
// an availability failure carries "availability".
type ErrorObject struct {
	Code         any            `json:"code,omitempty"`
	Message      string         `json:"message"`
	Metadata     map[string]any `json:"metadata,omitempty"`
	Availability map[string]any `json:"availability,omitempty"`
}

// Reply is what the server answers to one request. The zero Reply is a 200
// completion with empty content.
type Reply struct {
	Status  int               // 0 means 200
	Headers map[string]string // extra response headers, e.g. "Retry-After"
	// Body, when non-empty, is sent verbatim instead of a body built from
	// the fields below, as application/json even to a stream request (as
	// a proxy that ignores "stream" would answer).
	Body string
	// SSE, when non-empty, is sent verbatim as a 200 text/event-stream
	// body, whatever the request asked: a stream written in the shape of
	// one recorded from the live API (model/testdata/recorded), replayed
	// byte for byte.
	SSE string
	// Delay is a wait before replying. If the client gives up first, the
	// server sends nothing.
	Delay time.Duration
	// Hang waits until the client gives up (at most HangLimit) and sends
	// nothing.
	Hang bool

	Content            string
	Reasoning          string       // message.reasoning; "" leaves it out
	FinishReason       string       // "" means "stop"
	NativeFinishReason string       // native_finish_reason; "" leaves it out
	Usage              *Usage       // nil means 10 prompt and 5 completion tokens, no cost
	Provider           string       // top-level "provider"; "" leaves it out
	Model              string       // top-level "model"; "" echoes the request's
	ID                 string       // "" means "gen-N" for the N-th call
	Error              *ErrorObject // top-level error object

	// How a streamed reply is sent (a request with "stream": true). The
	// content is split into Chunks pieces (0 means 2), with ChunkDelay
	// before each; KeepAlive, when positive, sends ": OPENROUTER
	// PROCESSING" comments at that interval during every wait. SilentAfter,
	// when positive, stops after that many content chunks without closing,
	// until the client gives up (at most HangLimit). Blank sends one chunk
	// with no content and a null finish reason, which OpenRouter does not
	// bill.
	Chunks      int
	ChunkDelay  time.Duration
	KeepAlive   time.Duration
	SilentAfter int
	Blank       bool
	// SwitchModel and SwitchID, when set, are the served model and the
	// generation id every chunk after the first names: a stream that
	// changes them mid-way.
	SwitchModel, SwitchID string
}

// Text is a 200 completion with the given content.
func Text(content string) Reply { return Reply{Content: content} }

// Fenced is a 200 completion whose content is jsonText in a ```json fence,
// as chat models often answer when asked for JSON.
func Fenced(jsonText string) Reply { return Text("```json\n" + jsonText + "\n```") }

// Truncated is a 200 completion cut off at the token limit
// (finish_reason "length").
func Truncated(content string) Reply { return Reply{Content: content, FinishReason: "length"} }

// RateLimited is a 429 asking to retry after the given seconds
// (Retry-After).
func RateLimited(seconds int) Reply {
	r := StatusError(http.StatusTooManyRequests)
	r.Headers = map[string]string{"Retry-After": strconv.Itoa(seconds)}
	return r
}

// StatusError is an error status with an OpenRouter-style error body.
func StatusError(status int) Reply {
	return Reply{Status: status, Error: &ErrorObject{Code: status, Message: http.StatusText(status)}}
}

// Unauthorized is OpenRouter's answer to a missing or bad key.
func Unauthorized() Reply {
	return Reply{Status: http.StatusUnauthorized, Error: &ErrorObject{Code: 401, Message: "No auth credentials found"}}
}

// NotJSON is a 200 whose body is not JSON although its Content-Type says
// it is, as a broken proxy might send.
func NotJSON() Reply {
	return Reply{Body: "<html><body>502 Bad Gateway</body></html>"}
}

// MidGenerationError is OpenRouter's report of a failure after the 200
// status was sent: a top-level error object and finish_reason "error".
func MidGenerationError(code int, message string) Reply {
	return Reply{FinishReason: "error", Error: &ErrorObject{Code: code, Message: message}}
}

// ContextTooLong is OpenRouter's 400 for a prompt that does not fit the
// model's context, worded as OpenRouter words it.
func ContextTooLong(limit, requested int) Reply {
	msg := fmt.Sprintf("This endpoint's maximum context length is %d tokens. However, you requested about %d tokens "+
		"(%d of text input, 0 in the output). Please reduce the length of either one, or use the \"middle-out\" "+
		"transform to compress your prompt automatically.", limit, requested, requested)
	return Reply{Status: http.StatusBadRequest, Error: &ErrorObject{Code: 400, Message: msg}}
}

// OddUsage is a 200 completion with content whose usage object is
// usageJSON verbatim, e.g. {"prompt_tokens": 12.5} or a count of 1e400
// that no integer type can hold: a server whose accounting is wrong but
// whose answer is good.
func OddUsage(content, usageJSON string) Reply {
	c, _ := json.Marshal(content)
	return Reply{Body: `{"id":"gen-odd","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":` +
		string(c) + `},"finish_reason":"stop"}],"usage":` + usageJSON + `}`}
}

// EscapedKeyEcho is a 200 completion whose content echoes the request's
// bearer key with every '-' written as the JSON escape \u002d, so that the
// key is not in the body's bytes but is in its decoded content: a server
// (or a model told the key) leaking it past a byte-wise redaction.
func EscapedKeyEcho(req ChatRequest) Reply {
	key := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
	c, _ := json.Marshal("your key is " + key)
	escaped := strings.ReplaceAll(string(c), "-", `\u002d`)
	return Reply{Body: `{"id":"gen-echo","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":` +
		escaped + `},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1}}`}
}

// NestedKeyEcho is a 200 completion whose content is format with %s
// replaced by the request's bearer key, every '-' of the key written as
// the JSON escape \u002d inside the content: when format is a JSON
// document the key is escaped inside the answer's own JSON, so the body
// spells it with a double escape (\\u002d) that a one-level redaction
// does not decode but scoring does.
func NestedKeyEcho(req ChatRequest, format string) Reply {
	key := strings.TrimPrefix(req.Header.Get("Authorization"), "Bearer ")
	return Reply{Content: fmt.Sprintf(format, strings.ReplaceAll(key, "-", `\u002d`))}
}

// ErrorInsideOK is a 200 whose body is an error object with the given
// code and no choices, as OpenRouter reports a failure (no credit: 402)
// after the status line was sent.
func ErrorInsideOK(code int, message string) Reply {
	return Reply{Body: fmt.Sprintf(`{"error":{"code":%d,"message":%q}}`, code, message)}
}

// Hang never answers; the client must give up.
func Hang() Reply { return Reply{Hang: true} }

// Script answers the n-th call with replies[n-1], repeating the last reply
// once the script is spent.
func Script(replies ...Reply) Handler {
	if len(replies) == 0 {
		panic("modeltest: Script needs at least one reply")
	}
	return func(call int, _ ChatRequest) Reply {
		return replies[min(call, len(replies))-1]
	}
}

// FixedDelay answers every call with content after d, for throughput
// benchmarks.
func FixedDelay(d time.Duration, content string) Handler {
	return func(int, ChatRequest) Reply { return Reply{Content: content, Delay: d} }
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	// URL is the API root to give the client, like
	// https://openrouter.ai/api/v1: it ends in /api/v1 so that path joining
	// is exercised as in production.
	URL string

	t       testing.TB
	ts      *httptest.Server
	handler Handler

	mu           sync.Mutex
	requests     []ChatRequest
	perModel     map[string]int
	modelsHeader []http.Header
	models       []ModelEntry
	listing      listing // the key, the account's models, the endpoints, the bills
	generations  []Generation
	asRecorded   bool // ServeAsRecorded
	// generation, when set (SetGenerationReply), is what GET /generation
	// answers instead of the account; asked counts those requests.
	generation func(id string) Reply
	asked      int
}

// Generation is the fake's account of one chat request, as OpenRouter
// bills it: a non-streaming request is billed in full even when the
// client left before the answer; a stream the client closed stops
// generation and billing; a blank completion is not billed.
type Generation struct {
	ID     string
	Model  string
	Stream bool
	// Outcome is "completed", "abandoned" (a non-streaming request whose
	// client left: billed in full), "closed" (a stream the client closed
	// before its end: billing stopped), "blank" (not billed) or "error".
	Outcome string
	Billed  bool
	// Cost is what GET /generation reports as total_cost: the reply's
	// usage.cost when billed in full, else 0.
	Cost     float64
	Provider string
}

// Billing counts the generations by outcome.
type Billing struct {
	Completed, Abandoned, Closed, Blank, Errors int
}

// Billing returns the counts of the generations so far.
func (s *Server) Billing() Billing {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b Billing
	for _, g := range s.generations {
		switch g.Outcome {
		case "completed":
			b.Completed++
		case "abandoned":
			b.Abandoned++
		case "closed":
			b.Closed++
		case "blank":
			b.Blank++
		default:
			b.Errors++
		}
	}
	return b
}

// WaitBilling waits until the fake's account holds ok, failing t after
// SettleLimit: the server learns of a closed connection a moment after
// the client closes it, so a test reads the account once it has settled.
func (s *Server) WaitBilling(t testing.TB, ok func(Billing) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(SettleLimit)
	for !ok(s.Billing()) {
		if time.Now().After(deadline) {
			t.Fatalf("billing %+v: want %s", s.Billing(), what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Generations returns the fake's account of every chat request so far,
// in arrival order.
func (s *Server) Generations() []Generation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.generations)
}

func (s *Server) bill(g Generation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generations = append(s.generations, g)
}

// NewServer starts a fake that answers chat requests with h. It is closed
// when the test ends.
func NewServer(t testing.TB, h Handler) *Server {
	t.Helper()
	s := &Server{t: t, handler: h, perModel: map[string]int{}, models: DefaultModels()}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/chat/completions", s.serveChat)
	s.routeListing(mux)
	mux.HandleFunc("GET /api/v1/generation", s.serveGeneration)
	s.ts = httptest.NewServer(mux)
	s.URL = s.ts.URL + "/api/v1"
	t.Cleanup(s.Close)
	return s
}

// NewScripted starts a fake that answers with [Script](replies...).
func NewScripted(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	return NewServer(t, Script(replies...))
}

// Close stops the server, waiting for requests in flight. It is called
// automatically when the test ends; calling it twice is harmless.
func (s *Server) Close() { s.ts.Close() }

// Requests returns the chat requests received so far, in arrival order.
func (s *Server) Requests() []ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ChatRequest(nil), s.requests...)
}

// Count returns the number of chat requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// CountModel returns the number of chat requests received for model.
func (s *Server) CountModel(model string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.perModel[model]
}

// ModelsRequests returns the headers of each GET /models request received.
func (s *Server) ModelsRequests() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.modelsHeader...)
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		// The client went away while sending (a caller cancelled its
		// context): nobody is left to answer, and nothing was asked.
		return
	}
	var req ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.t.Errorf("modeltest: bad chat request: %v", err)
		http.Error(w, `{"error":{"code":400,"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	req.Header, req.Body = r.Header.Clone(), body
	s.mu.Lock()
	s.perModel[req.Model]++
	req.Call, req.ModelCall = len(s.requests)+1, s.perModel[req.Model]
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	rep := s.handler(req.Call, req)
	if rep.Model == "" {
		rep.Model = s.servedName(req.Model)
	}
	g := Generation{ID: rep.ID, Model: req.Model, Stream: req.Stream, Provider: rep.Provider}
	if g.ID == "" {
		g.ID = fmt.Sprintf("gen-%d", req.Call)
	}
	if rep.Usage != nil && rep.Usage.Cost != nil {
		g.Cost = *rep.Usage.Cost
	}
	if rep.SSE != "" {
		g.Outcome, g.Billed = "completed", true
		s.bill(g)
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, rep.SSE)
		return
	}
	if req.Stream && rep.Body == "" && rep.Status < 400 && !rep.Hang {
		g.Outcome = s.stream(w, r, rep, req)
		g.Billed = g.Outcome == "completed" || g.Outcome == "error"
		if !g.Billed {
			g.Cost = 0
		}
		s.bill(g)
		return
	}
	if !wait(r, rep) {
		// A non-streaming request keeps generating after its client left,
		// and is billed in full.
		g.Outcome, g.Billed = "abandoned", true
		s.bill(g)
		return
	}
	g.Outcome, g.Billed = "completed", true
	if rep.Status >= 400 || rep.Error != nil || rep.Body != "" {
		g.Outcome, g.Billed, g.Cost = "error", false, 0
	}
	s.bill(g)
	s.write(w, rep, rep.body(req))
}

// wait applies the reply's Delay or Hang. It reports false when the client
// gave up first, and nothing should be written.
func wait(r *http.Request, rep Reply) bool {
	d := rep.Delay
	if rep.Hang {
		d = HangLimit
	}
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.Context().Done():
		return false
	case <-t.C:
		return true
	}
}

func (s *Server) write(w http.ResponseWriter, rep Reply, body []byte) {
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	if rep.Hang {
		status, body = http.StatusGatewayTimeout, nil
	}
	w.Header().Set("Content-Type", "application/json")
	for k, v := range rep.Headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(status)
	w.Write(body)
}

// KeepAliveComment is the comment line OpenRouter sends on a stream
// while the model works.
const KeepAliveComment = ": OPENROUTER PROCESSING"

// stream answers rep as an event stream, as OpenRouter does: keep-alive
// comments while waiting, the content in chunks, the finish reason, usage
// in the last chunk, then [DONE]; a reply with an Error sends it as
// OpenRouter's mid-stream error event (top-level error, finish_reason
// "error") and ends. It returns the generation's outcome.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, rep Reply, req ChatRequest) string {
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	for k, v := range rep.Headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(http.StatusOK)
	if fl != nil {
		fl.Flush() // OpenRouter commits the status at once, and keeps the stream alive
	}
	es := &eventStream{w: w, fl: fl, r: r, keepAlive: rep.KeepAlive}
	c := rep.completion(req)
	head := chunk{ID: c.ID, Object: "chat.completion.chunk", Created: c.Created, Model: c.Model, Provider: c.Provider}
	if !es.pause(rep.Delay) {
		return "closed"
	}
	if rep.Blank {
		ch := head
		ch.Choices = []chunkChoice{{Delta: delta{Role: "assistant"}}}
		if !es.event(ch) || !es.send("data: [DONE]") {
			return "closed"
		}
		return "blank"
	}
	if !es.content(head, rep) {
		return "closed"
	}
	if rep.Error != nil {
		ch := head
		ch.Error = rep.Error
		fr := "error"
		empty := ""
		ch.Choices = []chunkChoice{{Delta: delta{Content: &empty}, FinishReason: &fr}}
		es.event(ch)
		return "error"
	}
	fin := head
	fr := c.Choices[0].FinishReason
	empty := ""
	fin.Choices = []chunkChoice{{Delta: delta{Content: &empty}, FinishReason: &fr, NativeFinishReason: c.Choices[0].NativeFinishReason}}
	last := head
	last.Choices = []chunkChoice{}
	u := c.Usage
	last.Usage = &u
	if !es.event(fin) || !es.event(last) || !es.send("data: [DONE]") {
		return "closed"
	}
	return "completed"
}

// eventStream writes one reply's server-sent events; each write is
// flushed at once, as OpenRouter's are.
type eventStream struct {
	w         http.ResponseWriter
	fl        http.Flusher // nil when w cannot flush
	r         *http.Request
	keepAlive time.Duration // between keep-alive comments while pausing; 0 sends none
}

// send writes one event (or comment) line; false when the client left.
func (es *eventStream) send(line string) bool {
	if _, err := io.WriteString(es.w, line+"\n\n"); err != nil {
		return false
	}
	if es.fl != nil {
		es.fl.Flush()
	}
	return true
}

// event sends ch as a data event.
func (es *eventStream) event(ch chunk) bool {
	b, _ := json.Marshal(ch)
	return es.send("data: " + string(b))
}

// pause waits d, sending keep-alive comments; false when the client left.
// A wait of at least one keep-alive interval sends at least one comment,
// however late a loaded machine wakes the fake: a test that wants a
// comment before the content gets one.
func (es *eventStream) pause(d time.Duration) bool {
	deadline := time.Now().Add(d)
	owed := es.keepAlive > 0 && d >= es.keepAlive
	for {
		left := time.Until(deadline)
		if left <= 0 {
			if owed && !es.send(KeepAliveComment) {
				return false
			}
			return true
		}
		step := left
		if es.keepAlive > 0 && es.keepAlive < step {
			step = es.keepAlive
		}
		t := time.NewTimer(step)
		select {
		case <-es.r.Context().Done():
			t.Stop()
			return false
		case <-t.C:
		}
		if es.keepAlive > 0 && time.Until(deadline) > 0 {
			if !es.send(KeepAliveComment) {
				return false
			}
			owed = false
		}
	}
}

// content sends rep's content in rep.Chunks chunks (2 when unset), the
// first with the role and the reasoning, rep.ChunkDelay before each; a
// reply that goes silent after rep.SilentAfter chunks hangs until the
// client leaves or HangLimit passes. False when the stream ended early.
func (es *eventStream) content(head chunk, rep Reply) bool {
	n := rep.Chunks
	if n <= 0 {
		n = 2
	}
	pieces := split(rep.Content, n)
	for i := range pieces {
		if rep.SilentAfter > 0 && i == rep.SilentAfter {
			t := time.NewTimer(HangLimit)
			defer t.Stop()
			select {
			case <-es.r.Context().Done():
			case <-t.C:
			}
			return false
		}
		if !es.pause(rep.ChunkDelay) {
			return false
		}
		ch := head
		if i > 0 {
			ch.Model, ch.ID = cmp.Or(rep.SwitchModel, ch.Model), cmp.Or(rep.SwitchID, ch.ID)
		}
		d := delta{Content: &pieces[i]}
		if i == 0 {
			d.Role, d.Reasoning = "assistant", rep.Reasoning
		}
		ch.Choices = []chunkChoice{{Delta: d}}
		if !es.event(ch) || es.r.Context().Err() != nil {
			return false
		}
	}
	return true
}

// split cuts s into n pieces of about equal length on rune boundaries;
// fewer when s is shorter, and one empty piece for an empty s.
func split(s string, n int) []string {
	rs := []rune(s)
	if len(rs) == 0 {
		return []string{""}
	}
	n = min(n, len(rs))
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, string(rs[i*len(rs)/n:(i+1)*len(rs)/n]))
	}
	return out
}

type chunk struct {
	ID       string        `json:"id"`
	Object   string        `json:"object"`
	Created  int64         `json:"created"`
	Model    string        `json:"model"`
	Provider string        `json:"provider,omitempty"`
	Choices  []chunkChoice `json:"choices"`
	Usage    *usage        `json:"usage,omitempty"`
	Error    *ErrorObject  `json:"error,omitempty"`
}

type chunkChoice struct {
	Index              int     `json:"index"`
	Delta              delta   `json:"delta"`
	FinishReason       *string `json:"finish_reason"`
	NativeFinishReason string  `json:"native_finish_reason,omitempty"`
}

type delta struct {
	Role      string  `json:"role,omitempty"`
	Content   *string `json:"content,omitempty"`
	Reasoning string  `json:"reasoning,omitempty"`
}

// SetGenerationReply makes GET /generation?id= answer with f(id) instead
// of the fake's account: a Reply with Hang stays silent until the client
// gives up (a silent endpoint), Delay waits first, Status and Body are
// sent as they are (Body "" sends the account's answer after the wait).
// nil restores the account.
func (s *Server) SetGenerationReply(f func(id string) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.generation = f
}

// GenerationRequests counts the GET /generation requests received.
func (s *Server) GenerationRequests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.asked
}

// serveGeneration answers GET /generation?id= as OpenRouter does, from
// the fake's account: {"data": {"id", "total_cost", "provider_name",
// "model", "cancelled"}}; 404 for an id it never gave.
func (s *Server) serveGeneration(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	s.mu.Lock()
	s.asked++
	f := s.generation
	s.mu.Unlock()
	if f != nil {
		rep := f(id)
		if !wait(r, rep) || rep.Hang {
			return
		}
		if rep.Body != "" {
			s.write(w, rep, []byte(rep.Body))
			return
		}
	}
	s.mu.Lock()
	i := slices.IndexFunc(s.generations, func(g Generation) bool { return g.ID == id })
	var g Generation
	if i >= 0 {
		g = s.generations[i]
	}
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if i < 0 {
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"code":404,"message":"Generation not found","metadata":{"error_type":"not_found"}}}`)
		return
	}
	b, _ := json.Marshal(map[string]any{"data": map[string]any{
		"id": g.ID, "total_cost": g.Cost, "provider_name": g.Provider, "model": g.Model,
		"streamed": g.Stream, "cancelled": g.Outcome == "closed",
	}})
	w.Write(b)
}

// body builds the response body: Body verbatim; for an error status an
// error object alone; otherwise a chat completion.
func (rep Reply) body(req ChatRequest) []byte {
	if rep.Body != "" {
		return []byte(rep.Body)
	}
	if rep.Status >= 400 {
		e := rep.Error
		if e == nil {
			e = &ErrorObject{Code: rep.Status, Message: http.StatusText(rep.Status)}
		}
		b, _ := json.Marshal(struct {
			Error *ErrorObject `json:"error"`
		}{e})
		return b
	}
	b, _ := json.Marshal(rep.completion(req))
	return b
}

type completion struct {
	ID       string       `json:"id"`
	Object   string       `json:"object"`
	Created  int64        `json:"created"`
	Model    string       `json:"model"`
	Provider string       `json:"provider,omitempty"`
	Choices  []choice     `json:"choices"`
	Usage    usage        `json:"usage"`
	Error    *ErrorObject `json:"error,omitempty"`
}

type choice struct {
	Index              int        `json:"index"`
	Message            outMessage `json:"message"`
	FinishReason       string     `json:"finish_reason"`
	NativeFinishReason string     `json:"native_finish_reason,omitempty"`
}

type outMessage struct {
	Role      string `json:"role"`
	Content   string `json:"content"`
	Reasoning string `json:"reasoning,omitempty"`
}

type usage struct {
	PromptTokens            int64        `json:"prompt_tokens"`
	CompletionTokens        int64        `json:"completion_tokens"`
	TotalTokens             int64        `json:"total_tokens"`
	PromptTokensDetails     details      `json:"prompt_tokens_details"`
	CompletionTokensDetails details      `json:"completion_tokens_details"`
	Cost                    *float64     `json:"cost,omitempty"`
	IsBYOK                  bool         `json:"is_byok,omitempty"`
	CostDetails             *costDetails `json:"cost_details,omitempty"`
}

type details struct {
	CachedTokens     int64 `json:"cached_tokens,omitempty"`
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int64 `json:"reasoning_tokens,omitempty"`
}

type costDetails struct {
	UpstreamInferenceCost *float64 `json:"upstream_inference_cost"`
}

func (rep Reply) completion(req ChatRequest) completion {
	c := completion{
		ID: rep.ID, Object: "chat.completion", Created: 1700000000,
		Model: rep.Model, Provider: rep.Provider, Error: rep.Error,
		Choices: []choice{{
			Message:      outMessage{Role: "assistant", Content: rep.Content, Reasoning: rep.Reasoning},
			FinishReason: rep.FinishReason, NativeFinishReason: rep.NativeFinishReason,
		}},
	}
	if c.ID == "" {
		c.ID = fmt.Sprintf("gen-%d", req.Call)
	}
	if c.Model == "" {
		c.Model = req.Model
	}
	if c.Choices[0].FinishReason == "" {
		c.Choices[0].FinishReason = "stop"
	}
	u := Usage{PromptTokens: 10, CompletionTokens: 5}
	if rep.Usage != nil {
		u = *rep.Usage
	}
	c.Usage = usage{
		PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
		TotalTokens:             u.PromptTokens + u.CompletionTokens,
		PromptTokensDetails:     details{CachedTokens: u.CachedTokens, CacheWriteTokens: u.CacheWriteTokens},
		CompletionTokensDetails: details{ReasoningTokens: u.ReasoningTokens},
		Cost:                    u.Cost,
		IsBYOK:                  u.BYOK,
	}
	if u.BYOK {
		c.Usage.CostDetails = &costDetails{UpstreamInferenceCost: u.UpstreamCost}
	}
	return c
}

// ClosedURL returns an API root on a loopback port that nothing listens
// on: a connection to it is refused at once, as an API that is down. The
// port is taken from the system and released, so no outside address is
// ever dialled.
func ClosedURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/api/v1"
}

// DocumentedError is one error body of OpenRouter's errors page
// (api_reference/errors-and-debugging.mdx, and OPENROUTER.md's summary of
// the availability object), as the fake sends it.
type DocumentedError struct {
	Name   string // unique, e.g. "403 moderation"
	Source string // the section of the page it comes from
	Reply  Reply
}

// typed is an error status with a typed body: metadata.error_type and, when
// given, more metadata.
func typed(status int, errorType, message string, metadata map[string]any) Reply {
	md := map[string]any{"error_type": errorType}
	for k, v := range metadata {
		md[k] = v
	}
	return Reply{Status: status, Error: &ErrorObject{Code: status, Message: message, Metadata: md}}
}

// midStream is a stream that sends some content, then OpenRouter's
// mid-stream error event with the given code and type.
func midStream(code int, errorType, message string) Reply {
	return Reply{Content: "partial output", FinishReason: "error",
		Error: &ErrorObject{Code: code, Message: message, Metadata: map[string]any{"error_type": errorType}}}
}

// Moderation is OpenRouter's 403 for an input flagged by moderation, with
// the metadata its errors page documents.
func Moderation(flagged string) Reply {
	return Reply{Status: 403, Error: &ErrorObject{Code: 403, Message: "Your input was flagged by moderation",
		Metadata: map[string]any{"reasons": []string{"violence"}, "flagged_input": flagged, "provider_name": "OpenAI", "model_slug": "openai/gpt-5.6-sol"}}}
}

// Refusal is a 400 with error_type "refusal": the model refused this request.
func Refusal() Reply {
	return typed(400, "refusal", "The model refused to comply with the request", map[string]any{"provider_code": "refusal"})
}

// Reservation is OpenRouter's 402 for a max_tokens the credit left cannot
// reserve: this request fails, a smaller one would not.
func Reservation(asked, affordable int) Reply {
	return typed(402, "payment_required", fmt.Sprintf("This request requires more credits, or fewer max_tokens. You requested up to %d tokens, but can only afford %d. To increase, visit https://openrouter.ai/settings/credits and add more credits", asked, affordable), nil)
}

// OutOfCredit is OpenRouter's 402 for an account or key without credit.
func OutOfCredit() Reply {
	return typed(402, "payment_required", "Insufficient credits. Add more using https://openrouter.ai/settings/credits", nil)
}

// DocumentedErrors returns every error body of OpenRouter's errors page:
// each typed error_type at its status, the moderation and guardrail 403s,
// the two 402s, the two 404s, availability failures, the masked 500, and
// the mid-stream error event. The model package classifies each in a
// table test.
func DocumentedErrors() []DocumentedError {
	const page = "api_reference/errors-and-debugging.mdx"
	var out []DocumentedError
	add := func(name, section string, r Reply) {
		out = append(out, DocumentedError{Name: name, Source: page + " " + section, Reply: r})
	}
	for _, e := range []struct {
		status  int
		typ     string
		message string
		section string
	}{
		{400, "context_length_exceeded", "This endpoint's maximum context length is 200000 tokens. However, you requested about 215304 tokens", "#token-and-length-limits"},
		{400, "max_tokens_exceeded", "Generation stopped because max_tokens was reached", "#token-and-length-limits"},
		{400, "token_limit_exceeded", "A token budget enforced by OpenRouter was exceeded", "#token-and-length-limits"},
		{400, "string_too_long", "A string in the request exceeds the provider's limit", "#token-and-length-limits"},
		{401, "authentication", "Invalid credentials", "#authentication-and-authorization"},
		{403, "permission_denied", "The key lacks the required permission", "#authentication-and-authorization"},
		{402, "payment_required", "Insufficient credits", "#authentication-and-authorization"},
		{429, "rate_limit_exceeded", "Rate limit exceeded", "#rate-limiting-and-availability"},
		{503, "provider_overloaded", "Provider is temporarily overloaded", "#rate-limiting-and-availability"},
		{502, "provider_unavailable", "Provider returned an invalid or empty response", "#rate-limiting-and-availability"},
		{400, "invalid_request", "A request parameter is malformed", "#request-validation"},
		{400, "invalid_prompt", "messages[1]: unsupported role", "#request-validation"},
		{404, "not_found", "Model openai/gpt-9 not found", "#request-validation"},
		{412, "precondition_failed", "Precondition failed", "#request-validation"},
		{413, "payload_too_large", "The request body is too large", "#request-validation"},
		{422, "unprocessable", "The request cannot be processed", "#request-validation"},
		{400, "content_policy_violation", "The input was flagged by a content filter", "#content-policy"},
		{400, "refusal", "The model refused to comply with the request", "#content-policy"},
		{400, "invalid_image", "An image is corrupt", "#image-errors"},
		{400, "image_too_large", "An image is too large", "#image-errors"},
		{400, "image_too_small", "An image is too small", "#image-errors"},
		{400, "unsupported_image_format", "Unsupported image format", "#image-errors"},
		{404, "image_not_found", "Image not found", "#image-errors"},
		{400, "image_download_failed", "Image download failed", "#image-errors"},
		{500, "server", "Internal Server Error", "#generic (masked)"},
		{504, "timeout", "The provider did not respond in time", "#generic"},
		{500, "unmapped", "Upstream error", "#generic"},
	} {
		add(fmt.Sprintf("%d %s", e.status, e.typ), e.section, typed(e.status, e.typ, e.message, map[string]any{"provider_code": "upstream_" + e.typ}))
	}
	add("400 untyped", "#error-codes", StatusError(400))
	add("400 unknown model", "#error-codes", Reply{Status: 400, Error: &ErrorObject{Code: 400, Message: "openai/gpt-9 is not a valid model ID"}})
	add("401 untyped", "#error-codes", Unauthorized())
	add("402 reservation", "#error-codes (OPENROUTER.md: requires more credits, or fewer max_tokens)", Reservation(64000, 1200))
	add("402 untyped", "#error-codes", StatusError(402))
	add("403 moderation", "#moderation-errors", Moderation("a flagged segment of the input"))
	add("403 guardrail", "#guardrail-errors", Reply{Status: 403, Error: &ErrorObject{Code: 403, Message: "Request blocked: prompt injection patterns detected",
		Metadata: map[string]any{"patterns": []string{"ignore all previous instructions"}}}})
	add("403 untyped", "#error-codes", StatusError(403))
	add("404 no endpoint for the parameters", "#error-codes (OPENROUTER.md)", Reply{Status: 404, Error: &ErrorObject{Code: 404,
		Message: "No endpoints found that can handle the requested parameters. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing"}})
	add("404 untyped", "#error-codes", StatusError(404))
	add("408 untyped", "#error-codes", StatusError(408))
	add("429 untyped", "#retry-after-header", RateLimited(1))
	add("502 untyped", "#error-codes", StatusError(502))
	add("503 untyped", "#error-codes", StatusError(503))
	add("503 availability retryable", "OPENROUTER.md: error.availability", Reply{Status: 503, Error: &ErrorObject{Code: 503, Message: "No provider is available right now",
		Metadata:     map[string]any{"error_type": "provider_overloaded"},
		Availability: map[string]any{"code": "capacity", "retryable": true, "retry_after": 5, "fallback_models": []string{}}}})
	add("503 availability not retryable", "OPENROUTER.md: error.availability", Reply{Status: 503, Error: &ErrorObject{Code: 503, Message: "No allowed providers are available for the selected model",
		Metadata:     map[string]any{"error_type": "provider_unavailable"},
		Availability: map[string]any{"code": "no_allowed_providers", "retryable": false, "fallback_models": []string{"openai/gpt-5.6-sol"}}}})
	add("200 mid-stream rate_limit_exceeded", "#mid-stream-errors", midStream(429, "rate_limit_exceeded", "Rate limit exceeded"))
	add("200 mid-stream provider_unavailable", "#chat-completions-apiv1chatcompletions", midStream(502, "provider_unavailable", "Provider disconnected mid-stream"))
	add("200 mid-stream content_policy_violation", "#mid-stream-errors (output content filter)", midStream(400, "content_policy_violation", "The output was flagged by a content filter"))
	add("200 mid-stream server (masked)", "#mid-stream-errors", midStream(500, "server", "Internal Server Error"))
	return out
}

// TokenLimitAfterLength is a stream in the shape recorded from the live
// API (pydantic/pydantic-ai, test_openrouter_stream_error.yaml; see
// model/testdata/recorded/README.md): keep-alive comments, reasoning
// deltas, finish_reason "length" sent twice, then an error chunk
// {"code":400,"message":"Token limit reached"} with a null finish reason
// and the usage (40 prompt, 10 completion tokens, all of them reasoning),
// then [DONE]. model names the served model in every chunk. Written here
// from that shape, with ids and text of our own.
func TokenLimitAfterLength(model string) Reply {
	m, _ := json.Marshal(model)
	head := `{"id":"gen-rec-1","provider":"Minimax","model":` + string(m) + `,"object":"chat.completion.chunk","created":1,`
	data := func(s string) string { return "data: " + head + s + "}\n\n" }
	return Reply{SSE: KeepAliveComment + "\n\n" + KeepAliveComment + "\n\n" +
		data(`"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":"First I","reasoning_details":[{"type":"reasoning.text","text":"First I","index":0,"format":null}]},"finish_reason":null,"native_finish_reason":null,"logprobs":null}]`) +
		data(`"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":" read the title","reasoning_details":[{"type":"reasoning.text","text":" read the title","index":0,"format":null}]},"finish_reason":"length","native_finish_reason":"length","logprobs":null}]`) +
		data(`"choices":[{"index":0,"delta":{"role":"assistant","content":"","reasoning":null,"reasoning_details":[]},"finish_reason":"length","native_finish_reason":"length","logprobs":null}]`) +
		data(`"error":{"code":400,"message":"Token limit reached"},"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null,"native_finish_reason":null,"logprobs":null}],"usage":{"prompt_tokens":40,"completion_tokens":10,"total_tokens":50,"cost":0,"is_byok":false,"prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},"cost_details":{"upstream_inference_cost":null},"completion_tokens_details":{"reasoning_tokens":10,"image_tokens":0}}`) +
		"data: [DONE]\n\n"}
}
