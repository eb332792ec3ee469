package metric

import (
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// untouched returns the id of the last top-level block that has a span
// and that the gold edit left as the source had it, or "".
func untouched(src, exp *bend.Document) string {
	rel := func(s string) string { return s }
	ps, pe := places(src, rel), places(exp, rel)
	id := ""
	for _, b := range exp.Blocks {
		if len(b.Spans) == 0 || b.Spans[0].Text == nil {
			continue
		}
		k := "span " + b.ID + "." + b.Spans[0].ID
		if val(ps, k) == val(pe, k) && val(ps, "block "+b.ID) == val(pe, "block "+b.ID) {
			id = b.ID
		}
	}
	return id
}

// TestUnrequestedChangesCounted: one invented sentence in a block the edit
// did not touch is exactly one unrequested change, named by its pointer;
// the unchanged source (the edit not done) is none, since not doing what
// was asked is the edit-compliance measure's business.
func TestUnrequestedChangesCounted(t *testing.T) {
	t.Parallel()
	for _, bt := range allBC(t) {
		src, exp := bt.t.Source.Doc, bt.t.Expected
		id := untouched(src, exp)
		if id == "" {
			t.Fatalf("%s: no untouched block", bt.t.ID)
		}
		out := exp.Clone()
		b := out.FindBlock(id)
		s := *b.Spans[0].Text + " An invented sentence."
		b.Spans[0].Text = &s
		r := bt.score(string(bend.Marshal(out)))
		if n := deref(r.UnrequestedChanges); n != 1 {
			t.Errorf("%s: one invented sentence in %s: %v unrequested changes, want 1: %v", bt.t.ID, id, n, r.Diagnostics)
		}
		r = bt.score(string(bend.Marshal(src)))
		if n := deref(r.UnrequestedChanges); n != 0 {
			t.Errorf("%s: the unchanged source: %v unrequested changes, want 0: %v", bt.t.ID, n, r.Diagnostics)
		}
	}
}

// TestUnrequestedMoveCountsOnce: two adjacent untouched blocks swapped are
// one move, not one per shifted neighbour.
func TestUnrequestedMoveCountsOnce(t *testing.T) {
	bt := allBC(t)[0]
	out := bt.t.Expected.Clone()
	n := len(out.Blocks)
	out.Blocks[n-1], out.Blocks[n-2] = out.Blocks[n-2], out.Blocks[n-1]
	r := bt.score(string(bend.Marshal(out)))
	if got := deref(r.UnrequestedChanges); got != 1 {
		t.Errorf("%s: two blocks swapped: %v unrequested changes, want 1: %v", bt.t.ID, got, r.Diagnostics)
	}
}

// TestMovedIsLongestCommonOrder pins moved on hand cases.
func TestMovedIsLongestCommonOrder(t *testing.T) {
	cases := []struct {
		a, b   []string
		want   int
		reason string
	}{
		{[]string{"a", "b", "c", "d"}, []string{"a", "b", "c", "d"}, 0, "same order"},
		{[]string{"a", "b", "c", "d"}, []string{"a", "c", "b", "d"}, 1, "a swap moves one block"},
		{[]string{"a", "b", "c", "d"}, []string{"d", "a", "b", "c"}, 1, "one block moved far"},
		{[]string{"a", "b", "c", "d"}, []string{"d", "c", "b", "a"}, 3, "reversed: only one keeps its order"},
		{[]string{"a", "b", "c"}, []string{"x", "a", "c"}, 0, "added and lost blocks are not moves"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		if got := len(moved(c.a, c.b)); got != c.want {
			t.Errorf("%v → %v: %d moved, want %d (%s)", c.a, c.b, got, c.want, c.reason)
		}
	}
}
