package edit

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

const src = `{"bendscript":"0.1","id":"doc1","vocabulary":"core","blocks":[
 {"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"alpha "},{"id":"s2","text":"beta","marks":["bold",{"kind":"link","target":"https://x.org"}]}]},
 {"id":"l1","kind":"list","ordered":false,"items":[{"id":"i1","kind":"list-item","blocks":[{"id":"p1","kind":"paragraph","spans":[{"id":"s1","text":"item"}]}]}]}
],"edges":[{"subject":"bend:doc1#b1.s1","predicate":"cites","object":"https://y.org"}]}`

func parse(t *testing.T, s string) *bend.Document {
	t.Helper()
	d, err := bend.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func ops(t *testing.T, s string) []*Op {
	t.Helper()
	o, err := Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestApplyThenCheck(t *testing.T) {
	cases := []struct {
		name, ops string
		reason    string
	}{
		{"set_text", `[{"op":"set_text","block":"b1","span":"s1","text":"gamma "}]`, "text edit"},
		{"marks", `[{"op":"add_mark","block":"b1","span":"s1","mark":"italic"},{"op":"remove_mark","block":"b1","span":"s2","mark":"bold"}]`, "mark edits"},
		{"type-link", `[{"op":"set_link_predicate","block":"b1","span":"s2","target":"https://x.org","predicate":"cites"}]`, "untyped → typed link"},
		{"insert-item", `[{"op":"insert_block","after":"i1","block":{"id":"i2","kind":"list-item","blocks":[{"id":"p2","kind":"paragraph","spans":[{"id":"s1","text":"new"}]}]}}]`, "insert in a nested list"},
		{"supersede", `[{"op":"supersede_span","block":"b1","span":"s2","new_span":{"id":"s3","text":"BETA"}}]`, "tombstone + edge"},
		{"edges", `[{"op":"add_edge","edge":{"subject":"bend:","predicate":"supersedes","object":"bend:old","meta":{"weight":0.5}}},{"op":"remove_edge","subject":"bend:#b1.s1","predicate":"cites","object":"https://y.org"}]`, "edges, relative and declared self-references equal"},
		{"spans", `[{"op":"insert_span","block":"b1","after":"","span":{"id":"s0","text":"> "}},{"op":"remove_span","block":"p1","span":"s1"}]`, "span insert/remove"},
		{"move", `[{"op":"remove_block","block":"b1"},{"op":"insert_block","after":"l1","block":{"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"alpha "},{"id":"s2","text":"beta","marks":["bold",{"kind":"link","target":"https://x.org"}]}]}}]`, "a move is remove_block then insert_block of the same id (as bend-ops writes it): the remove holds because the insert puts the block back"},
		{"list-kind", `[{"op":"remove_block","block":"l1"},{"op":"insert_block","after":"b1","block":{"id":"l1","kind":"list","ordered":true,"items":[{"id":"i1","kind":"list-item","blocks":[{"id":"p1","kind":"paragraph","spans":[{"id":"s1","text":"item"}]}]}]}}]`, "a list's ordered changes by replacing the list with the same id"},
		{"renest", `[{"op":"remove_block","block":"p1"},{"op":"remove_block","block":"l1"},{"op":"insert_block","after":"b1","block":{"id":"l1","kind":"list","ordered":false,"items":[{"id":"i1","kind":"list-item","blocks":[{"id":"p1","kind":"paragraph","spans":[{"id":"s1","text":"item"}]},{"id":"p9","kind":"paragraph","spans":[{"id":"s1","text":"more"}]}]}]}}]`, "a removed block put back inside a later inserted block (p1 inside l1) holds too"},
		{"header", `[{"op":"set_vocabulary","vocabulary":"com.example.v1"},{"op":"set_title","title":"T"},{"op":"remove_block","block":"l1"}]`, "header and block removal"},
	}
	source := parse(t, src)
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			o := ops(t, c.ops)
			exp, err := Apply(source, o)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if errs := bend.Validate(exp); len(errs) > 0 {
				t.Fatalf("expected document invalid: %v", errs)
			}
			if applied, frac := Compliance(Check(exp, source.ID, o)); !applied || frac != 1 {
				t.Errorf("expected document fails its own check (%s): %+v", c.reason, Check(exp, source.ID, o))
			}
			if applied, _ := Compliance(Check(source, source.ID, o)); applied {
				t.Errorf("unchanged source passes the check (%s)", c.reason)
			}
			// Apply must not change its input.
			if string(bend.MarshalCompact(source)) != string(bend.MarshalCompact(parse(t, src))) {
				t.Fatal("Apply modified the source")
			}
		})
	}
}

// TestCheckAcceptsEquivalentForms: what a model may legitimately write
// differently still satisfies the operation.
func TestCheckAcceptsEquivalentForms(t *testing.T) {
	source := parse(t, src)
	o := ops(t, `[{"op":"add_edge","edge":{"subject":"bend:#b1.s2","predicate":"supersedes","object":"bend:"}},{"op":"supersede_span","block":"b1","span":"s1","new_span":{"id":"s9","text":"x"}}]`)
	out := strings.Replace(src, `"edges":[`, `"edges":[{"subject":"bend:doc1#b1.s2","predicate":"supersedes","object":"bend:doc1"},{"subject":"bend:doc1#b1.s9","predicate":"supersedes","object":"bend:doc1#b1.s1"},`, 1)
	// old span removed entirely rather than kept as a tombstone (§5.3 allows both)
	out = strings.Replace(out, `{"id":"s1","text":"alpha "}`, `{"id":"s9","text":"x"}`, 1)
	res := Check(parse(t, out), source.ID, o)
	if applied, _ := Compliance(res); !applied {
		t.Errorf("equivalent output rejected: %+v", res)
	}
	// A model that changed the declared id but kept self-references to the
	// source id is still understood.
	out2 := strings.Replace(out, `"id":"doc1"`, `"id":"changed"`, 1)
	if applied, _ := Compliance(Check(parse(t, out2), source.ID, o)); !applied {
		t.Errorf("stale self-references not recognised")
	}
}

func TestCheckRejects(t *testing.T) {
	source := parse(t, src)
	cases := []struct{ name, ops, out, want, reason string }{
		{"wrong-text", `[{"op":"set_text","block":"b1","span":"s1","text":"gamma "}]`, strings.Replace(src, `"alpha "`, `"gamma"`, 1), "span text differs", "Check compares span text exactly: an answer that drops the requested trailing space has not made the edit"},
		{"wrong-position", `[{"op":"insert_block","after":"b1","block":{"id":"b2","kind":"divider"}}]`, strings.Replace(src, `"blocks":[`, `"blocks":[{"id":"b2","kind":"divider"},`, 1), "not right after", "insert_block is about position: the new block present but first in the document, not right after b1, fails"},
		{"wrong-predicate", `[{"op":"set_link_predicate","block":"b1","span":"s2","target":"https://x.org","predicate":"cites"}]`, strings.Replace(src, `{"kind":"link","target":"https://x.org"}`, `{"kind":"link","target":"https://x.org","predicate":"supports"}`, 1), "no link mark", "a link to the right target with another predicate (supports, not cites) is not the requested link"},
		{"edge-meta", `[{"op":"add_edge","edge":{"subject":"bend:","predicate":"supersedes","object":"bend:old","meta":{"weight":0.5}}}]`, strings.Replace(src, `"edges":[`, `"edges":[{"subject":"bend:","predicate":"supersedes","object":"bend:old","meta":{"weight":0.6}},`, 1), "no edge", "an edge is compared with its meta: the right subject, predicate and object with weight 0.6 instead of 0.5 is not the requested edge"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			res := Check(parse(t, c.out), source.ID, ops(t, c.ops))
			if res[0].OK || !strings.Contains(res[0].Reason, c.want) {
				t.Errorf("got %+v, want failure containing %q (%s)", res[0], c.want, c.reason)
			}
		})
	}
}

// TestCheckMove: the remove_block of a move holds only through the
// insert_block that puts the block back, whose own check decides where.
func TestCheckMove(t *testing.T) {
	source := parse(t, src)
	move := ops(t, `[{"op":"remove_block","block":"b1"},{"op":"insert_block","after":"l1","block":{"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"alpha "},{"id":"s2","text":"beta","marks":["bold",{"kind":"link","target":"https://x.org"}]}]}}]`)
	res := Check(source, source.ID, move)
	if !res[0].OK || res[1].OK || !strings.Contains(res[1].Reason, "not right after") {
		t.Errorf("block left in place: got %+v, want the remove to hold and the insert to fail as not right after l1", res)
	}
	gone := parse(t, strings.Replace(src, `{"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"alpha "},{"id":"s2","text":"beta","marks":["bold",{"kind":"link","target":"https://x.org"}]}]},`, ``, 1))
	if res := Check(gone, source.ID, move); res[1].OK || !strings.Contains(res[1].Reason, `no block "b1"`) {
		t.Errorf("block dropped instead of moved: got %+v, want the insert to fail", res)
	}
	// Without a later insert of the same id, remove_block still wants the
	// block gone.
	if res := Check(source, source.ID, move[:1]); res[0].OK {
		t.Errorf("a lone remove_block of a block still there holds: %+v", res)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{`{}`, "array", "a gold edit is an array of operations, so an object is refused whole"},
		{`[{"op":"nope"}]`, `unknown op "nope"`, "an op name outside the language is named in the error"},
		{`[{"op":"set_text","block":"b"}]`, `needs "span"`, "a required field left out is named, so an author sees what to add"},
		{`[{"op":"set_text","block":"b","span":"s","text":"t","extra":1}]`, `does not take "extra"`, "an unknown field is refused rather than ignored, so a misspelt optional field cannot pass silently"},
		{`[{"op":"add_mark","block":"b","span":"s","mark":"underline"}]`, ``, "a mark name outside the vocabulary parses: Parse checks shape, and Apply and schema validation report unknown marks"},
		{`[{"op":"add_mark","block":"b","span":"s","mark":{"kind":"color"}}]`, `mark`, "an object mark must be a link (§2.5), so an object of another kind is refused at parse time, unlike an unknown mark name"},
	}) {
		_, err := Parse([]byte(c.in))
		if c.want == "" {
			continue // accepted at parse time; Apply/validation reports unknown marks
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want %q (%s)", c.in, err, c.want, c.reason)
		}
	}
}

func TestApplyErrors(t *testing.T) {
	source := parse(t, src)
	for _, c := range tabletest.Cases(t, []struct{ ops, want, reason string }{
		{`[{"op":"set_text","block":"zz","span":"s1","text":"x"}]`, `no block "zz"`, "an op that names a block the document does not have fails and names the id"},
		{`[{"op":"add_mark","block":"b1","span":"s2","mark":"bold"}]`, "already has that mark", "adding a mark the span already has is an error, not a no-op, so a gold edit cannot be vacuous"},
		{`[{"op":"insert_block","after":"b1","block":{"id":"l1","kind":"divider"}}]`, "already exists", "inserting a block with an id the document already uses would make ids ambiguous, so it fails"},
		{`[{"op":"remove_edge","subject":"bend:#b1","predicate":"cites","object":"x:y"}]`, "no edge", "removing an edge that is not there fails rather than passing as a no-op"},
	}) {
		_, err := Apply(source, ops(t, c.ops))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apply(%s) = %v, want %q (%s)", c.ops, err, c.want, c.reason)
		}
	}
}
