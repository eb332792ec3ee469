package edit

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// invSrc has what inverses trip over: a tombstone, a span with an empty marks
// member, a span with two marks, a link written with the declared id, first
// children at every level, and two edges with the same subject, predicate
// and object (one naming the declared id, one relative, different meta).
const invSrc = `{"bendscript":"0.1","id":"doc1","vocabulary":"core","title":"T","blocks":[
 {"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"alpha "},{"id":"s2","text":"beta","marks":["bold",{"kind":"link","target":"bend:doc1#b2"}]},{"id":"s3","text":null}]},
 {"id":"l1","kind":"list","ordered":false,"items":[
  {"id":"i1","kind":"list-item","blocks":[{"id":"p1","kind":"paragraph","spans":[{"id":"s1","text":"one"}]},{"id":"p2","kind":"paragraph","spans":[{"id":"s1","text":"two","marks":[]}]}]},
  {"id":"i2","kind":"list-item","blocks":[{"id":"p3","kind":"paragraph","spans":[{"id":"s1","text":"three"}]}]}]},
 {"id":"c1","kind":"code","language":"go","text":"x := 1"},
 {"id":"b2","kind":"paragraph","spans":[{"id":"s1","text":"end","marks":[{"kind":"link","target":"https://x.org","predicate":"cites"}]}]}
],"edges":[
 {"subject":"bend:doc1#b1.s1","predicate":"cites","object":"https://y.org","meta":{"weight":0.5}},
 {"subject":"bend:#b2","predicate":"supports","object":"bend:"},
 {"subject":"bend:#b1.s1","predicate":"cites","object":"https://y.org"}
]}`

func TestInverse(t *testing.T) {
	cases := []struct {
		name, ops, want string
		reason          string
	}{
		{"set_text", `[{"op":"set_text","block":"b1","span":"s1","text":"gamma "}]`,
			`[{"op":"set_text","block":"b1","span":"s1","text":"alpha "}]`,
			"the old text comes back"},
		{"set_text-twice", `[{"op":"set_text","block":"b1","span":"s1","text":"x"},{"op":"set_text","block":"b1","span":"s1","text":"y"}]`,
			`[{"op":"set_text","block":"b1","span":"s1","text":"x"},{"op":"set_text","block":"b1","span":"s1","text":"alpha "}]`,
			"each op is inverted against the state it found, and the inverses run in reverse order"},
		{"set_code_text", `[{"op":"set_code_text","block":"c1","text":"x := 2"}]`,
			`[{"op":"set_code_text","block":"c1","text":"x := 1"}]`,
			"code text comes back"},
		{"add_mark-no-marks-member", `[{"op":"add_mark","block":"b1","span":"s1","mark":"italic"}]`,
			`[{"op":"remove_mark","block":"b1","span":"s1","mark":"italic","drop_empty":true}]`,
			`a span without a marks member must not come back with "marks": []`},
		{"add_mark-empty-marks-member", `[{"op":"add_mark","block":"p2","span":"s1","mark":"italic"}]`,
			`[{"op":"remove_mark","block":"p2","span":"s1","mark":"italic"}]`,
			`a span with "marks": [] keeps it`},
		{"add_mark-position", `[{"op":"add_mark","block":"b1","span":"s2","mark":"italic","position":1}]`,
			`[{"op":"remove_mark","block":"b1","span":"s2","mark":"italic"}]`,
			"removal finds the mark wherever it was put"},
		{"remove_mark-first", `[{"op":"remove_mark","block":"b1","span":"s2","mark":"bold"}]`,
			`[{"op":"add_mark","block":"b1","span":"s2","mark":"bold","position":0}]`,
			"mark order is part of the id, so a mark that was not last goes back at its index"},
		{"remove_mark-last-as-written", `[{"op":"remove_mark","block":"b1","span":"s2","mark":{"kind":"link","target":"bend:#b2"}}]`,
			`[{"op":"add_mark","block":"b1","span":"s2","mark":{"kind":"link","target":"bend:doc1#b2"}}]`,
			"the mark is restored as the document wrote it (declared id), not as the op named it; last mark: no position"},
		{"remove_mark-drop_empty", `[{"op":"remove_mark","block":"b2","span":"s1","mark":{"kind":"link","target":"https://x.org","predicate":"cites"},"drop_empty":true}]`,
			`[{"op":"add_mark","block":"b2","span":"s1","mark":{"kind":"link","target":"https://x.org","predicate":"cites"}}]`,
			"add_mark recreates a dropped marks member"},
		{"link-typed", `[{"op":"set_link_predicate","block":"b1","span":"s2","target":"bend:#b2","predicate":"cites"}]`,
			`[{"op":"set_link_predicate","block":"b1","span":"s2","target":"bend:#b2"}]`,
			"an untyped link becomes untyped again (predicate omitted)"},
		{"link-untyped", `[{"op":"set_link_predicate","block":"b2","span":"s1","target":"https://x.org"}]`,
			`[{"op":"set_link_predicate","block":"b2","span":"s1","target":"https://x.org","predicate":"cites"}]`,
			"a typed link gets its predicate back"},
		{"insert_block", `[{"op":"insert_block","after":"i1","block":{"id":"i3","kind":"list-item","blocks":[]}}]`,
			`[{"op":"remove_block","block":"i3"}]`,
			"an inserted block is removed"},
		{"remove_block-middle", `[{"op":"remove_block","block":"c1"}]`,
			`[{"op":"insert_block","after":"l1","block":{"id":"c1","kind":"code","language":"go","text":"x := 1"}}]`,
			"a removed block goes back after its previous sibling"},
		{"remove_block-first-top", `[{"op":"remove_block","block":"b1"}]`,
			`[{"op":"insert_block","after":"","parent":"","block":{"id":"b1","kind":"paragraph","spans":[{"id":"s1","text":"alpha "},{"id":"s2","text":"beta","marks":["bold",{"kind":"link","target":"bend:doc1#b2"}]},{"id":"s3","text":null}]}}]`,
			"the first top-level block has no previous sibling"},
		{"remove_block-first-item", `[{"op":"remove_block","block":"i1"}]`,
			`[{"op":"insert_block","after":"","parent":"l1","block":{"id":"i1","kind":"list-item","blocks":[{"id":"p1","kind":"paragraph","spans":[{"id":"s1","text":"one"}]},{"id":"p2","kind":"paragraph","spans":[{"id":"s1","text":"two","marks":[]}]}]}}]`,
			"the first item of a list goes back first among the list's items"},
		{"remove_block-first-nested", `[{"op":"remove_block","block":"p3"}]`,
			`[{"op":"insert_block","after":"","parent":"i2","block":{"id":"p3","kind":"paragraph","spans":[{"id":"s1","text":"three"}]}}]`,
			"the only block of a list item goes back into its emptied blocks"},
		{"insert_span", `[{"op":"insert_span","block":"b1","after":"","span":{"id":"s0","text":"> "}}]`,
			`[{"op":"remove_span","block":"b1","span":"s0"}]`,
			"an inserted span is removed"},
		{"remove_span-first", `[{"op":"remove_span","block":"b1","span":"s1"}]`,
			`[{"op":"insert_span","block":"b1","after":"","span":{"id":"s1","text":"alpha "}}]`,
			"the first span goes back first"},
		{"remove_span-tombstone", `[{"op":"remove_span","block":"b1","span":"s3"}]`,
			`[{"op":"insert_span","block":"b1","after":"s2","span":{"id":"s3","text":null}}]`,
			"a removed tombstone comes back as a tombstone after its previous span"},
		{"supersede_span", `[{"op":"supersede_span","block":"b1","span":"s2","new_span":{"id":"s4","text":"BETA"}}]`,
			`[{"op":"remove_edge","subject":"bend:#b1.s4","predicate":"supersedes","object":"bend:#b1.s2"},{"op":"remove_span","block":"b1","span":"s4"},{"op":"set_text","block":"b1","span":"s2","text":"beta"},{"op":"add_mark","block":"b1","span":"s2","mark":"bold"},{"op":"add_mark","block":"b1","span":"s2","mark":{"kind":"link","target":"bend:doc1#b2"}}]`,
			"the tombstone gets its text and its marks back, in their order, as written"},
		{"supersede_span-tombstone", `[{"op":"supersede_span","block":"b1","span":"s3","new_span":{"id":"s4","text":"new"}}]`,
			`[{"op":"remove_edge","subject":"bend:#b1.s4","predicate":"supersedes","object":"bend:#b1.s3"},{"op":"remove_span","block":"b1","span":"s4"}]`,
			"superseding a tombstone leaves nothing to restore on it"},
		{"add_edge", `[{"op":"add_edge","edge":{"subject":"bend:","predicate":"supersedes","object":"bend:old","meta":{"weight":0.5}}}]`,
			`[{"op":"remove_edge","subject":"bend:","predicate":"supersedes","object":"bend:old"}]`,
			"an added edge is removed"},
		{"add_edge-position", `[{"op":"add_edge","edge":{"subject":"bend:","predicate":"supersedes","object":"bend:old"},"position":0}]`,
			`[{"op":"remove_edge","subject":"bend:","predicate":"supersedes","object":"bend:old"}]`,
			"an edge added anywhere is removed"},
		{"remove_edge-middle", `[{"op":"remove_edge","subject":"bend:#b2","predicate":"supports","object":"bend:"}]`,
			`[{"op":"add_edge","edge":{"subject":"bend:#b2","predicate":"supports","object":"bend:"},"position":1}]`,
			"edge order is part of the bytes, so an edge that was not last goes back at its index"},
		{"remove_edge-twins", `[{"op":"remove_edge","subject":"bend:#b1.s1","predicate":"cites","object":"https://y.org"}]`,
			`[{"op":"add_edge","edge":{"subject":"bend:doc1#b1.s1","predicate":"cites","object":"https://y.org","meta":{"weight":0.5}},"position":0},{"op":"add_edge","edge":{"subject":"bend:#b1.s1","predicate":"cites","object":"https://y.org"}}]`,
			"remove_edge takes every edge with that subject, predicate and object; each comes back as written, in order, the last one appended"},
		{"header", `[{"op":"set_vocabulary","vocabulary":"com.example.v1"},{"op":"set_title","title":"U"}]`,
			`[{"op":"set_title","title":"T"},{"op":"set_vocabulary","vocabulary":"core"}]`,
			"header fields come back, in reverse order"},
		{"dependent", `[{"op":"insert_block","after":"b2","block":{"id":"b3","kind":"paragraph","spans":[]}},{"op":"insert_span","block":"b3","after":"","span":{"id":"s1","text":"new"}},{"op":"add_edge","edge":{"subject":"bend:#b3.s1","predicate":"cites","object":"https://z.org"}}]`,
			`[{"op":"remove_edge","subject":"bend:#b3.s1","predicate":"cites","object":"https://z.org"},{"op":"remove_span","block":"b3","span":"s1"},{"op":"remove_block","block":"b3"}]`,
			"an op on a block an earlier op inserted is undone before the block goes"},
	}
	// In these cases a later inverse op undoes what an earlier one did, so
	// the inverse cannot pass Check, which reads every op against the final
	// document (forward gold edits share the limit).
	overlap := map[string]bool{"set_text-twice": true, "dependent": true}
	source := parse(t, invSrc)
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			fwd := ops(t, c.ops)
			inv, err := Inverse(source, fwd)
			if err != nil {
				t.Fatalf("Inverse: %v (%s)", err, c.reason)
			}
			if got, want := marshalOps(inv), marshalOps(ops(t, c.want)); got != want {
				t.Errorf("%s:\ngot  %s\nwant %s", c.reason, got, want)
			}
			exp, err := Apply(source, fwd)
			if err != nil {
				t.Fatal(err)
			}
			back, err := Apply(exp, inv)
			if err != nil {
				t.Fatalf("inverse does not apply: %v", err)
			}
			if !bytes.Equal(bend.Marshal(back), bend.Marshal(source)) {
				t.Errorf("forward then inverse is not the source (%s):\n%s", c.reason, bend.Marshal(back))
			}
			idBack, _ := bend.ID(back)
			idSource, _ := bend.ID(source)
			if idBack != idSource {
				t.Errorf("id %s, want %s", idBack, idSource)
			}
			if applied, _ := Compliance(Check(back, source.ID, inv)); !applied && !overlap[c.name] {
				t.Errorf("the source fails the inverse's own check: %+v", Check(back, source.ID, inv))
			}
			if applied, _ := Compliance(Check(exp, source.ID, inv)); applied {
				t.Errorf("the forward document already passes the inverse's check (%s)", c.reason)
			}
			// The inverse round-trips through its JSON form.
			again, err := Parse([]byte(marshalOps(inv)))
			if err != nil || marshalOps(again) != marshalOps(inv) {
				t.Errorf("inverse does not round-trip through JSON: %v", err)
			}
		})
	}
}

func TestInverseErrors(t *testing.T) {
	noTitle := strings.Replace(invSrc, `"title":"T",`, ``, 1)
	custom := strings.Replace(invSrc, `{"id":"c1",`, `{"id":"x1","kind":"com.example.box","items":[{"id":"x2","kind":"divider"}]},{"id":"c1",`, 1)
	twinMark := strings.Replace(invSrc, `"marks":["bold",`, `"marks":["bold","bold",`, 1)
	cases := []struct {
		name, doc, ops, want string
		reason               string
	}{
		{"set_text-tombstone", invSrc, `[{"op":"set_text","block":"b1","span":"s3","text":"back"}]`, "tombstone",
			"no operation sets text back to null"},
		{"set_title-none", noTitle, `[{"op":"set_title","title":"New"}]`, "no title",
			"no operation removes a title"},
		{"add_edge-twin", invSrc, `[{"op":"add_edge","edge":{"subject":"bend:#b2","predicate":"supports","object":"bend:doc1"}}]`, "remove both",
			"remove_edge would also take the edge that was there before (the declared-id and relative forms are one reference)"},
		{"supersede-twin-edge", strings.Replace(invSrc, `"edges":[`, `"edges":[{"subject":"bend:#b1.s4","predicate":"supersedes","object":"bend:#b1.s1"},`, 1),
			`[{"op":"supersede_span","block":"b1","span":"s1","new_span":{"id":"s4","text":"x"}}]`, "remove both",
			"the supersedes edge was already there"},
		{"supersede-empty-marks", invSrc, `[{"op":"supersede_span","block":"p2","span":"s1","new_span":{"id":"s2","text":"x"}}]`, "empty marks member",
			`the tombstone loses "marks": [] and add_mark cannot rebuild an empty list`},
		{"supersede-twin-marks", twinMark, `[{"op":"supersede_span","block":"b1","span":"s2","new_span":{"id":"s4","text":"x"}}]`, "twice",
			"add_mark refuses a mark the span already has"},
		{"remove_mark-twin", twinMark, `[{"op":"remove_mark","block":"b1","span":"s2","mark":"bold"}]`, "twice",
			"remove_mark takes both copies, add_mark restores one"},
		{"remove_block-first-of-items-of-non-list", custom, `[{"op":"remove_block","block":"x2"}]`, `"after": "" does not address`,
			`"after": "" addresses the blocks of a non-list parent, not its items`},
		{"does-not-apply", invSrc, `[{"op":"set_text","block":"zz","span":"s1","text":"x"}]`, `no block "zz"`,
			"an op that does not apply is reported as Apply reports it"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			_, err := Inverse(parse(t, c.doc), ops(t, c.ops))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Inverse = %v, want an error containing %q (%s)", err, c.want, c.reason)
			}
		})
	}
}

// TestNewOptions: the options inverses need (insert_block "after": "" with
// "parent", add_mark and add_edge "position", remove_mark "drop_empty")
// apply where they say and are checked.
func TestNewOptions(t *testing.T) {
	source := parse(t, invSrc)
	cases := []struct {
		name, ops, wrong string // wrong: an output that must fail the check
		reason           string
	}{
		{"first-top", `[{"op":"insert_block","after":"","parent":"","block":{"id":"z","kind":"divider"}}]`,
			strings.Replace(invSrc, `{"id":"c1",`, `{"id":"z","kind":"divider"},{"id":"c1",`, 1),
			"a block inserted first must be first"},
		{"first-item", `[{"op":"insert_block","after":"","parent":"l1","block":{"id":"z","kind":"list-item","blocks":[]}}]`,
			strings.Replace(invSrc, `{"id":"i2",`, `{"id":"z","kind":"list-item","blocks":[]},{"id":"i2",`, 1),
			"first among the list's items, not second"},
		{"first-nested", `[{"op":"insert_block","after":"","parent":"i2","block":{"id":"z","kind":"divider"}}]`,
			strings.Replace(invSrc, `"blocks":[{"id":"p1",`, `"blocks":[{"id":"z","kind":"divider"},{"id":"p1",`, 1),
			"first in the named parent, not in another one"},
		{"mark-position", `[{"op":"add_mark","block":"b1","span":"s2","mark":"italic","position":0}]`,
			strings.Replace(invSrc, `"marks":["bold",`, `"marks":["bold","italic",`, 1),
			"the mark must be at its position"},
		{"edge-position", `[{"op":"add_edge","edge":{"subject":"bend:","predicate":"supersedes","object":"bend:old"},"position":1}]`,
			strings.Replace(invSrc, `]}`, `,{"subject":"bend:","predicate":"supersedes","object":"bend:old"}]}`, 1),
			"the edge must be at its position"},
		{"drop_empty", `[{"op":"remove_mark","block":"b2","span":"s1","mark":{"kind":"link","target":"https://x.org","predicate":"cites"},"drop_empty":true}]`,
			strings.Replace(invSrc, `"text":"end","marks":[{"kind":"link","target":"https://x.org","predicate":"cites"}]`, `"text":"end","marks":[]`, 1),
			`drop_empty wants the marks member gone, not "marks": []`},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			o := ops(t, c.ops)
			exp, err := Apply(source, o)
			if err != nil {
				t.Fatal(err)
			}
			if applied, _ := Compliance(Check(exp, source.ID, o)); !applied {
				t.Errorf("expected document fails its own check: %+v", Check(exp, source.ID, o))
			}
			if res := Check(parse(t, c.wrong), source.ID, o); res[0].OK {
				t.Errorf("wrong output passes (%s)", c.reason)
			}
		})
	}
	for _, c := range tabletest.Cases(t, []struct{ ops, want, reason string }{
		{`[{"op":"insert_block","after":"","parent":"nope","block":{"id":"z","kind":"divider"}}]`, `no parent block "nope"`, "insert_block as a first child needs a parent that exists, and the error names it"},
		{`[{"op":"add_mark","block":"b1","span":"s1","mark":"bold","position":1}]`, "beyond the end", "an add_mark position past the end of the span's marks (s1 has none) is refused, not clamped, so an inverse cannot land elsewhere"},
		{`[{"op":"add_edge","edge":{"subject":"bend:","predicate":"cites","object":"bend:x"},"position":4}]`, "beyond the end", "an add_edge position past the end of the edges (there are three) is refused, not clamped"},
		{`[{"op":"remove_mark","block":"b1","span":"s2","mark":"bold","drop_empty":true}]`, "keeps 1 marks", "drop_empty promises the removal empties the marks, so removing one of s2's two marks with it fails"},
	}) {
		if _, err := Apply(source, ops(t, c.ops)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apply(%s) = %v, want %q (%s)", c.ops, err, c.want, c.reason)
		}
	}
	for _, c := range tabletest.Cases(t, []struct{ in, want, reason string }{
		{`[{"op":"insert_block","after":"b1","parent":"l1","block":{"id":"z","kind":"divider"}}]`, `"parent" is only for`, "parent only chooses where a first child goes, so giving it with a non-empty after is contradictory"},
		{`[{"op":"add_mark","block":"b","span":"s","mark":"bold","position":-1}]`, "non-negative integer", "a position counts from 0, so a negative one is malformed"},
		{`[{"op":"add_mark","block":"b","span":"s","mark":"bold","position":1.5}]`, "non-negative integer", "a position is an index, so a fraction is malformed"},
		{`[{"op":"remove_mark","block":"b","span":"s","mark":"bold","drop_empty":false}]`, "must be true", "drop_empty only says something when true, so false is refused rather than read as the default"},
		{`[{"op":"set_text","block":"b","span":"s","text":"t","position":1}]`, `does not take "position"`, "position is for add_mark and add_edge only, and set_text refuses it like any unknown field"},
	}) {
		if _, err := Parse([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want %q (%s)", c.in, err, c.want, c.reason)
		}
	}
}

func marshalOps(ops []*Op) string {
	a := &bend.Value{Kind: bend.Array}
	for _, op := range ops {
		a.Elems = append(a.Elems, op.Value())
	}
	return string(bend.MarshalValue(a))
}
