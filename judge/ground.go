package judge

import (
	"strings"
	"unicode"

	"bendscript.com/round-trip-harness/bend"
)

// Grounding is the result of the checks that need no model: whether the
// evidence ids an answer cites exist in the document, and whether the
// quotes a judge gives occur in it.
type Grounding struct {
	// Evidence is the cited ids, distinct, in the order first cited.
	Evidence []string `json:"evidence"`
	// InvalidEvidence is the cited ids that name no block or span of the
	// document (bend.Document.Resolves), in citation order.
	InvalidEvidence []string `json:"invalid_evidence"`
	// EvidenceCited is len(Evidence).
	EvidenceCited int `json:"evidence_cited"`
	// EvidenceValid is the number of cited ids that resolve.
	EvidenceValid int `json:"evidence_valid"`
	// EvidenceFraction is EvidenceValid / EvidenceCited, in [0, 1]; 0 when
	// nothing is cited, since an answer that cites nothing is not grounded.
	EvidenceFraction float64 `json:"evidence_fraction"`
	// UngroundedQuotes is the quotes that do not occur in the document, in
	// the order given.
	UngroundedQuotes []string `json:"ungrounded_quotes"`
}

// Ground checks quotes and evidence ids against doc.
//
// An evidence id is valid when it names a block or span of doc: "blk-x",
// "blk-x.spn-y", or a bend: reference into doc itself; or an edge of doc,
// as "subject predicate object" (bend.Document.CitesEdge).
//
// A quote is grounded when every fragment of it occurs in the document's
// text, where
//   - the fragments are the quote split at "..." and "…" (a judge eliding
//     part of a passage), ignoring empty ones; a quote with no fragment is
//     not grounded;
//   - the text is the title, each block's text (its live spans' texts
//     joined), each code block's text, and the document's JSON
//     serialization (which holds edges, their metadata and link targets);
//   - before comparing, every run of white space in both becomes one
//     space and the ends are trimmed, so line breaks and indentation a
//     judge re-flows do not matter.
//
// Nothing else is forgiven: case, punctuation and typographic quotes must
// match, and a fragment must lie within one block.
func Ground(doc *bend.Document, quotes []string, evidence []string) Grounding {
	g := Grounding{Evidence: []string{}, InvalidEvidence: []string{}, UngroundedQuotes: []string{}}
	seen := map[string]bool{}
	for _, id := range evidence {
		if seen[id] {
			continue
		}
		seen[id] = true
		g.Evidence = append(g.Evidence, id)
		if doc.Resolves(id) || doc.CitesEdge(id) {
			g.EvidenceValid++
		} else {
			g.InvalidEvidence = append(g.InvalidEvidence, id)
		}
	}
	g.EvidenceCited = len(g.Evidence)
	if g.EvidenceCited > 0 {
		g.EvidenceFraction = float64(g.EvidenceValid) / float64(g.EvidenceCited)
	}
	if len(quotes) > 0 {
		texts := documentTexts(doc)
		for _, q := range quotes {
			if !quoteOccurs(texts, q) {
				g.UngroundedQuotes = append(g.UngroundedQuotes, q)
			}
		}
	}
	return g
}

func quoteOccurs(texts []string, quote string) bool {
	n := 0
	for _, frag := range strings.FieldsFunc(strings.ReplaceAll(quote, "...", "…"), func(r rune) bool { return r == '…' }) {
		f := collapseSpace(frag)
		if f == "" {
			continue
		}
		n++
		if !containedIn(texts, f) {
			return false
		}
	}
	return n > 0
}

func containedIn(texts []string, s string) bool {
	for _, t := range texts {
		if strings.Contains(t, s) {
			return true
		}
	}
	return false
}

// documentTexts returns the white-space-collapsed texts a quote may come
// from (see Ground).
func documentTexts(d *bend.Document) []string {
	var out []string
	if d.Title != nil {
		out = append(out, collapseSpace(*d.Title))
	}
	d.Walk(func(b *bend.Block, _ int, _ string) bool {
		if t := b.PlainText(); t != "" {
			out = append(out, collapseSpace(t))
		}
		return true
	})
	return append(out, collapseSpace(string(bend.Marshal(d))))
}

// collapseSpace replaces every run of white space in s with one space and
// trims the ends.
func collapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}
