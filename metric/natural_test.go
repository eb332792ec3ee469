package metric

import (
	"fmt"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/internal/tabletest"
	"bendscript.com/round-trip-harness/task/tasktest"
)

// TestAlignNaturalAnswers: for every natural task, an output equal to its
// expected document with every new id renamed to a fresh name of the
// model's choosing scores drift 0 with the edit applied; the same output
// with a new block given an id the source already has does not (reusing an
// id is never rewarded).
func TestAlignNaturalAnswers(t *testing.T) {
	set := tasktest.Set(t)
	if len(set.Natural) != 40 {
		t.Fatalf("%d natural tasks, want 40", len(set.Natural))
	}
	for _, nt := range set.Natural {
		ops, err := edit.Bind(nt.GoldEdit, nt.Names)
		if err != nil {
			t.Fatal(err)
		}
		defaults := map[string]bool{}
		for _, name := range nt.Names {
			defaults[name] = true
		}
		i := 0
		fresh := RenameKeys(nt.Expected, defaults, func(string) string { i++; return fmt.Sprintf("model-chose-%d", i) })
		out := Rename(nt.Expected, fresh)
		r := ScoreAligned(nt.Source.Doc, nt.Expected, ops, string(bend.Marshal(out)), DefaultWeights())
		if r.Drift != 0 || !r.EditApplied {
			t.Errorf("%s: fresh ids: drift %v, applied %v; want 0 and true (aligned %v, ops %+v)", nt.ID, r.Drift, r.EditApplied, r.Aligned, r.Ops)
		}
		// Without alignment the same output is penalised when it adds
		// blocks or spans: the check that alignment does the work.
		if len(nt.Names) > 0 {
			plain := Score(nt.Source.Doc, nt.Expected, ops, string(bend.Marshal(out)), DefaultWeights())
			if plain.Drift == 0 && plain.EditApplied {
				t.Errorf("%s: the renamed output scores 0 even without alignment: the case proves nothing", nt.ID)
			}
		}
		// A new block named with an id the source has: never rewarded.
		var newBlock string
		nt.Expected.Walk(func(b *bend.Block, _ int, _ string) bool {
			if newBlock == "" && isName(nt.Names, b.ID) {
				newBlock = b.ID
			}
			return true
		})
		if newBlock == "" {
			continue
		}
		existing := nt.Source.Doc.Blocks[0].ID
		clash := Rename(nt.Expected, map[string]string{newBlock: existing})
		if r := ScoreAligned(nt.Source.Doc, nt.Expected, ops, string(bend.Marshal(clash)), DefaultWeights()); r.Drift == 0 && r.EditApplied {
			t.Errorf("%s: a new block named %s (an id the source has) scores 0 with the edit applied", nt.ID, existing)
		}
	}
}

func isName(names map[string]string, id string) bool {
	for _, n := range names {
		if n == id {
			return true
		}
	}
	return false
}

// TestEvidenceInEdges: class A evidence may name an edge, as its subject,
// predicate and object, with self-references in either form or as bare
// ids; an edge the document does not have does not resolve.
func TestEvidenceInEdges(t *testing.T) {
	set := tasktest.Set(t)
	doc := set.Task("18-a").Source.Doc
	abs := "bend:" + doc.ID + "#blk-b205"
	for _, tc := range tabletest.Cases(t, []struct {
		ev     string
		want   bool
		reason string
	}{
		{"bend:#blk-b204 supports bend:#blk-b203", true, "an edge written as subject, predicate and object with relative self-references resolves"},
		{"blk-b204 supports blk-b203", true, "bare block ids stand for the document's own blocks in an edge too"},
		{abs + " bendscript.argument.v1:rebuts bend:#blk-b203", true, "the subject may use the absolute form of the document's id, and the predicate a namespaced name"},
		{"blk-b204 contradicts blk-b203", false, "the right two ends linked by a predicate the document does not link them by do not resolve"},
		{"blk-b203 supports blk-b204", false, "an edge read backwards is another edge, and does not resolve"},
	}) {
		answer := fmt.Sprintf(`{"answer": "x", "evidence": [%q]}`, tc.ev)
		r := ScoreAnswer(doc, answer)
		if got := r.EvidenceResolved == 1; got != tc.want {
			t.Errorf("evidence %q: resolved %v, want %v (%s)", tc.ev, got, tc.want, tc.reason)
		}
	}
}

// TestAlignSpanIDsAreBlockScoped: a span id names a span within its block,
// so a model may number the spans of a new block spn-01, spn-02 as the
// corpus does, although other blocks of the source have spans of those
// ids; they are still new content and are aligned. (Found by a reader
// answering the natural instructions blind: alignment took any span id
// used anywhere in the source as old.)
func TestAlignSpanIDsAreBlockScoped(t *testing.T) {
	set := tasktest.Set(t)
	n := 0
	for _, nt := range set.Natural {
		ops, _ := edit.Bind(nt.GoldEdit, nt.Names)
		defaults := map[string]bool{}
		for _, name := range nt.Names {
			defaults[name] = true
		}
		rename := map[string]string{}
		nt.Expected.Walk(func(b *bend.Block, _ int, _ string) bool {
			k := 0
			for _, s := range b.Spans {
				if defaults[s.ID] {
					k++
					rename[b.ID+"."+s.ID] = fmt.Sprintf("spn-%02d", k)
					if !defaults[b.ID] {
						rename[b.ID+"."+s.ID] = fmt.Sprintf("spn-9%d", k) // a new span in an old block: a free id
					}
				}
			}
			return true
		})
		if len(rename) == 0 {
			continue
		}
		n++
		out := Rename(nt.Expected, rename)
		if r := ScoreAligned(nt.Source.Doc, nt.Expected, ops, string(bend.Marshal(out)), DefaultWeights()); r.Drift != 0 || !r.EditApplied {
			t.Errorf("%s: spans renamed %v: drift %v, applied %v", nt.ID, rename, r.Drift, r.EditApplied)
		}
	}
	if n < 10 {
		t.Fatalf("only %d natural tasks add spans; the test needs them", n)
	}
}
