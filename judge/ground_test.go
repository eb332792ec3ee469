package judge

import (
	"reflect"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestGroundQuotes(t *testing.T) {
	tests := []struct {
		name       string
		task       string
		quote      string
		ungrounded bool
		reason     string
	}{
		{"span text", "01-a", "The count totalled 41 species and 386 individuals.", false, "a span's text is document text"},
		{"part of a span", "01-a", "41 species and 386 individuals", false, "a quote may be part of a passage"},
		{"across spans of one block", "02-a", "recommended a new unit of length equal to one ten-millionth of the distance", false, "a block's text is its spans joined"},
		{"code with re-flowed white space", "07-a", "case <-ctx.Done():\n    return ctx.Err()", false, "judges re-indent code; tabs and line breaks collapse to one space"},
		{"elided middle", "03-a", "The cause was an expired TLS certificate ... the payments service.", false, "an ellipsis joins fragments that must each occur"},
		{"unicode ellipsis at the ends", "01-a", "…41 species and 386 individuals…", false, "a leading or trailing ellipsis marks a partial quote"},
		{"edge metadata", "15-a", `"confidence": 0.85`, false, "edges and their meta are part of the document, read from its JSON"},
		{"title", "17-a", "Memory: Halvorsen Freight deployment preferences", false, "the title is document text"},
		{"invented", "01-a", "The count totalled 38 species.", true, "a quote the document does not hold is ungrounded"},
		{"elided with an invented fragment", "03-a", "The cause was an expired TLS certificate ... rotated every week.", true, "every fragment must occur"},
		{"across blocks", "01-a", "No bearded tits were seen or heard for the second survey in a row. Field notes", true, "a fragment must lie within one block"},
		{"changed case", "01-a", "the count totalled 41 species", true, "case is not forgiven: the quote must be verbatim"},
		{"typographic apostrophe", "16-a", "the budget holder’s written approval", true, "punctuation is not forgiven either"},
		{"empty", "01-a", "  ", true, "an empty quote supports nothing"},
		{"only an ellipsis", "01-a", "...", true, "a quote with no fragment supports nothing"},
		{"live spans around a tombstone", "16-a", "1.1 Economy class is required", false, "a tombstone has no text, so its live neighbours join"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			g := Ground(taskA(t, tt.task).Source.Doc, []string{tt.quote}, nil)
			if got := len(g.UngroundedQuotes) == 1; got != tt.ungrounded {
				t.Errorf("ungrounded = %v, want %v (%s)", got, tt.ungrounded, tt.reason)
			}
		})
	}
}

func TestGroundEvidence(t *testing.T) {
	doc := taskA(t, "03-a").Source.Doc
	tests := []struct {
		name     string
		evidence []string
		want     Grounding
		reason   string
	}{
		{
			name:     "spans and a block",
			evidence: []string{"blk-7b04.spn-02", "blk-d3e6"},
			want:     Grounding{Evidence: []string{"blk-7b04.spn-02", "blk-d3e6"}, InvalidEvidence: []string{}, EvidenceCited: 2, EvidenceValid: 2, EvidenceFraction: 1},
			reason:   "block and span ids of the document are valid",
		},
		{
			name:     "bend references",
			evidence: []string{"bend:#blk-7b04.spn-03", "bend:" + doc.ID + "#blk-7b04", "bend:bagaaieraother#blk-7b04"},
			want:     Grounding{Evidence: []string{"bend:#blk-7b04.spn-03", "bend:" + doc.ID + "#blk-7b04", "bend:bagaaieraother#blk-7b04"}, InvalidEvidence: []string{"bend:bagaaieraother#blk-7b04"}, EvidenceCited: 3, EvidenceValid: 2, EvidenceFraction: 2.0 / 3},
			reason:   "self-references resolve; a reference into another document is not evidence in this one",
		},
		{
			name:     "invented span and duplicate",
			evidence: []string{"blk-7b04.spn-02", "blk-7b04.spn-04", "blk-7b04.spn-02"},
			want:     Grounding{Evidence: []string{"blk-7b04.spn-02", "blk-7b04.spn-04"}, InvalidEvidence: []string{"blk-7b04.spn-04"}, EvidenceCited: 2, EvidenceValid: 1, EvidenceFraction: 0.5},
			reason:   "a span the block does not have is invalid; a repeated id counts once",
		},
		{
			name:     "nothing cited",
			evidence: nil,
			want:     Grounding{Evidence: []string{}, InvalidEvidence: []string{}},
			reason:   "an answer that cites nothing has fraction 0, not 1",
		},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			tt.want.UngroundedQuotes = []string{}
			if got := Ground(doc, nil, tt.evidence); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Ground =\n  %+v\nwant\n  %+v\n(%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestGroundEdgeQuotes: a judge may quote an edge's predicate or a meta
// value when the answer rests on an edge; it grounds in the document.
func TestGroundEdgeQuotes(t *testing.T) {
	doc := corpusSet(t).Task("18-a").Source.Doc
	g := Ground(doc, []string{"bendscript.argument.v1:rebuts", "not in the document at all"}, []string{"blk-b205 bendscript.argument.v1:rebuts blk-b203"})
	if len(g.UngroundedQuotes) != 1 || g.UngroundedQuotes[0] != "not in the document at all" || g.EvidenceValid != 1 {
		t.Errorf("ungrounded %v, evidence valid %d; want only the invented quote ungrounded and the edge valid", g.UngroundedQuotes, g.EvidenceValid)
	}
}
