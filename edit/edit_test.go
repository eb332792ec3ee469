package edit

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
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
		{"header", `[{"op":"set_vocabulary","vocabulary":"com.example.v1"},{"op":"set_title","title":"T"},{"op":"remove_block","block":"l1"}]`, "header and block removal"},
	}
	source := parse(t, src)
	for _, c := range cases {
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
	cases := []struct{ name, ops, out, want string }{
		{"wrong-text", `[{"op":"set_text","block":"b1","span":"s1","text":"gamma "}]`, strings.Replace(src, `"alpha "`, `"gamma"`, 1), "span text differs"},
		{"wrong-position", `[{"op":"insert_block","after":"b1","block":{"id":"b2","kind":"divider"}}]`, strings.Replace(src, `"blocks":[`, `"blocks":[{"id":"b2","kind":"divider"},`, 1), "not right after"},
		{"wrong-predicate", `[{"op":"set_link_predicate","block":"b1","span":"s2","target":"https://x.org","predicate":"cites"}]`, strings.Replace(src, `{"kind":"link","target":"https://x.org"}`, `{"kind":"link","target":"https://x.org","predicate":"supports"}`, 1), "no link mark"},
		{"edge-meta", `[{"op":"add_edge","edge":{"subject":"bend:","predicate":"supersedes","object":"bend:old","meta":{"weight":0.5}}}]`, strings.Replace(src, `"edges":[`, `"edges":[{"subject":"bend:","predicate":"supersedes","object":"bend:old","meta":{"weight":0.6}},`, 1), "no edge"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := Check(parse(t, c.out), source.ID, ops(t, c.ops))
			if res[0].OK || !strings.Contains(res[0].Reason, c.want) {
				t.Errorf("got %+v, want failure containing %q", res[0], c.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{}`, "array"},
		{`[{"op":"nope"}]`, `unknown op "nope"`},
		{`[{"op":"set_text","block":"b"}]`, `needs "span"`},
		{`[{"op":"set_text","block":"b","span":"s","text":"t","extra":1}]`, `does not take "extra"`},
		{`[{"op":"add_mark","block":"b","span":"s","mark":"underline"}]`, ``},
		{`[{"op":"add_mark","block":"b","span":"s","mark":{"kind":"color"}}]`, `mark`},
	} {
		_, err := Parse([]byte(c.in))
		if c.want == "" {
			continue // accepted at parse time; Apply/validation reports unknown marks
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want %q", c.in, err, c.want)
		}
	}
}

func TestApplyErrors(t *testing.T) {
	source := parse(t, src)
	for _, c := range []struct{ ops, want string }{
		{`[{"op":"set_text","block":"zz","span":"s1","text":"x"}]`, `no block "zz"`},
		{`[{"op":"add_mark","block":"b1","span":"s2","mark":"bold"}]`, "already has that mark"},
		{`[{"op":"insert_block","after":"b1","block":{"id":"l1","kind":"divider"}}]`, "already exists"},
		{`[{"op":"remove_edge","subject":"bend:#b1","predicate":"cites","object":"x:y"}]`, "no edge"},
	} {
		_, err := Apply(source, ops(t, c.ops))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apply(%s) = %v, want %q", c.ops, err, c.want)
		}
	}
}
