package edit_test

import (
	"bytes"
	"strings"
	"testing"

	"bendscript.com/round-trip-harness/bend"
	"bendscript.com/round-trip-harness/corpus"
	"bendscript.com/round-trip-harness/edit"
	"bendscript.com/round-trip-harness/instructions"
	"bendscript.com/round-trip-harness/task"
)

// TestInverseOfEveryCorpusEdit: for every class B and C task of the
// embedded corpus, the forward gold edit then its inverse gives the source
// back byte for byte and with the same computed id, and the source passes
// the inverse's own check. (An external test package: task imports edit.)
func TestInverseOfEveryCorpusEdit(t *testing.T) {
	s, probs := task.Load(corpus.FS, instructions.FS)
	for _, p := range probs {
		// The inverse task files are task's to check; this test derives
		// the inverses itself.
		if !strings.HasPrefix(p.File, "instructions/"+task.InverseDir+"/") {
			t.Fatalf("embedded corpus: %v", p)
		}
	}
	n := 0
	for _, tk := range s.Tasks {
		if tk.Expected == nil {
			continue
		}
		n++
		t.Run(tk.ID, func(t *testing.T) {
			src := tk.Source.Doc
			inv, err := edit.Inverse(src, tk.GoldEdit)
			if err != nil {
				t.Fatal(err)
			}
			fwd, err := edit.Apply(src, tk.GoldEdit)
			if err != nil {
				t.Fatal(err)
			}
			back, err := edit.Apply(fwd, inv)
			if err != nil {
				t.Fatal(err)
			}
			idBack, err1 := bend.ID(back)
			idSrc, err2 := bend.ID(src)
			if err1 != nil || err2 != nil || idBack != idSrc || idSrc != src.ID {
				t.Errorf("id after forward and inverse %s (%v), source %s (%v), declared %s", idBack, err1, idSrc, err2, src.ID)
			}
			if !bytes.Equal(bend.Marshal(back), bend.Marshal(src)) {
				t.Errorf("forward then inverse is not byte-equal to the source")
			}
			if !bytes.Equal(bend.Marshal(back), tk.Source.Bytes) {
				t.Errorf("forward then inverse is not the corpus file as stored")
			}
			if applied, _ := edit.Compliance(edit.Check(back, src.ID, inv)); !applied {
				t.Errorf("the source fails the inverse's own check: %+v", edit.Check(back, src.ID, inv))
			}
			if applied, _ := edit.Compliance(edit.Check(fwd, src.ID, inv)); applied {
				t.Errorf("the forward expected document already passes the inverse's check")
			}
		})
	}
	if n != 40 {
		t.Errorf("%d class B/C tasks, want 40", n)
	}
}
