package task

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/internal/tabletest"
)

// TestPoolShipped: the embedded pool loads without a problem, CheckPool
// proves every pair (forward changes the document, backward gives it back
// byte for byte), every document has at least MinPairs pairs, and every
// kind of PairKinds occurs, so the delegate chains cover the protocol's
// edits.
func TestPoolShipped(t *testing.T) {
	s, probs := Load(corpus.FS, instructions.FS)
	probs = append(probs, WithPool(s, instructions.FS)...)
	probs = append(probs, CheckPool(s)...)
	for _, p := range probs {
		t.Error(p)
	}
	if n := len(s.Pairs); n < 120 {
		t.Errorf("%d pairs, want at least 120 (issue 48)", n)
	}
	kinds := map[string]int{}
	for _, d := range s.Documents {
		ps := s.PoolOf(d.Name)
		if len(ps) < MinPairs {
			t.Errorf("%s: %d pairs, want at least %d", d.Name, len(ps), MinPairs)
		}
		for _, p := range ps {
			kinds[p.Kind]++
			if p.Backward.Forward != p.Forward || p.Backward.Source.Doc.ID != p.Forward.Source.Doc.ID {
				t.Errorf("%s: the backward task is not given the forward task's expected document", p.ID)
			}
		}
	}
	for _, k := range PairKinds {
		if kinds[k.Name] == 0 {
			t.Errorf("no pair of kind %q (%s)", k.Name, k.Says)
		}
	}
}

// poolFS is the embedded task directory with pool/NN.json replaced by the
// result of change on its parsed form.
func poolFS(t *testing.T, nn string, change func(pool map[string]any)) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(instructions.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(instructions.FS, p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	name := "pool/" + nn + ".json"
	var pool map[string]any
	if err := json.Unmarshal(m[name].Data, &pool); err != nil {
		t.Fatal(err)
	}
	change(pool)
	b, err := json.Marshal(pool)
	if err != nil {
		t.Fatal(err)
	}
	m[name] = &fstest.MapFile{Data: b}
	return m
}

// side returns pair i's forward or backward object.
func side(pool map[string]any, i int, which string) map[string]any {
	return pool["pairs"].([]any)[i].(map[string]any)[which].(map[string]any)
}

func firstOp(pool map[string]any, i int, which string) map[string]any {
	return side(pool, i, which)["gold_edit"].([]any)[0].(map[string]any)
}

// TestPoolBroken: a broken pair fails corpus check (WithPool and
// CheckPool, as CheckDirs runs them) with a problem that names the file, the JSON pointer
// and the pair.
func TestPoolBroken(t *testing.T) {
	cases := []struct {
		name, nn string
		change   func(pool map[string]any)
		want     string
		reason   string
	}{
		{"backward-inexact", "01", func(p map[string]any) {
			op := firstOp(p, 3, "backward") // 01-p04: rename the heading, and back
			op["text"] = op["text"].(string) + "!"
		}, "instructions/pool/01.json: /pairs/3/backward/gold_edit: pair 01-p04 backward: forward then backward does not give the source back byte for byte",
			"a backward edit that applies but restores a different text is not exact"},
		{"forward-noop", "07", func(p map[string]any) {
			fwd, bwd := firstOp(p, 0, "forward"), firstOp(p, 0, "backward") // 07-p01: code text
			fwd["text"] = bwd["text"]
		}, "instructions/pool/07.json: /pairs/0/forward/gold_edit: pair 07-p01 forward: leaves the document as it was",
			"a forward edit that writes what is already there changes nothing, so its round trip proves nothing"},
		{"backward-does-not-apply", "04", func(p map[string]any) {
			firstOp(p, 0, "backward")["block"] = "blk-nope" // 04-p01
		}, "instructions/pool/04.json: /pairs/0/backward/gold_edit: pair 04-p01 backward: does not apply",
			"a backward edit that names a block the forward document lacks is reported at its pointer"},
		{"forward-fails-check", "12", func(p map[string]any) {
			// 12-p01 moves a paragraph; a lone remove_block is not a move
			s := side(p, 0, "forward")
			s["gold_edit"] = s["gold_edit"].([]any)[:1]
		}, "instructions/pool/12.json: /pairs/0/backward/gold_edit: pair 12-p01 backward: does not apply to 12-cli-changelog.bend.json: operation 0 (remove_block): no block \"blk-5d70\"",
			"a move cut to its remove_block loses the block, so the backward move has nothing to move: the pair is reported, not its documents"},
		{"bad-kind", "02", func(p map[string]any) {
			p["pairs"].([]any)[1].(map[string]any)["kind"] = "rewrite"
		}, `instructions/pool/02.json: /pairs/1/kind: "rewrite" is not a kind of PairKinds (pair 02-p02)`,
			"a kind outside the table would escape the per-kind counts"},
		{"renumbered", "09", func(p map[string]any) {
			p["pairs"].([]any)[2].(map[string]any)["id"] = "09-p07"
		}, `instructions/pool/09.json: /pairs/2/id: "09-p07", want "09-p03"`,
			"pair ids follow file order, so a pointer and an id always agree"},
		{"too-few", "15", func(p map[string]any) {
			p["pairs"] = p["pairs"].([]any)[:MinPairs-1]
		}, fmt.Sprintf("instructions/pool/15.json: /pairs: %d usable pairs for 15-sms-immunisation-evidence.bend.json, want at least %d", MinPairs-1, MinPairs),
			"a document with too few pairs would make a chain repeat its edits"},
	}
	for _, c := range tabletest.Cases(t, cases) {
		t.Run(c.name, func(t *testing.T) {
			fsys := poolFS(t, c.nn, c.change)
			s, probs := Load(corpus.FS, fsys)
			probs = append(probs, WithPool(s, fsys)...)
			probs = append(probs, CheckPool(s)...)
			var lines []string
			found := false
			for _, p := range probs {
				lines = append(lines, p.String())
				found = found || strings.HasPrefix(p.String(), c.want)
			}
			if !found {
				t.Errorf("no problem starting %q (%s); got:\n%s", c.want, c.reason, strings.Join(lines, "\n"))
			}
		})
	}
}

// TestPoolInstructionsSayWhatTheEditDoes: a reader who has not seen the
// gold edit can carry it out from the instruction alone only if the
// instruction names everything the edit writes and every place it
// addresses. For each side of each pair: every new text (a text the source
// does not already hold, so moved spans are exempt), every id an operation
// addresses or creates (apart from the unchanged neighbour a list-kind
// change puts its list back after), every edge's subject, predicate and
// object, every link target and predicate, and every plain mark named.
func TestPoolInstructionsSayWhatTheEditDoes(t *testing.T) {
	s, probs := Load(corpus.FS, instructions.FS)
	probs = append(probs, WithPool(s, instructions.FS)...)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	for _, p := range s.Pairs {
		for _, side := range []*Task{p.Forward, p.Backward} {
			which := "forward"
			if side == p.Backward {
				which = "backward"
			}
			for _, miss := range unsaid(side, p.Kind) {
				t.Errorf("%s %s: the instruction does not say %s", p.ID, which, miss)
			}
		}
	}
}

// heldTexts are the texts of the document's blocks and spans.
func heldTexts(src *bend.Document) map[string]bool {
	held := map[string]bool{}
	src.Walk(func(b *bend.Block, _ int, _ string) bool {
		for _, s := range b.Spans {
			if s.Text != nil {
				held[*s.Text] = true
			}
		}
		if b.Text != nil {
			held[*b.Text] = true
		}
		return true
	})
	return held
}

// asWritten is a reference to the document docID (itself, or a block of
// it) as an instruction writes it: with {{doc}} for the document's id.
func asWritten(r, docID string) string {
	switch {
	case r == "bend:" || r == "bend:"+docID:
		return "bend:{{doc}}"
	case strings.HasPrefix(r, "bend:#"):
		return "bend:{{doc}}" + r[len("bend:"):]
	case strings.HasPrefix(r, "bend:"+docID+"#"):
		return "bend:{{doc}}" + r[len("bend:"+docID):]
	}
	return r
}

// unsaid lists what t's gold edit writes or addresses that its instruction
// does not say.
func unsaid(t *Task, kind string) []string {
	in, src := t.Instruction, t.Source.Doc
	held := heldTexts(src)
	var out []string
	say := func(what, s string) {
		if !strings.Contains(in, s) {
			out = append(out, fmt.Sprintf("%s %q", what, s))
		}
	}
	id := func(s string) {
		if s != "" && !containsID(in, s) {
			out = append(out, fmt.Sprintf("id %s", s))
		}
	}
	ref := func(r string) { say("reference", asWritten(r, src.ID)) }
	for _, op := range t.GoldEdit {
		if op.Name == edit.SetCodeText {
			continue // the instruction gives the replacement, not the whole text
		}
		id(op.Block)
		id(op.Span)
		if kind != "list-kind" {
			id(op.After)
			id(op.Parent)
		}
		if op.NewBlock != nil {
			id(op.NewBlock.ID)
		}
		if op.NewSpan != nil {
			id(op.NewSpan.ID)
		}
		if op.Edge != nil {
			ref(op.Edge.Subject)
			ref(op.Edge.Object)
			say("predicate", op.Edge.Predicate)
		}
		if op.Predicate != nil {
			say("predicate", *op.Predicate)
		}
		if op.Target != "" {
			ref(op.Target)
		}
		if m := op.Mark; m != nil && m.Link != nil {
			ref(m.Link.Target)
		} else if m != nil {
			say("mark", m.Name)
		}
	}
	var written []*edit.Op
	for _, op := range t.GoldEdit {
		if op.Name != edit.SetCodeText {
			written = append(written, op)
		}
	}
	for _, text := range writtenTexts(written) {
		if !held[text] {
			say("text", text)
		}
	}
	return out
}
