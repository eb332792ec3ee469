package edit

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

func TestIsPlaceholder(t *testing.T) {
	cases := []struct {
		in     string
		want   bool
		reason string
	}{
		{"$new1", true, "the first placeholder"},
		{"$new12", true, "numbers go past 9"},
		{"$new0", false, "numbering starts at 1"},
		{"$new01", false, "no leading zeros, so each number has one spelling"},
		{"$new", false, "the number is required"},
		{"$new1a", false, "nothing after the number"},
		{"new1", false, "the dollar sign is what no id can contain (§5.2)"},
		{"blk-n001", false, "a default name is an id, not a placeholder"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := IsPlaceholder(c.in); got != c.want {
			t.Errorf("IsPlaceholder(%q) = %v, want %v: %s", c.in, got, c.want, c.reason)
		}
	}
}

// natural is a gold edit with placeholders in every place one may stand:
// a new block with spans and a nested link to new content, a span inserted
// into that new block, a supersession, and an edge between new content.
const natural = `[
 {"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"list","ordered":false,"items":[
   {"id":"$new2","kind":"list-item","blocks":[{"id":"$new3","kind":"paragraph","spans":[
     {"id":"$new4","text":"new","marks":[{"kind":"link","target":"bend:#b1.$new5"}]}]}]}]}},
 {"op":"supersede_span","block":"b1","span":"s1","new_span":{"id":"$new5","text":"ALPHA "}},
 {"op":"insert_span","block":"$new3","after":"$new4","span":{"id":"$new6","text":" more"}},
 {"op":"add_edge","edge":{"subject":"bend:#$new3.$new6","predicate":"cites","object":"bend:doc1#$new1"}},
 {"op":"add_edge","edge":{"subject":"bend:#b1","predicate":"defines","object":"bend:#b1.s2","meta":{"id":"$new1"}}}
]`

func TestPlaceholders(t *testing.T) {
	got := Placeholders(ops(t, natural))
	want := []string{"$new1", "$new2", "$new3", "$new4", "$new5", "$new6"}
	if !slices.Equal(got, want) {
		t.Errorf("Placeholders = %v, want %v (order of first appearance, as in the JSON; meta is never searched)", got, want)
	}
}

func TestDefaultNames(t *testing.T) {
	source := parse(t, src)
	// The source already has a block with the first default block name
	// and a span with the first default span name.
	taken := parse(t, strings.Replace(strings.Replace(src, `"id":"b1"`, `"id":"blk-n001"`, 1), `"id":"s1","text":"item"`, `"id":"spn-n001","text":"item"`, 1))
	cases := []struct {
		name   string
		source *bend.Document
		ops    string
		want   map[string]string
		reason string
	}{
		{"kinds", source, natural, map[string]string{
			"$new1": "blk-n001", "$new2": "blk-n002", "$new3": "blk-n003",
			"$new4": "spn-n001", "$new5": "spn-n002", "$new6": "spn-n003",
		}, "blocks and spans are counted apart, in order of first appearance"},
		{"fresh", taken, `[{"op":"insert_block","after":"blk-n001","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new2","text":"x"}]}}]`,
			map[string]string{"$new1": "blk-n002", "$new2": "spn-n002"},
			"a default name never repeats an id of the source, block or span, wherever it is"},
		{"reference-only", source, `[{"op":"add_edge","edge":{"subject":"bend:#$new1.$new2","predicate":"cites","object":"https://x.org"}}]`,
			map[string]string{"$new1": "blk-n001", "$new2": "spn-n001"},
			"the kind of a placeholder in a reference is read from its component"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			got, err := DefaultNames(c.source, ops(t, c.ops))
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, c.want) {
				t.Errorf("DefaultNames = %v, want %v: %s", got, c.want, c.reason)
			}
		})
	}
	if _, err := DefaultNames(source, ops(t, `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new1","text":"x"}]}}]`)); err == nil {
		t.Error("a placeholder naming a block and a span got default names; want an error")
	}
}

// TestBindApplies: the natural edit, bound to its default names, is the
// edit one would have written with those ids, and applies to give a valid
// document; Bind leaves its input alone. (Its operations overlap, one
// inserting into a block another created, so it would fail Check, which
// reads each operation against the final document.)
func TestBindApplies(t *testing.T) {
	source := parse(t, src)
	o := ops(t, natural)
	before := opsText(o)
	names, err := DefaultNames(source, o)
	if err != nil {
		t.Fatal(err)
	}
	bound, err := Bind(o, names)
	if err != nil {
		t.Fatal(err)
	}
	if opsText(o) != before {
		t.Fatal("Bind modified its input")
	}
	want := strings.NewReplacer(`"$new1"`, `"blk-n001"`, `"$new2"`, `"blk-n002"`, `"$new3"`, `"blk-n003"`,
		`"$new4"`, `"spn-n001"`, `"$new5"`, `"spn-n002"`, `"$new6"`, `"spn-n003"`,
		`#b1.$new5"`, `#b1.spn-n002"`, `#$new3.$new6"`, `#blk-n003.spn-n003"`, `#$new1"`, `#blk-n001"`).Replace(natural)
	// The meta member that looks like a placeholder stays literal.
	want = strings.Replace(want, `"meta":{"id":"blk-n001"}`, `"meta":{"id":"$new1"}`, 1)
	if got := opsText(bound); got != opsText(ops(t, want)) {
		t.Errorf("Bind gave\n%s\nwant\n%s", got, opsText(ops(t, want)))
	}
	exp, err := Apply(source, bound)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if errs := bend.Validate(exp); len(errs) > 0 {
		t.Fatalf("expected document invalid: %v", errs)
	}
	if bytes.Contains(bend.Marshal(exp), []byte(`"$new2"`)) {
		t.Error("a placeholder survived into the expected document")
	}
}

func TestBindErrors(t *testing.T) {
	o := ops(t, `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"divider"}},{"op":"add_edge","edge":{"subject":"bend:#$new2","predicate":"cites","object":"https://x.org"}}]`)
	cases := []struct {
		name   string
		names  map[string]string
		want   string
		reason string
	}{
		{"missing", map[string]string{"$new1": "b9"}, "no name for $new2", "every placeholder must be named, references included"},
		{"not-an-id", map[string]string{"$new1": "b 9", "$new2": "b8"}, `"b 9", the name for $new1, is not an id`, "a name must be usable in a bend: reference"},
		{"dotted", map[string]string{"$new1": "b9", "$new2": "b.8"}, "is not an id", "a dot would split a reference"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			_, err := Bind(o, c.names)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Bind = %v, want an error containing %q: %s", err, c.want, c.reason)
			}
		})
	}
	if _, err := Bind(o, map[string]string{"$new1": "b9", "$new2": "b8", "$new7": "unused"}); err != nil {
		t.Errorf("a name for a placeholder the edit does not use: %v, want it ignored", err)
	}
}

func TestMatchNames(t *testing.T) {
	fwd := `[{"op":"insert_block","after":"b1","block":{"id":"b9","kind":"paragraph","spans":[{"id":"s1","text":"x"}]}},{"op":"add_edge","edge":{"subject":"bend:#b9.s1","predicate":"cites","object":"https://x.org"}}]`
	cases := []struct {
		name, natural string
		want          map[string]string
		err           string
		reason        string
	}{
		{"renaming", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new2","text":"x"}]}},{"op":"add_edge","edge":{"subject":"bend:#$new1.$new2","predicate":"cites","object":"https://x.org"}}]`,
			map[string]string{"$new1": "b9", "$new2": "s1"}, "", "placeholders in ids and in references map to the forward ids"},
		{"text-ignored", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new2","text":"DIFFERENT"}]}},{"op":"add_edge","edge":{"subject":"bend:#$new1.$new2","predicate":"cites","object":"https://x.org"}}]`,
			map[string]string{"$new1": "b9", "$new2": "s1"}, "", "only ids are matched; the caller compares the rest"},
		{"inconsistent", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new2","text":"x"}]}},{"op":"add_edge","edge":{"subject":"bend:#$new1.$new1","predicate":"cites","object":"https://x.org"}}]`,
			nil, "$new1 stands for both", "one placeholder, one id"},
		{"other-anchor", `[{"op":"insert_block","after":"b2","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new2","text":"x"}]}},{"op":"add_edge","edge":{"subject":"bend:#$new1.$new2","predicate":"cites","object":"https://x.org"}}]`,
			nil, "b2 where the other edit has b1", "an existing id must be the forward one"},
		{"shape", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new2","text":"x"}]}}]`,
			nil, "1 operations, want 2", "the same operations"},
		{"fewer-spans", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[]}},{"op":"add_edge","edge":{"subject":"bend:#$new1.$new2","predicate":"cites","object":"https://x.org"}}]`,
			nil, "2 ids, want 3", "the same id slots"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			got, err := MatchNames(ops(t, c.natural), ops(t, fwd))
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("MatchNames error %v, want %q: %s", err, c.err, c.reason)
			case c.err == "" && err != nil:
				t.Errorf("MatchNames: %v (%s)", err, c.reason)
			case c.err == "" && !maps.Equal(got, c.want):
				t.Errorf("MatchNames = %v, want %v: %s", got, c.want, c.reason)
			}
		})
	}
}

func TestCheckPlaceholders(t *testing.T) {
	cases := []struct {
		name, ops string
		err       string
		reason    string
	}{
		{"ok", natural, "", "every new id a placeholder, numbered in order"},
		{"dictated-block", `[{"op":"insert_block","after":"b1","block":{"id":"b9","kind":"divider"}}]`, `new block "b9" is not a placeholder`, "a natural edit dictates no new id"},
		{"dictated-span", `[{"op":"supersede_span","block":"b1","span":"s1","new_span":{"id":"s9","text":"x"}}]`, `new span "s9" is not a placeholder`, "new spans too"},
		{"dictated-inner-span", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"s1","text":"x"}]}}]`, `new span "s1" is not a placeholder`, "the spans of a new block are new"},
		{"order", `[{"op":"insert_block","after":"b1","block":{"id":"$new2","kind":"paragraph","spans":[{"id":"$new1","text":"x"}]}}]`, "$new2 appears where $new1 should come first", "numbered in order of first appearance"},
		{"gap", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new3","text":"x"}]}}]`, "$new3 appears where $new2", "no gaps"},
		{"undefined", `[{"op":"add_edge","edge":{"subject":"bend:#$new1","predicate":"cites","object":"https://x.org"}}]`, "$new1 is used but names no new block or span", "a placeholder stands for new content"},
		{"twice", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"divider"}},{"op":"insert_block","after":"$new1","block":{"id":"$new1","kind":"divider"}}]`, "$new1 names 2 new blocks", "one placeholder, one new block or span"},
		{"kinds", `[{"op":"insert_block","after":"b1","block":{"id":"$new1","kind":"paragraph","spans":[{"id":"$new1","text":"x"}]}}]`, "names a span here and a block before", "one kind per placeholder"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			err := CheckPlaceholders(ops(t, c.ops))
			switch {
			case c.err == "" && err != nil:
				t.Errorf("CheckPlaceholders: %v (%s)", err, c.reason)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("CheckPlaceholders = %v, want %q: %s", err, c.err, c.reason)
			}
		})
	}
}

func opsText(o []*Op) string {
	a := &bend.Value{Kind: bend.Array}
	for _, op := range o {
		a.Elems = append(a.Elems, op.Value())
	}
	return string(bend.MarshalValue(a))
}
