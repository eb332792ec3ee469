package metric

import (
	"fmt"
	"sort"

	"bendscript.com/round-trip-harness/bend"
)

// AnswerResult is the deterministic part of a class A score: whether the
// answer has the requested shape and whether its evidence exists in the
// document. Whether the answer is right is the judge's call, not this one.
type AnswerResult struct {
	// MetricVersion is Version.
	MetricVersion string `json:"metric_version"`
	// Valid is true when the answer is the requested JSON object: a string
	// "answer" and an "evidence" array of strings.
	Valid bool `json:"valid"`
	// Reason says why the answer is not valid; empty when it is.
	Reason string `json:"reason,omitempty"`
	// Extraction is "bare", "fenced" or "none", as for Result.
	Extraction string `json:"extraction"`
	// Answer is the answer text.
	Answer string `json:"answer"`
	// Evidence is the cited ids, distinct, in the order first cited.
	Evidence []string `json:"evidence"`
	// Unresolved is the cited ids that name no block or span of the
	// document (bend.Document.Resolves), in citation order.
	Unresolved []string `json:"unresolved"`
	// EvidenceResolved is the fraction of Evidence that resolves; 0 when
	// nothing is cited (an answer without evidence is not grounded).
	EvidenceResolved float64 `json:"evidence_resolved"`
	// Diagnostics are findings beside the result: unknown members, duplicate
	// citations, no evidence, text around a fence.
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// The kinds of Diagnostic that ScoreAnswer adds.
const (
	KindUnknownMember     = "unknown_member"     // the answer object has a member besides answer and evidence
	KindDuplicateEvidence = "duplicate_evidence" // an id is cited more than once
	KindNoEvidence        = "no_evidence"        // the evidence array is empty
)

// ScoreAnswer checks a model's raw answer to a class A task against the
// source document: the answer must be {"answer": "...", "evidence":
// ["blk-…" or "blk-….spn-…", ...]}, bare or in one fenced block. A piece
// of evidence resolves when it names a block or span (Document.Resolves)
// or an edge, as "subject predicate object" (Document.CitesEdge).
func ScoreAnswer(source *bend.Document, raw string) AnswerResult {
	r := AnswerResult{MetricVersion: Version, Evidence: []string{}, Unresolved: []string{}, Diagnostics: []Diagnostic{}}
	x := ExtractJSON(raw, func(v *bend.Value) bool { return v.Get("answer") != nil })
	r.Extraction = x.How
	if x.Value == nil || x.Reason != "" {
		r.Reason = x.Reason
		return r
	}
	var l diagList
	if x.Prose > 0 {
		l.add(KindProse, fmt.Sprintf("%d non-blank characters outside the fenced block", x.Prose))
	}
	answer, evidence, reason := answerShape(x.Value, &l)
	if reason != "" {
		r.Reason = reason
		r.Diagnostics = l.sorted()
		return r
	}
	r.Valid, r.Answer = true, answer
	seen := make(map[string]bool)
	for _, ev := range evidence {
		if seen[ev] {
			l.add(KindDuplicateEvidence, ev)
			continue
		}
		seen[ev] = true
		r.Evidence = append(r.Evidence, ev)
		if !source.Resolves(ev) && !source.CitesEdge(ev) {
			r.Unresolved = append(r.Unresolved, ev)
		}
	}
	if len(r.Evidence) == 0 {
		l.add(KindNoEvidence, "the answer cites no evidence")
	} else {
		r.EvidenceResolved = float64(len(r.Evidence)-len(r.Unresolved)) / float64(len(r.Evidence))
	}
	r.Diagnostics = l.sorted()
	return r
}

// answerShape reads {"answer": string, "evidence": [string, ...]} from v,
// or says why v is not that.
func answerShape(v *bend.Value, l *diagList) (answer string, evidence []string, reason string) {
	if v.Kind != bend.Object {
		return "", nil, "the JSON is not an object"
	}
	var members []string
	for _, m := range v.Members {
		if m.Key != "answer" && m.Key != "evidence" {
			members = append(members, m.Key)
		}
	}
	sort.Strings(members)
	for _, k := range members {
		l.add(KindUnknownMember, k)
	}
	a, ev := v.Get("answer"), v.Get("evidence")
	switch {
	case a == nil:
		return "", nil, `no "answer" member`
	case a.Kind != bend.String:
		return "", nil, `"answer" is not a string`
	case ev == nil:
		return "", nil, `no "evidence" member`
	case ev.Kind != bend.Array:
		return "", nil, `"evidence" is not an array`
	}
	for i, e := range ev.Elems {
		if e.Kind != bend.String {
			return "", nil, fmt.Sprintf(`"evidence"[%d] is not a string`, i)
		}
		evidence = append(evidence, e.Str)
	}
	return a.Str, evidence, ""
}
