package metric

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// bcTask is a class B/C task of any kind with the ops its answers are
// checked against and the scorer that applies (aligned for natural tasks).
type bcTask struct {
	t     *task.Task
	ops   []*edit.Op
	score func(raw string) Result
}

// allBC returns the gating, inverse and natural class B/C tasks.
func allBC(t *testing.T) []bcTask {
	set := tasktest.Set(t)
	var out []bcTask
	for _, tk := range slices.Concat(set.Tasks, set.Inverse) {
		if tk.Class == task.ClassA {
			continue
		}
		out = append(out, bcTask{tk, tk.GoldEdit, func(raw string) Result {
			return Score(tk.Source.Doc, tk.Expected, tk.GoldEdit, raw, DefaultWeights())
		}})
	}
	for _, tk := range set.Natural {
		ops, err := edit.Bind(tk.GoldEdit, tk.Names)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bcTask{tk, ops, func(raw string) Result {
			return ScoreAligned(tk.Source.Doc, tk.Expected, ops, raw, DefaultWeights())
		}})
	}
	if len(out) != 120 {
		t.Fatalf("%d class B/C tasks (gating, inverse, natural), want 120", len(out))
	}
	return out
}

// absolute writes every relative self-reference of d with id.
func absolute(d *bend.Document, id string) *bend.Document {
	c := d.Clone()
	c.MapRefs(func(r string) string {
		if rest, ok := strings.CutPrefix(r, "bend:#"); ok {
			return "bend:" + id + "#" + rest
		}
		return r
	})
	return c
}

// TestLosslessEquivalences: the expected document written in any of the
// ways doc.go allows is lossless, with drift 0, residual 0 and no
// unrequested change, for every B/C task of every suite.
func TestLosslessEquivalences(t *testing.T) {
	t.Parallel()
	for _, bt := range allBC(t) {
		exp, src := bt.t.Expected, bt.t.Source.Doc
		reversed := exp.Clone()
		slices.Reverse(reversed.Edges)
		restated := exp.Clone()
		restated.ID = "bend-some-other-id"
		sortedKeys, err := bend.CanonicalValue(exp.Value())
		if err != nil {
			t.Fatal(err)
		}
		forms := map[string]string{
			"as is":                            string(bend.Marshal(exp)),
			"sorted keys, no white space":      string(sortedKeys),
			"edges reversed":                   string(bend.Marshal(reversed)),
			"another declared id":              string(bend.Marshal(restated)),
			"self-references with source id":   string(bend.Marshal(absolute(exp, src.ID))),
			"self-references with expected id": string(bend.Marshal(absolute(exp, exp.ID))),
		}
		if len(bt.t.Names) > 0 {
			i := 0
			defaults := map[string]bool{}
			for _, n := range bt.t.Names {
				defaults[n] = true
			}
			fresh := RenameKeys(exp, defaults, func(string) string { i++; return fmt.Sprintf("mine-%d", i) })
			forms["new ids named by the model"] = string(bend.Marshal(Rename(exp, fresh)))
		}
		for name, raw := range forms {
			r := bt.score(raw)
			if !r.Lossless || r.Drift != 0 || r.Residual != 0 || r.UnrequestedChanges == nil || *r.UnrequestedChanges != 0 || !r.EditApplied {
				t.Errorf("%s, %s: lossless %v, drift %v, residual %v, unrequested %v, applied %v; want true, 0, 0, 0, true: %v",
					bt.t.ID, name, r.Lossless, r.Drift, r.Residual, deref(r.UnrequestedChanges), r.EditApplied, r.Diagnostics)
			}
		}
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

// loss is one thing an answer can lose that only the residual component
// sees: drift must stay 0, residual must rise, lossless must be false.
type loss struct {
	name   string
	apply  func(d *bend.Document) bool // false: the document has nothing to lose
	reason string
}

var residualLosses = []loss{
	{"document meta stripped", func(d *bend.Document) bool { had := d.Meta != nil; d.Meta = nil; return had },
		"document meta is no component's business, so §8.4 passes a model that drops it"},
	{"edge meta stripped", func(d *bend.Document) bool {
		had := false
		for _, e := range d.Edges {
			had = had || e.Meta != nil
			e.Meta = nil
		}
		return had
	}, "edge weights and provenance vanish without edge drift"},
	{"bendscript version 0.2", func(d *bend.Document) bool { d.Bendscript = "0.2"; return true },
		"a v0.2 document is not the v0.1 document asked for"},
	{"bendscript version dropped", func(d *bend.Document) bool { d.Bendscript = ""; return true },
		"a record without its version is not a v0.1 document"},
	{"every edge duplicated", func(d *bend.Document) bool {
		n := len(d.Edges)
		for _, e := range d.Edges[:n] {
			c := *e
			d.Edges = append(d.Edges, &c)
		}
		return n > 0
	}, "edge preservation compares sets, so copies are invisible to it"},
	{"a member added to the document", func(d *bend.Document) bool {
		d.Extra = append(d.Extra, bend.Member{Key: "x-note", Value: bend.StringValue("added")})
		return true
	}, "unknown members are no component's business"},
	{"a member added to a span", func(d *bend.Document) bool {
		done := false
		d.Walk(func(b *bend.Block, _ int, _ string) bool {
			if len(b.Spans) > 0 {
				b.Spans[0].Extra = append(b.Spans[0].Extra, bend.Member{Key: "x-note", Value: bend.StringValue("added")})
				done = true
			}
			return !done
		})
		return done
	}, "span coverage reads text only"},
}

// TestResidualSeesWhatTheFiveMiss: each loss the five components cannot
// see, applied to the expected document of every B/C task, keeps drift at 0
// (the §8.4 numbers do not move), raises the residual component and makes
// the answer not lossless.
func TestResidualSeesWhatTheFiveMiss(t *testing.T) {
	t.Parallel()
	for _, l := range tabletest.Cases(t, residualLosses) {
		hit := 0
		for _, bt := range allBC(t) {
			out := bt.t.Expected.Clone()
			if !l.apply(out) {
				continue
			}
			hit++
			r := bt.score(string(bend.Marshal(out)))
			if r.Drift != 0 || r.Residual <= 0 || r.Lossless {
				t.Errorf("%s, %s: drift %v, residual %v, lossless %v; want 0, > 0, false (%s)", bt.t.ID, l.name, r.Drift, r.Residual, r.Lossless, l.reason)
			}
			if r.Residual > 0 && !hasKind(r.Diagnostics, KindResidual) {
				t.Errorf("%s, %s: residual %v without a residual diagnostic", bt.t.ID, l.name, r.Residual)
			}
		}
		if hit == 0 {
			t.Errorf("%s: no task's document has anything to lose: the case proves nothing", l.name)
		}
	}
}

// TestDriftLossesAreNotLossless: losses the five components see are not
// lossless either, and name the place by JSON pointer.
func TestDriftLossesAreNotLossless(t *testing.T) {
	t.Parallel()
	for _, bt := range allBC(t) {
		out := bt.t.Expected.Clone()
		var ptr string
		out.Walk(func(b *bend.Block, _ int, p string) bool {
			if len(b.Spans) > 0 && b.Spans[0].Text != nil {
				s := *b.Spans[0].Text + " An invented sentence."
				b.Spans[0].Text = &s
				ptr = p + "/spans/0/text"
				return false
			}
			return true
		})
		r := bt.score(string(bend.Marshal(out)))
		if r.Lossless || r.Drift == 0 {
			t.Errorf("%s: an invented sentence: lossless %v, drift %v", bt.t.ID, r.Lossless, r.Drift)
		}
		if !slices.ContainsFunc(r.Diagnostics, func(d Diagnostic) bool {
			return d.Kind == KindNotLossless && strings.HasPrefix(d.Detail, ptr+": ")
		}) {
			t.Errorf("%s: no not_lossless diagnostic names %s: %v", bt.t.ID, ptr, r.Diagnostics)
		}
	}
}

// TestInvalidOutputIsNotLossless: a document that fails validation is not
// a round trip, however close it is.
func TestInvalidOutputIsNotLossless(t *testing.T) {
	for _, bt := range allBC(t)[:40] {
		out := bt.t.Expected.Clone()
		out.Vocabulary = ""
		r := bt.score(string(bend.Marshal(out)))
		if r.Lossless || r.SchemaValid {
			t.Errorf("%s: no vocabulary: lossless %v, schema valid %v", bt.t.ID, r.Lossless, r.SchemaValid)
		}
	}
}

func hasKind(ds []Diagnostic, kind string) bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Kind == kind })
}

// TestResidualFormula pins the multiset distance on a hand-counted case.
func TestResidualFormula(t *testing.T) {
	doc := func(meta string, edges string) *bend.Document {
		raw := `{"bendscript":"0.1","id":"x","vocabulary":"core","meta":` + meta + `,"blocks":[` +
			`{"id":"blk-1","kind":"paragraph","spans":[{"id":"spn-1","text":"a"}]},` +
			`{"id":"blk-2","kind":"paragraph","spans":[{"id":"spn-1","text":"b"}]}],"edges":[` + edges + `]}`
		d, err := bend.Parse([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	edge := `{"subject":"bend:#blk-1","predicate":"supports","object":"bend:#blk-2","meta":{"w":1}}`
	exp := doc(`{"a":1,"b":[2,3]}`, edge)
	cases := []struct {
		name   string
		out    *bend.Document
		want   float64
		reason string
	}{
		{"same", doc(`{"b":[2,3],"a":1.0}`, edge), 0, "order and number spelling are not facts"},
		// F(E) = {version, /meta/a, /meta/b/0, /meta/b/1, edge /meta/w}: 5.
		{"meta gone", doc(`{}`, edge), 4.0 / 6, "three leaves lost and the empty meta {} added: Σ|a−b| = 4, Σmax = 6"},
		{"one leaf changed", doc(`{"a":2,"b":[2,3]}`, edge), 2.0 / 6, "a=1 lost, a=2 added: 2 of 6"},
		{"edge copied", doc(`{"a":1,"b":[2,3]}`, edge+","+edge), 2.0 / 7, "one extra-copy fact and one more edge meta leaf: 2 of 7"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		got, _ := residual(exp, c.out, func(s string) string { return s }, func(s string) string { return s })
		if !near(got, c.want) {
			t.Errorf("%s: residual %v, want %v (%s)", c.name, got, c.want, c.reason)
		}
	}
}

func near(a, b float64) bool { d := a - b; return d < 1e-12 && d > -1e-12 }

// TestObjectDiffsInKeyOrder: the comparison of two objects names their
// differences in key order whatever the members' order, reads the first
// member of a key (as Value.Get does), and finds the same differences
// whether or not the two objects list their keys alike (issue 45 replaced
// its linear lookup per key with sorted positions).
func TestObjectDiffsInKeyOrder(t *testing.T) {
	parse := func(s string) *bend.Value {
		v, err := bend.ParseValue([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range tabletest.Cases(t, []struct {
		a, b   string
		want   []string
		reason string
	}{
		{`{"b":1,"a":1}`, `{"b":2,"a":2}`, []string{"/a: 1 → 2", "/b: 1 → 2"}, "same keys, same order: differences in key order"},
		{`{"b":1,"a":1}`, `{"a":2,"b":2}`, []string{"/a: 1 → 2", "/b: 1 → 2"}, "another order: the same differences"},
		{`{"a":1,"c":1}`, `{"b":1,"c":2}`, []string{"/a: missing from the output", "/b: not expected (1)", "/c: 1 → 2"}, "keys on one side only, merged in order"},
	}) {
		d := &differ{}
		d.value("", parse(c.a), parse(c.b))
		if !slices.Equal(d.out, c.want) {
			t.Errorf("%s vs %s: %q, want %q (%s)", c.a, c.b, d.out, c.want, c.reason)
		}
	}
	// A key given twice (no parser makes one): the first is read.
	dup := func(second string) *bend.Value {
		return &bend.Value{Kind: bend.Object, Members: []bend.Member{{Key: "k", Value: parse("1")}, {Key: "k", Value: parse(second)}}}
	}
	d := &differ{}
	d.value("", dup("2"), dup("3"))
	if len(d.out) != 0 {
		t.Errorf("a key given twice: %q; want the first member read, equal", d.out)
	}
}
