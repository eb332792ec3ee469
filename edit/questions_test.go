package edit

import (
	"slices"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestOpQuestions: what the size ladder and the natural suite ask of an
// operation (whether it edits the whole document, which block it lands
// on, which texts it writes) is answered by the operation table, for
// every operation of the language: a case per kind, so that a new
// operation must say what it answers.
func TestOpQuestions(t *testing.T) {
	cases := tabletest.Cases(t, []struct {
		op      string
		whole   bool
		landing string
		texts   []string
		reason  string
	}{
		{`{"op":"set_text","block":"b1","span":"s1","text":"gamma"}`, false, "b1", []string{"gamma"}, "a span's new text, in its block"},
		{`{"op":"set_code_text","block":"c1","text":"x := 1"}`, false, "c1", []string{"x := 1"}, "a code block's new text"},
		{`{"op":"add_mark","block":"b1","span":"s1","mark":"italic"}`, false, "b1", nil, "a mark writes no text"},
		{`{"op":"remove_mark","block":"b1","span":"s2","mark":"bold"}`, false, "b1", nil, "a removal writes no text"},
		{`{"op":"set_link_predicate","block":"b1","span":"s2","target":"https://x.org","predicate":"cites"}`, false, "b1", nil, "a predicate is no text"},
		{`{"op":"insert_block","after":"b1","block":{"id":"b9","kind":"paragraph","spans":[{"id":"s1","text":"new "},{"id":"s2","text":"words"}]}}`, false, "b1", []string{"new ", "words"}, "lands after its anchor; writes its spans' texts"},
		{`{"op":"remove_block","block":"l1"}`, false, "l1", nil, "the block removed"},
		{`{"op":"insert_span","block":"b1","after":"s1","span":{"id":"s9","text":"more"}}`, false, "b1", []string{"more"}, "a new span's text"},
		{`{"op":"remove_span","block":"b1","span":"s2"}`, false, "b1", nil, "a removal writes no text"},
		{`{"op":"supersede_span","block":"b1","span":"s1","new_span":{"id":"s9","text":"newer"}}`, false, "b1", []string{"newer"}, "the superseding span's text"},
		{`{"op":"add_edge","edge":{"subject":"https://y.org","predicate":"cites","object":"bend:doc1#b1.s1"}}`, false, "b1", nil, "an edge lands on the block of the document it names (here its object)"},
		{`{"op":"remove_edge","subject":"bend:doc1#b1.s1","predicate":"cites","object":"https://y.org"}`, false, "b1", nil, "its subject's block"},
		{`{"op":"set_vocabulary","vocabulary":"core"}`, true, "", nil, "the whole document"},
		{`{"op":"set_title","title":"A title"}`, true, "", []string{"A title"}, "the whole document, and the title is a text"},
	})
	seen := map[string]bool{}
	for _, c := range cases {
		os, err := Parse([]byte("[" + c.op + "]"))
		if err != nil {
			t.Errorf("%s: %v", c.op, err)
			continue
		}
		op := os[0]
		seen[op.Name] = true
		if op.Whole() != c.whole || op.Landing("doc1") != c.landing || !slices.Equal(op.Texts(), c.texts) {
			t.Errorf("%s: whole %v, landing %q, texts %q; want %v, %q, %q (%s)", op.Name, op.Whole(), op.Landing("doc1"), op.Texts(), c.whole, c.landing, c.texts, c.reason)
		}
	}
	for name := range kinds {
		if !seen[name] {
			t.Errorf("operation %s has no case: say whether it edits the whole document, where it lands and what it writes", name)
		}
	}
}
