package bend

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/internal/tabletest"
)

func mustParse(t testing.TB, src string) *Document {
	t.Helper()
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return d
}

func mustID(t testing.TB, d *Document) string {
	t.Helper()
	id, err := ID(d)
	if err != nil {
		t.Fatalf("ID: %v", err)
	}
	return id
}

func readFixture(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/rich.bend.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEmptyDocumentID pins the identity rule to the value in the issue, so
// that independent implementations can check themselves against it.
func TestEmptyDocumentID(t *testing.T) {
	d := mustParse(t, `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[]}`)
	const want = "bagaaiera3zz67ptzgpzupydb2ycki4mcfuoj426vmfclanzn3f25g2piz2eq"
	if got := mustID(t, d); got != want {
		t.Errorf("ID = %s, want %s", got, want)
	}
	if got := CID([]byte(`{"blocks":[],"edges":[]}`)); got != want {
		t.Errorf("CID = %s, want %s", got, want)
	}
}

func TestFixtureValid(t *testing.T) {
	d := mustParse(t, string(readFixture(t)))
	if errs := Validate(d); len(errs) > 0 {
		t.Fatalf("fixture invalid:\n%v", errs)
	}
}

// TestLosslessRoundTrip checks §2.2/§2.4/§5.4: unknown kinds, unknown fields,
// unknown predicates, unknown schemes and meta survive parse → serialize
// byte-for-value, numbers keeping their literal text.
func TestLosslessRoundTrip(t *testing.T) {
	d := mustParse(t, string(readFixture(t)))
	out := string(Marshal(d))
	for _, want := range []string{
		`"n": 1e21`, `"small": 1E-7`, `"neg": -0`, `"big": 9007199254740993`, `"list": [`, "1.0",
		`"x-custom": {`, `"keep": [`, `"rel": "x"`, `"stance": "pro"`, `"kind": "argument-position"`,
		`"com.example.notes.v1:reviewed-by"`, `"did:plc:abc123"`, `"ipfs://bafyexample"`,
		`"extra": "kept"`, `"x-top": "kept too"`, `"text": null`, `"café": "` + "\u2028" + `"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("serialized form lost %s", want)
		}
	}
	again := mustParse(t, out)
	if !bytes.Equal(Marshal(again), []byte(out)) {
		t.Errorf("serialize(parse(serialize(d))) differs from serialize(d)")
	}
}

// TestFieldOrder checks that output follows the member order of §3 whatever
// the input order was.
func TestFieldOrder(t *testing.T) {
	d := mustParse(t, `{"edges":[],"blocks":[{"spans":[{"marks":["bold"],"text":"a","id":"s"}],"kind":"paragraph","id":"b"}],"zz":1,"meta":{},"title":"T","vocabulary":"core","id":"x","bendscript":"0.1"}`)
	got := string(MarshalCompact(d))
	want := `{"bendscript":"0.1","id":"x","vocabulary":"core","title":"T","meta":{},"blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"a","marks":["bold"]}]}],"edges":[],"zz":1}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestRoundTripProperty is §8.1.1 as a table: parse(serialize(parse(d))) ==
// parse(d), including the id.
func TestRoundTripProperty(t *testing.T) {
	cases := []struct {
		name, src, reason string
	}{
		{"empty", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[]}`, "smallest valid document"},
		{"fixture", string(readFixture(t)), "every block kind, marks, tombstone, unknown members"},
		{"whitespace", "{ \"bendscript\" : \"0.1\" ,\n\"id\":\"x\",\"vocabulary\":\"core\",\"blocks\":[ ],\"edges\":[\t] }", "insignificant whitespace does not matter"},
		{"invalid-kept", `{"bendscript":"0.2","id":5,"blocks":[{"id":"b","kind":"heading","level":"one","spans":[]}],"edges":[{"subject":"nope"}]}`, "an invalid document still round-trips"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			checkRoundTrip(t, []byte(c.src))
		})
	}
}

func checkRoundTrip(t testing.TB, src []byte) {
	t.Helper()
	d1, err := Parse(src)
	if err != nil {
		t.Fatalf("the case is not a document, so it round-trips nothing: %v", err)
	}
	out := Marshal(d1)
	d2, err := Parse(out)
	if err != nil {
		t.Fatalf("re-parse of serialized form failed: %v\n%s", err, out)
	}
	if a, b := MarshalCompact(d1), MarshalCompact(d2); !bytes.Equal(a, b) {
		t.Fatalf("parsed forms differ\n first: %s\nsecond: %s", a, b)
	}
	id1, err1 := ID(d1)
	id2, err2 := ID(d2)
	if id1 != id2 || (err1 == nil) != (err2 == nil) {
		t.Fatalf("ids differ: %s (%v) vs %s (%v)", id1, err1, id2, err2)
	}
}

func TestValidationErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // substrings of the error lines, in order
		reason    string
	}{
		{"version", `{"bendscript":"1.0","id":"x","vocabulary":"core","blocks":[],"edges":[]}`,
			[]string{`/bendscript: must be "0.1", got "1.0" (§3)`}, "bendscript must be 0.1"},
		{"missing-top", `{"bendscript":"0.1"}`,
			[]string{"/id: missing required document id (§3)", "/vocabulary: missing required vocabulary (§2.6)", `/blocks: missing required member "blocks" (§3)`, `/edges: missing required member "edges" (§3)`}, "required top-level members"},
		{"types", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":{},"edges":[7]}`,
			[]string{"/blocks: must be an array of blocks (§2.2)", "/edges/0: must be an edge object (§2.4)"}, "wrong JSON types"},
		{"heading-level", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b1","kind":"heading","level":7,"spans":[]},{"id":"b2","kind":"heading","level":2.5,"spans":[]}],"edges":[]}`,
			[]string{"/blocks/1/level: must be an integer (§2.2)", "/blocks/0/level: a heading needs a level from 1 to 6 (§2.2)", "/blocks/1/level: a heading needs a level from 1 to 6"}, "heading level 1-6"},
		{"dup-block", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b","kind":"divider"},{"id":"q","kind":"quote","blocks":[{"id":"b","kind":"divider"}]}],"edges":[]}`,
			[]string{`/blocks/1/blocks/0/id: block id "b" is not unique (first at /blocks/0) (§5.2)`}, "block ids unique across nesting"},
		{"dup-span", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"a"},{"id":"s","text":"b"}]},{"id":"c","kind":"paragraph","spans":[{"id":"s","text":"ok"}]}],"edges":[]}`,
			[]string{`/blocks/0/spans/1/id: span id "s" is not unique within block "b" (§5.3)`}, "span ids unique within a block only"},
		{"marks", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"a","marks":["underline","link",{"kind":"color"}]}]}],"edges":[]}`,
			[]string{`/blocks/0/spans/0/marks/0: unknown mark "underline"`, "/blocks/0/spans/0/marks/1: a link mark is an object with a target (§2.5.1)", "/blocks/0/spans/0/marks/2: a mark is one of"}, "only the four mark kinds"},
		{"predicate-form", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[{"subject":"bend:x","predicate":"Bad Pred","object":"https://a"},{"subject":"bend:x","predicate":":rebuts","object":"https://a"},{"subject":"bend:x","predicate":"likes","object":"https://a"},{"subject":"bend:x","predicate":"com.example.v1:likes","object":"https://a"}],"edges2":1}`,
			[]string{`/edges/0/predicate: predicate "Bad Pred" is neither`, `/edges/1/predicate: predicate ":rebuts" is neither`}, "predicate syntax checked; unknown predicates of a valid form accepted"},
		{"uris", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"e","kind":"embed","target":"not a uri"}],"edges":[{"subject":"bend:x#a.b.c","predicate":"cites","object":"bend:"},{"subject":"bend:#","predicate":"cites","object":"weird-scheme:anything"}]}`,
			[]string{`/blocks/0/target: "not a uri" is not an addressable reference`, `/edges/0/subject: "bend:x#a.b.c" is not a valid bend: reference`, `/edges/1/subject: "bend:#" is not a valid bend: reference`}, "bend: syntax; unknown schemes allowed"},
		{"broken", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"b","kind":"paragraph","spans":[{"id":"s","text":"a","marks":[{"kind":"link","target":"bend:#b.zz"}]}]}],"edges":[{"subject":"bend:x#nope","predicate":"cites","object":"bend:other#nope"}]}`,
			[]string{`/blocks/0/spans/0/marks/0/target: broken reference "bend:#b.zz": block "b" has no span "zz" (§6.4)`, `/edges/0/subject: broken reference "bend:x#nope": no block "nope" in this document (§6.4)`}, "intra-document references must resolve; other documents are not checked"},
		{"kinds", `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[{"id":"l","kind":"list","items":[{"id":"p","kind":"paragraph","spans":[]}]},{"id":"c","kind":"code"},{"id":"n","kind":"mystery"},{"id":"t","kind":"paragraph","spans":[{"id":"s"}]}],"edges":[]}`,
			[]string{`/blocks/3/spans/0: missing required member "text" (§2.3)`, `/blocks/0: a list needs "ordered"`, `/blocks/0/items/0/kind: list items must be of kind list-item, got "paragraph"`, `/blocks/1: a code block needs "text"`, `/blocks/1: a code block needs "language"`}, "kind-specific members; unknown kinds accepted"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			errs := Validate(mustParse(t, c.src))
			got := errs.Error()
			if len(errs) != len(c.want) {
				t.Errorf("got %d errors, want %d (%s):\n%s", len(errs), len(c.want), c.reason, got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q (%s) in:\n%s", w, c.reason, got)
				}
			}
		})
	}
}

func TestErrorFormat(t *testing.T) {
	e := &Error{File: "a.bend.json", Pointer: "/blocks/0/id", Msg: "bad", Section: "5.2"}
	if got, want := e.Error(), "a.bend.json: /blocks/0/id: bad (§5.2)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestHostileInput: every hostile input is a clear error, never a panic or a
// stack overflow.
func TestHostileInput(t *testing.T) {
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	deepDoc := `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[],"edges":[],"meta":` + strings.Repeat(`{"a":`, MaxDepth) + "1" + strings.Repeat("}", MaxDepth) + "}"
	big := `{"meta":"` + strings.Repeat("a", MaxSize) + `"}`
	cases := []struct {
		name, src, want, reason string
	}{
		{"deep-array", deep, "nesting deeper than 256 levels", "no stack overflow on 100k nesting"},
		{"deep-doc", deepDoc, "/meta/a/a/a", "the pointer names where the limit was hit"},
		{"too-big", big, "over the 16777216-byte limit", "size limit"},
		{"bad-utf8", "{\"title\":\"\xff\xfe\"}", "invalid UTF-8 at byte offset 10", "invalid UTF-8 is rejected, not replaced"},
		{"dup-key", `{"id":"a","blocks":[{"id":"b","id":"c"}]}`, `/blocks/0/id: duplicate member name "id"`, "duplicate keys are ambiguous"},
		{"not-object", `[1,2]`, "a document must be a JSON object", "top level must be an object"},
		{"truncated", `{"bendscript":"0.1","blocks":[`, "not valid JSON", "truncated input"},
		{"trailing", `{} {}`, "unexpected data after the JSON value", "one value only"},
		{"empty", ``, "not valid JSON", "empty input"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse error = %v, want it to contain %q (%s)", err, c.want, c.reason)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	d := mustParse(t, string(readFixture(t)))
	n := Normalize(d)
	if got, want := len(n.Edges), len(d.Edges)+1; got != want {
		t.Fatalf("normalized edges = %d, want %d (one typed link; the untyped one yields none)", got, want)
	}
	e := n.Edges[len(n.Edges)-1]
	if e.Subject != "bend:#blk-2.spn-2" || e.Predicate != "defines" || e.Object != "bend:draft#blk-1.spn-1" {
		t.Errorf("link edge = %+v", *e)
	}
	if len(d.Edges) != 3 {
		t.Errorf("Normalize changed its input")
	}
	untyped := n.FindBlock("blk-2").FindSpan("spn-3").Marks[0].Link
	if untyped.Predicate != nil {
		t.Errorf("untyped link gained a predicate")
	}
}

// TestIdentityRule checks the four steps of the identity rule one by one.
func TestIdentityRule(t *testing.T) {
	base := mustID(t, mustParse(t, string(readFixture(t))))
	tests := []struct {
		name   string
		edit   func(string) string
		same   bool
		reason string
	}{
		{"declared-id", func(s string) string { return strings.ReplaceAll(s, "bend:draft", "bend:other-name") }, false,
			"renaming the declared id without its self-references makes them external (id changes)"},
		{"rename-self", func(s string) string {
			s = strings.ReplaceAll(s, "bend:draft", "bend:zzz")
			return strings.Replace(s, `"id": "draft"`, `"id": "zzz"`, 1)
		}, true, "step 2: self-references are relative, so the declared id does not feed the hash"},
		{"relative-form", func(s string) string { return strings.ReplaceAll(s, "bend:draft", "bend:") }, true,
			"step 2: a relative reference equals a self-reference"},
		{"meta", func(s string) string { return strings.Replace(s, `"n": 1e21`, `"n": 5`, 1) }, true, "§5.1: meta is excluded"},
		{"title", func(s string) string { return strings.Replace(s, `"Rich fixture"`, `"Other"`, 1) }, true, "title is not hashed"},
		{"edge-order", func(s string) string {
			a := `{"subject": "bend:draft#blk-2.spn-4", "predicate": "supersedes", "object": "bend:draft#blk-2", "meta": {"weight": 0.5, "confidence": 1}},`
			return strings.Replace(strings.Replace(s, a, "", 1), `"edges": [`, `"edges": [`+"\n"+strings.TrimSuffix(a, ",")+",", 1)
		}, true, "step 3: edge order is not significant"},
		{"duplicate-edge", func(s string) string {
			return strings.Replace(s, `"edges": [`, `"edges": [{"subject": "bend:#blk-2.spn-2", "predicate": "defines", "object": "bend:#blk-1.spn-1"},`, 1)
		}, true, "steps 1+3: an explicit edge equal to a link-mark edge is a duplicate"},
		{"number-form", func(s string) string { return strings.Replace(s, `"weight": 0.5`, `"weight": 5e-1`, 1) }, true, "RFC 8785 numbers"},
		{"text", func(s string) string { return strings.Replace(s, `"nested"`, `"nested!"`, 1) }, false, "§5.1: any character of any span"},
		{"edge-meta", func(s string) string { return strings.Replace(s, `"weight": 0.5`, `"weight": 0.6`, 1) }, false, "edge meta is part of the edges"},
		{"untyped-to-typed", func(s string) string {
			return strings.Replace(s, `"target": "https://example.com/a"}`, `"target": "https://example.com/a", "predicate": "cites"}`, 1)
		}, false, "§2.5.1: an untyped link differs from a typed one"},
	}
	src := string(readFixture(t))
	for _, tt := range tabletest.Cases(t, tests) {
		t.Run(tt.name, func(t *testing.T) {
			edited := tt.edit(src)
			if edited == src {
				t.Fatal("edit did nothing")
			}
			got := mustID(t, mustParse(t, edited))
			if (got == base) != tt.same {
				t.Errorf("same id = %v, want %v (%s)", got == base, tt.same, tt.reason)
			}
		})
	}
}

func TestSetID(t *testing.T) {
	d := mustParse(t, string(readFixture(t)))
	id := mustID(t, d)
	SetID(d, id)
	out := string(Marshal(d))
	if strings.Contains(out, "bend:draft") {
		t.Errorf("self-references still name the old id")
	}
	if !strings.Contains(out, "bend:"+id+"#blk-2.spn-4") || !strings.Contains(out, `"subject": "bend:`+id+`"`) {
		t.Errorf("self-references not rewritten to the new id")
	}
	if got := mustID(t, mustParse(t, out)); got != id {
		t.Errorf("id after SetID = %s, want %s (the rewrite must not change the id)", got, id)
	}
	if errs := Validate(d); len(errs) > 0 {
		t.Errorf("invalid after SetID: %v", errs)
	}
}

func TestParseRef(t *testing.T) {
	cases := []struct {
		in     string
		ok     bool
		want   Ref
		reason string
	}{
		{"bend:abc", true, Ref{Bend: true, Doc: "abc"}, "a bend: reference to a whole document is the id alone"},
		{"bend:abc#blk-1", true, Ref{Bend: true, Doc: "abc", Block: "blk-1"}, "a fragment names a block of that document"},
		{"bend:abc#blk-1.spn-2", true, Ref{Bend: true, Doc: "abc", Block: "blk-1", Span: "spn-2"}, "a dotted fragment names a span inside the block"},
		{"bend:", true, Ref{Bend: true}, "an empty document id is the relative reference to the containing document (docs/interpretations.md, §5.1/§5.4)"},
		{"bend:#b.s", true, Ref{Bend: true, Block: "b", Span: "s"}, "a relative reference may address a span too"},
		{"bend:a b", false, Ref{Bend: true}, "a document id is an identifier, so white space in it is refused"},
		{"bend:a#", false, Ref{Bend: true, Doc: "a"}, "a # must be followed by a block id"},
		{"bend:a#b.", false, Ref{Bend: true, Doc: "a"}, "a . must be followed by a span id"},
		{"https://x.org/a?b#c", true, Ref{}, "any other absolute URI, query and fragment included, is an external reference"},
		{"did:plc:abc", true, Ref{}, "a URI with a non-http scheme (a DID) is accepted: the scheme is not ours to restrict"},
		{"x-y+z.1:foo", true, Ref{}, "a scheme may hold letters, digits, +, - and . after its first letter (RFC 3986 §3.1)"},
		{"1abc:foo", false, Ref{}, "a scheme must start with a letter"},
		{"no scheme", false, Ref{}, "text without a scheme is not a URI"},
		{"mailto:", false, Ref{}, "a scheme with nothing after the colon is not a URI"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		got, ok := ParseRef(c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("ParseRef(%q) = %+v, %v; want %+v, %v (%s)", c.in, got, ok, c.want, c.ok, c.reason)
		}
	}
	if got := Relative("bend:abc#x", "abc"); got != "bend:#x" {
		t.Errorf("Relative = %q", got)
	}
	if got := Relative("bend:abcd#x", "abc"); got != "bend:abcd#x" {
		t.Errorf("Relative rewrote a longer id: %q", got)
	}
}

func TestResolves(t *testing.T) {
	d := mustParse(t, string(readFixture(t)))
	for _, c := range tabletest.Cases(t, []struct {
		ref    string
		want   bool
		reason string
	}{
		{"blk-2", true, "a block of the document"},
		{"blk-2.spn-3", true, "a span of a block"},
		{"blk-5.spn-1", true, "a span of a block nested in a list item"},
		{"blk-2.spn-9", false, "a span the block does not have"},
		{"blk-zz", false, "a block the document does not have"},
		{"bend:draft#blk-2.spn-4", true, "a bend: reference naming this document (its id, draft) and a span, one whose text is null"},
		{"bend:#blk-3", true, "a bend: reference with no document id names this document"},
		{"bend:other#blk-2", false, "a reference into another document does not resolve here"},
		{"bend:draft", false, "the document itself is not a block or span"},
		{"", false, "an empty reference names nothing"},
	}) {
		if got := d.Resolves(c.ref); got != c.want {
			t.Errorf("Resolves(%q) = %v, want %v (%s)", c.ref, got, c.want, c.reason)
		}
	}
}
