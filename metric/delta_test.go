package metric

import (
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestDeltaOf: each kind of change counts once, in its unit and kind.
func TestDeltaOf(t *testing.T) {
	t.Parallel()
	const base = `{"bendscript":"0.1","id":"x","vocabulary":"core","blocks":[` +
		`{"id":"h","kind":"heading","level":1,"spans":[{"id":"s1","text":"Title"}]},` +
		`{"id":"p","kind":"paragraph","spans":[{"id":"s1","text":"One ","marks":["bold"]},{"id":"s2","text":"two"}]},` +
		`{"id":"l","kind":"list","items":[{"id":"i1","kind":"list-item","blocks":[{"id":"q","kind":"paragraph","spans":[{"id":"s1","text":"item"}]}]}]}],` +
		`"edges":[{"subject":"bend:#p","predicate":"cites","object":"bend:#h","meta":{"a":1,"b":2}}]}`
	parse := func(s string) *bend.Document {
		d, err := bend.Parse([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		from, to string
		want     Delta
		reason   string
	}{
		{"", "", Delta{}, "the same document"},
		{`"meta":{"a":1,"b":2}`, `"meta":{"b":2,"a":1}`, Delta{}, "meta's member order is no change"},
		{`{"id":"l","kind":"list","items":[{"id":"i1","kind":"list-item","blocks":[{"id":"q","kind":"paragraph","spans":[{"id":"s1","text":"item"}]}]}]}`, `{"id":"l","kind":"list","items":[]}`,
			Delta{Deleted: Counts{Blocks: 2}, Corrupted: Counts{Blocks: 1}}, "a list item and its paragraph deleted (their spans with them); the list changed"},
		{`"text":"two"`, `"text":"three"`, Delta{Corrupted: Counts{Spans: 1}}, "a span's text changed"},
		{`"marks":["bold"]`, `"marks":["italic"]`, Delta{Deleted: Counts{Marks: 1}, Added: Counts{Marks: 1}}, "a changed mark is one deleted, one added"},
		{`"meta":{"a":1,"b":2}`, `"meta":{"a":1}`, Delta{Corrupted: Counts{Edges: 1}}, "an edge's meta changed"},
		{`,{"id":"s2","text":"two"}`, ``, Delta{Deleted: Counts{Spans: 1}, Corrupted: Counts{Blocks: 1}}, "a span deleted: its block's span list changed"},
		{`"predicate":"cites"`, `"predicate":"refutes"`, Delta{Deleted: Counts{Edges: 1}, Added: Counts{Edges: 1}}, "an edge retyped is another edge"},
		{`"level":1`, `"level":2`, Delta{Corrupted: Counts{Blocks: 1}}, "a heading's level changed"},
	}
	for _, tt := range tabletest.Cases(t, tests) {
		got := DeltaOf(parse(base), parse(strings.Replace(base, tt.from, tt.to, 1)))
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.reason, got, tt.want)
		}
		if got.Total() != got.Deleted.Total()+got.Corrupted.Total()+got.Added.Total() {
			t.Errorf("%s: total %d", tt.reason, got.Total())
		}
	}
}
