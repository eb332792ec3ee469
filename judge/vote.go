package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/metric"
)

// Vote is one judge's judgment of one answer. Exactly one of Faithful and
// Error is set: a judge that failed, refused or replied with something
// that is not a vote has an Error and no say in the verdict.
type Vote struct {
	// Judge is the judge model.
	Judge string `json:"judge"`
	// Faithful is the judge's verdict; nil on a judge error.
	Faithful *bool `json:"faithful"`
	// Quotes are the passages of the document the judge relied on.
	Quotes []string `json:"quotes"`
	// Reason is the judge's explanation.
	Reason string `json:"reason,omitempty"`
	// UngroundedQuotes are the Quotes that do not occur in the document's
	// text (see Ground): the judge misquoted or invented them.
	UngroundedQuotes []string `json:"ungrounded_quotes"`
	// Grounded is true when the vote is valid and every quote occurs in the
	// document. An ungrounded vote still counts; it is flagged in reports.
	Grounded bool `json:"grounded"`
	// Error says why there is no verdict: the API call failed, or the reply
	// is not a vote.
	Error string `json:"error,omitempty"`
	// APIError is true when the judge's call failed (an API failure, not a
	// reply that is not a vote): the run is incomplete until it is asked
	// again.
	APIError bool `json:"api_error,omitempty"`
	// TranscriptHash is the hash of the judge transcript the vote was read
	// from; "" when it was not read from a transcript.
	TranscriptHash string `json:"transcript_hash,omitempty"`
	// ModelServed is the model the server said gave the vote, set only
	// when it is another model than the judge asked for
	// (model.ServedAsAsked, on the asked id alone; the score phase clears
	// it when the judge's listing names it by its canonical slug). The
	// vote still counts as the judge's; the report says the run cannot
	// gate (§8.4: the panel is the judges named, and an answer is never
	// judged by the model that gave it).
	ModelServed string `json:"model_served,omitempty"`
}

// Valid reports whether v is a verdict rather than a judge error.
func (v Vote) Valid() bool { return v.Faithful != nil && v.Error == "" }

// ErrNotVote is wrapped by every ParseVote error.
var ErrNotVote = errors.New("the judge's reply is not a vote")

// ParseVote reads a judge's reply: the JSON object {"faithful": bool,
// "quotes": [string], "reason": string}, either the whole reply, or the only
// fenced code block that holds an object with "faithful", or else the text
// from the first "{" to the last "}" (for judges whose provider ignores
// structured output and wrap the object in prose). "faithful" is required
// and must be a JSON boolean; "quotes" and "reason" may be absent or null.
// A refusal, an empty reply or any other shape is an error wrapping
// ErrNotVote, to be recorded as a judge error and never as a verdict.
func ParseVote(content string) (Vote, error) {
	obj, err := findObject(content)
	if err != nil {
		return Vote{}, err
	}
	var raw struct {
		Faithful json.RawMessage `json:"faithful"`
		Quotes   json.RawMessage `json:"quotes"`
		Reason   json.RawMessage `json:"reason"`
	}
	if err := json.Unmarshal(obj, &raw); err != nil {
		return Vote{}, fmt.Errorf("%w: %v", ErrNotVote, err)
	}
	var v Vote
	var f bool
	if len(raw.Faithful) == 0 || json.Unmarshal(raw.Faithful, &f) != nil || string(raw.Faithful) == "null" {
		return Vote{}, fmt.Errorf(`%w: "faithful" must be true or false`, ErrNotVote)
	}
	v.Faithful = &f
	if !isNull(raw.Quotes) && json.Unmarshal(raw.Quotes, &v.Quotes) != nil {
		return Vote{}, fmt.Errorf(`%w: "quotes" must be an array of strings`, ErrNotVote)
	}
	if !isNull(raw.Reason) && json.Unmarshal(raw.Reason, &v.Reason) != nil {
		return Vote{}, fmt.Errorf(`%w: "reason" must be a string`, ErrNotVote)
	}
	if v.Quotes == nil {
		v.Quotes = []string{}
	}
	return v, nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// findObject returns the JSON object in a reply (see ParseVote). The
// whole reply and its code fences are read by metric.ExtractJSON, the one
// extractor of JSON from completions; only the last resort, an object in
// prose without a fence, is the judge's own.
func findObject(content string) ([]byte, error) {
	x := metric.ExtractJSON(content, func(v *bend.Value) bool { return v.Get("faithful") != nil })
	switch {
	case x.Value != nil && x.Value.Kind == bend.Object:
		return bend.MarshalValue(x.Value), nil
	case x.Value != nil:
		return nil, fmt.Errorf("%w: the reply is JSON but not an object", ErrNotVote)
	}
	s := strings.TrimSpace(strings.TrimPrefix(content, "\ufeff"))
	if s == "" {
		return nil, fmt.Errorf("%w: the reply is empty", ErrNotVote)
	}
	if x.How == metric.ExtractionNone && strings.Contains(x.Reason, "fenced blocks hold") {
		return nil, fmt.Errorf("%w: %s", ErrNotVote, x.Reason)
	}
	if i, j := strings.Index(s, "{"), strings.LastIndex(s, "}"); i >= 0 && j > i && json.Valid([]byte(s[i:j+1])) {
		return []byte(s[i : j+1]), nil
	}
	return nil, fmt.Errorf("%w: no JSON object in %q", ErrNotVote, snippet(s))
}

// snippet shortens s for an error message.
func snippet(s string) string {
	const n = 80
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
