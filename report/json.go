package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"bendscript.com/round-trip-harness/internal/regularfile"
)

// WriteJSON writes r as indented JSON (two spaces) with a final newline,
// its answers last, one to a line (writeAnswers). Fields come in the
// order of the Report struct and map keys sorted, and floats in Go's
// shortest exact form, so the same Report gives the same bytes.
//
// The head (the report less its answers) goes to w as it is encoded,
// less its closing "\n}\n" when answers follow: a head grows with the
// answers too (each document's repeats), and buffering it whole before
// writing held it three times over, 35 MB of a 48,000-answer rescore's
// peak (issue 55).
func WriteJSON(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	var held *holdBack
	var out io.Writer = bw
	if len(r.Answers) > 0 {
		held = &holdBack{w: bw, n: len(headEnd)}
		out = held
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	head := *r
	head.Answers = nil
	if err := enc.Encode(&head); err != nil {
		return fmt.Errorf("encoding report: %w", err)
	}
	if held != nil {
		if string(held.tail) != headEnd {
			return fmt.Errorf("encoding report: not an indented JSON object")
		}
		if err := writeAnswers(bw, r.Answers); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// headEnd is how an indented report without answers ends.
const headEnd = "\n}\n"

// holdBack passes what is written to w, less the last n bytes, which it
// holds in tail.
type holdBack struct {
	w    io.Writer
	n    int
	tail []byte
}

func (h *holdBack) Write(p []byte) (int, error) {
	all := len(h.tail) + len(p)
	if all <= h.n {
		h.tail = append(h.tail, p...)
		return len(p), nil
	}
	// Pass on the held bytes and p but the last n of them.
	pass := all - h.n
	if k := min(pass, len(h.tail)); k > 0 {
		if _, err := h.w.Write(h.tail[:k]); err != nil {
			return 0, err
		}
		h.tail = append(h.tail[:0], h.tail[k:]...)
		pass -= k
	}
	if _, err := h.w.Write(p[:pass]); err != nil {
		return 0, err
	}
	h.tail = append(h.tail, p[pass:]...)
	return len(p), nil
}

// MarshalJSON returns what WriteJSON writes.
func MarshalJSON(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadJSON reads a report written by WriteJSON: of this schema, or of
// schema 2 or 3, which it converts (fromSchema2, fromSchema3), so that an
// old report still opens, renders and compares. It refuses other schema versions. name is
// used in errors.
func ReadJSON(rd io.Reader, name string) (*Report, error) {
	var probe struct {
		Schema *int `json:"schema"`
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("%s: not a report: %w", name, err)
	}
	if kind := notReport(b); kind != "" {
		return nil, fmt.Errorf("%s: not a report but %s: give a report, reports/<run-id>.json", name, kind)
	}
	switch {
	case probe.Schema == nil:
		return nil, fmt.Errorf("%s: /schema: report schema none, this harness reads %d, 3 and 2", name, SchemaVersion)
	case *probe.Schema == 2 || *probe.Schema == 3:
		if b, err = convert(b, *probe.Schema); err != nil {
			return nil, fmt.Errorf("%s: converting a schema %d report: %w", name, *probe.Schema, err)
		}
	case *probe.Schema != SchemaVersion:
		return nil, fmt.Errorf("%s: /schema: report schema %d, this harness reads %d, 3 and 2", name, *probe.Schema, SchemaVersion)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: not a report: %w", name, err)
	}
	return &r, nil
}

// notReport says what a JSON file that is no report is, when it is one of
// the harness's other files (a run's manifest, a transcript, a
// comparison); "" otherwise.
func notReport(b []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return "not a JSON object"
	}
	has := func(k string) bool { _, ok := m[k]; return ok }
	switch {
	case has("verdict") && has("results"):
		return ""
	case has("task_ids"):
		return "a run's manifest (run.json)"
	case has("request") || has("attempts"):
		return "a transcript"
	case has("rows") && has("old"):
		return "a comparison (harness compare --format json)"
	}
	return "" // the schema check says what is wrong
}

// MaxFileSize bounds a JSON report that compare, trend and runs read
// (regularfile: a device or a pipe is refused too): a 300 MB report took
// 908 MB to compare (issue 32). A report holds about 1.5 to 2.5 kB per
// answer (make demo's gating run, an offline delegate run), so this is
// over a hundred thousand answers. Those commands read a report without
// its answers (ReadHead), which they pass as they stream by: compare of
// a 128 MB report of 300,000 answers takes 50 MB (issue 55).
const MaxFileSize = 256 << 20

// ReadFiles reads JSON reports (ReadJSON), in the order named.
func ReadFiles(names []string) ([]*Report, error) { return readEach(names, ReadJSON) }

// readEach reads the reports named, in order, each a regular file of at
// most MaxFileSize bytes, with read.
func readEach(names []string, read func(io.Reader, string) (*Report, error)) ([]*Report, error) {
	reps := make([]*Report, len(names))
	for i, name := range names {
		f, err := regularfile.Open(name, MaxFileSize)
		if err != nil {
			return nil, err
		}
		reps[i], err = read(f, name)
		f.Close()
		if err != nil {
			return nil, err
		}
	}
	return reps, nil
}

// StripRescoredAt returns a JSON report without its rescored_at line. A
// rescored report stripped so equals, byte for byte, the fresh report of
// the same transcripts scored by the same metric: that is the rescore
// guarantee, and how to check it (shell: grep -v '^  "rescored_at": ').
func StripRescoredAt(report []byte) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(report, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte(`  "rescored_at": `)) {
			out = append(out, line...)
		}
	}
	return out
}

// fromSchema2 converts a schema 2 report's JSON to schema 3's. Schema 2
// gave each interval as a percentile bootstrap's two ends (low, high),
// with one record of its resamples and seed (bootstrap); schema 3 gives
// each its confidences and method, and says how every interval is made
// (intervals). The conversion keeps every number as schema 2 computed it
// and says so: each interval is a two-sided 95% one (each end at 97.5%,
// as a percentile bootstrap's are) whose method names the bootstrap, and
// intervals says the report was converted. Fields schema 3 added (a
// check's documents over a P95, the spread across repeats) stay absent,
// as they are in any report that lacks them.
func fromSchema2(doc map[string]any) {
	method := "percentile bootstrap (a schema 2 report)"
	if bs, ok := doc["bootstrap"].(map[string]any); ok {
		method = fmt.Sprintf("percentile bootstrap, %v resamples, seed %v (a schema 2 report)", bs["resamples"], bs["seed"])
	}
	delete(doc, "bootstrap")
	doc["intervals"] = map[string]any{
		"level": 0.95, "quantiles": method, "shares": method,
		"unit": "each document's mean over its repeats, as schema 2 computed it (a report converted from schema 2; its intervals were bootstrapped)",
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			_, low := v["low"]
			_, high := v["high"]
			if _, level := v["level"]; low && high && !level {
				v["level"], v["low_level"], v["high_level"], v["method"] = 0.95, 0.975, 0.975, method
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
}

// convert is a schema 2 or 3 report's JSON as this schema's.
func convert(b []byte, schema int) ([]byte, error) {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	if doc["verdict"] == nil || doc["results"] == nil {
		return nil, fmt.Errorf("it has no verdict or no results: not a report")
	}
	if schema == 2 {
		fromSchema2(doc)
	}
	fromSchema3(doc)
	doc["schema"] = SchemaVersion
	return json.Marshal(doc)
}

// schema3Class maps a schema 3 class result's keys that schema 4 renamed,
// when its ClassResult came to embed Summary, to their new names: the
// shares take Summary's names, the count of lossless answers is
// lossless_count (schema 3's lossless was a count in a class and a share
// in a row), and tasks counts the tasks with a value (schema 3's
// documents; schema 3's tasks, the class's tasks in the run, is planned
// over the repeats and goes).
var schema3Class = []struct{ from, to string }{
	{"tasks", ""},
	{"documents", "tasks"},
	{"lossless", "lossless_count"},
	{"lossless_rate", "lossless"},
	{"edit_compliance_rate", "edits_applied"},
	{"edit_compliance_mean", "edit_compliance"},
	{"invalid_rate", "invalid_share"},
	{"unchanged_rate", "unchanged"},
}

// fromSchema3 renames, in each model's class results, the keys schema 4
// renamed (schema3Class), every number staying as written, and keeps each
// warning, which schema 3 wrote as a sentence, as that sentence
// (WarnWritten).
func fromSchema3(doc map[string]any) {
	if ws, ok := doc["warnings"].([]any); ok {
		for i, w := range ws {
			if text, ok := w.(string); ok {
				ws[i] = map[string]any{"kind": WarnWritten, "items": []any{text}}
			}
		}
	}
	results, _ := doc["results"].(map[string]any)
	for _, m := range results {
		mr, _ := m.(map[string]any)
		for _, k := range []string{"class_a", "class_b", "class_c"} {
			c, ok := mr[k].(map[string]any)
			if !ok {
				continue
			}
			for _, r := range schema3Class {
				v, had := c[r.from]
				delete(c, r.from)
				if had && r.to != "" {
					c[r.to] = v
				}
			}
		}
	}
}
