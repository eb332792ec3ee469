package model

import (
	"bytes"
	"encoding/json"
	"strings"
)

// chunkLog is the record of a stream's chunks that an attempt keeps
// (issue 55: 100,000 one-character chunks of a 100 KB answer made a
// 23.6 MB transcript and a 307 MB peak): every chunk that carries
// anything but content is kept as it arrived, and so are the stream's
// first and last chunks; a run of chunks that differ from each other in
// their content alone (one choice, the same id, model, role and every
// other field) is kept as one chunk, the run's first with the run's
// content joined, and a "harness_merged" member saying how many chunks
// it joins, their content's bytes, and when the first and the last of
// them arrived (milliseconds after the request was sent). The content,
// reasoning, finish reason and usage a reader assembles from the record
// are those of the chunks themselves (interpretStream reads both alike).
type chunkLog struct {
	kept [][]byte // the record's chunks, in order
	n    int      // the chunks added
	run  *chunkRun
}

// chunkRun is a run of chunks that differ in their content alone.
type chunkRun struct {
	sig      string // the chunk without its content
	first    []byte // the run's first chunk as it arrived
	content  strings.Builder
	lastRaw  []byte // the run's last chunk as it arrived
	lastLen  int    // its content's length
	n        int
	from, to int64
}

// MergedChunk is the member a merged chunk of a stream's record carries
// (chunkLog): the harness's own.
type MergedChunk struct {
	Chunks int   `json:"chunks"`
	Bytes  int   `json:"bytes"`
	FromMS int64 `json:"from_ms"`
	ToMS   int64 `json:"to_ms"`
}

// add records a chunk that arrived at ms after the request was sent.
func (l *chunkLog) add(raw []byte, ms int64) {
	l.n++
	sig, content, ok := contentOnly(raw)
	if l.n == 1 || !ok {
		l.flush()
		l.kept = append(l.kept, raw)
		return
	}
	if l.run != nil && l.run.sig != sig {
		l.flush()
	}
	if l.run == nil {
		l.run = &chunkRun{sig: sig, first: raw, from: ms}
	}
	r := l.run
	r.content.WriteString(content)
	r.lastRaw, r.lastLen, r.to = raw, len(content), ms
	r.n++
}

// flush ends the open run: one chunk as it arrived, or its merge.
func (l *chunkLog) flush() {
	r := l.run
	l.run = nil
	switch {
	case r == nil:
	case r.n == 1:
		l.kept = append(l.kept, r.first)
	default:
		l.kept = append(l.kept, merged(r.first, r.content.String(), MergedChunk{Chunks: r.n, Bytes: r.content.Len(), FromMS: r.from, ToMS: r.to}))
	}
}

// chunks returns the record, the stream's last chunk as it arrived.
func (l *chunkLog) chunks() [][]byte {
	if r := l.run; r != nil && r.n > 1 {
		// The last chunk stays as it arrived: the run ends before it.
		last := r.lastRaw
		all := r.content.String()
		r.content.Reset()
		r.content.WriteString(all[:len(all)-r.lastLen])
		r.n--
		l.flush()
		l.kept = append(l.kept, last)
	}
	l.flush()
	return l.kept
}

// contentOnly returns a chunk without its content (its signature), and
// its content, when it is a JSON object with one choice whose delta's
// content is a string; ok is false otherwise.
func contentOnly(raw []byte) (sig, content string, ok bool) {
	var ch map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&ch) != nil || dec.More() {
		return "", "", false
	}
	choices, _ := ch["choices"].([]any)
	if len(choices) != 1 {
		return "", "", false
	}
	choice, _ := choices[0].(map[string]any)
	delta, _ := choice["delta"].(map[string]any)
	content, ok = delta["content"].(string)
	if !ok {
		return "", "", false
	}
	delete(delta, "content")
	b, err := json.Marshal(ch)
	if err != nil {
		return "", "", false
	}
	return string(b), content, true
}

// merged is first with its content replaced by content and the record m.
func merged(first []byte, content string, m MergedChunk) []byte {
	var ch map[string]any
	dec := json.NewDecoder(bytes.NewReader(first))
	dec.UseNumber()
	dec.Decode(&ch)
	ch["choices"].([]any)[0].(map[string]any)["delta"].(map[string]any)["content"] = content
	ch["harness_merged"] = m
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(ch)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
